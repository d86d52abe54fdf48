import type {
  ColumnUpdateNode,
  InsertQueryNode,
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
  UpdateQueryNode,
} from "kysely";
import { REDACTED, redact } from "../policy/redact.ts";

/**
 * The storage boundary's redaction (issue #30): every text a query writes — insert values, update
 * sets, upserts — passes the same redactor as chat, logs and model context before it reaches a table,
 * so no caller can forget it (a model's proposed password in an audit row, a tool call's arguments in
 * the stored conversation, a routing change, an approval, a card). Installed on every store
 * connection (store/connect.ts). Reads, where-clauses and raw `sql` are not touched.
 */
export class RedactOnWrite implements KyselyPlugin {
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const node = args.node;
    if (node.kind === "InsertQueryNode") return redactInsert(node);
    if (node.kind === "UpdateQueryNode") return redactUpdate(node);
    return node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

/**
 * Columns written exactly as given. Each is either never text someone proposes, or would break if
 * rewritten; every exemption says why.
 */
const EXEMPT: Readonly<Record<string, ReadonlySet<string> | "table">> = {
  // a chat SDK's own state (sync token, filter): opaque, written only by the SDK
  kv: "table",
  // host public keys as the host presented them: compared byte for byte on the next connection
  known_hosts: "table",
  // redacted where they are captured (jobs/execution, the one writer store/executions.ts), and the
  // largest values written: not scanned twice
  executions: new Set(["stdout", "stderr"]),
};

/** No secret the rule set knows is this short; ids, statuses and timestamps skip the scan. */
const MIN_SCANNED = 8;

/** Keys whose string value is a credential wherever it appears in stored JSON. */
const CREDENTIAL_KEY =
  /(^|[._-])pass($|[._-])|password|passwd|passphrase|secret|(^|[._-])token$|api[_-]?key|private[_-]?key(?!_file)|credential/i;

function exempt(table: string | undefined, column: string | undefined): boolean {
  if (table === undefined) return false;
  const rule = EXEMPT[table];
  if (rule === undefined) return false;
  return rule === "table" || (column !== undefined && rule.has(column));
}

function redactInsert(node: InsertQueryNode): InsertQueryNode {
  const table = tableName(node.into);
  if (table !== undefined && EXEMPT[table] === "table") return node;
  const columns = (node.columns ?? []).map((c) => columnName(c));
  const values = node.values;
  const rows =
    values?.kind === "ValuesNode" ? (values as unknown as { values: readonly OperationNode[] }).values : [];
  const updates = node.onConflict?.updates ?? [];
  // A credential the query carries under its name (`"ssh.password": "…"`) is redacted wherever else the
  // same query repeats it, e.g. in prose: "log in with the password …".
  const known = credentialsIn([...rows.flatMap(rowValues), ...updates.map((u) => nodeValue(u.value))]);
  const next: Partial<{ -readonly [K in keyof InsertQueryNode]: InsertQueryNode[K] }> = {};
  if (values?.kind === "ValuesNode") {
    next.values = {
      ...values,
      values: rows.map((row) => redactRow(row, table, columns, known)),
    } as OperationNode;
  }
  if (node.onConflict?.updates) {
    next.onConflict = { ...node.onConflict, updates: updates.map((u) => redactSet(u, table, known)) };
  }
  return { ...node, ...next };
}

function rowValues(row: OperationNode): unknown[] {
  if (row.kind === "PrimitiveValueListNode")
    return [...(row as unknown as { values: readonly unknown[] }).values];
  if (row.kind === "ValueListNode")
    return (row as unknown as { values: readonly OperationNode[] }).values.map(nodeValue);
  return [];
}

function nodeValue(node: OperationNode): unknown {
  return node.kind === "ValueNode" ? (node as unknown as { value: unknown }).value : undefined;
}

function redactRow(
  row: OperationNode,
  table: string | undefined,
  columns: (string | undefined)[],
  known: readonly string[],
): OperationNode {
  if (row.kind === "PrimitiveValueListNode") {
    const list = row as unknown as { values: readonly unknown[] };
    return {
      ...row,
      values: list.values.map((value, i) => (exempt(table, columns[i]) ? value : redactValue(value, known))),
    } as OperationNode;
  }
  if (row.kind === "ValueListNode") {
    const list = row as unknown as { values: readonly OperationNode[] };
    return {
      ...row,
      values: list.values.map((value, i) => (exempt(table, columns[i]) ? value : redactNode(value, known))),
    } as OperationNode;
  }
  return row;
}

function redactUpdate(node: UpdateQueryNode): UpdateQueryNode {
  const table = node.table?.kind === "TableNode" ? tableName(node.table) : aliasedTable(node.table);
  if (table !== undefined && EXEMPT[table] === "table") return node;
  if (!node.updates) return node;
  const known = credentialsIn(node.updates.map((u) => nodeValue(u.value)));
  return { ...node, updates: node.updates.map((u) => redactSet(u, table, known)) };
}

function redactSet(
  update: ColumnUpdateNode,
  table: string | undefined,
  known: readonly string[],
): ColumnUpdateNode {
  if (exempt(table, columnName(update.column))) return update;
  return { ...update, value: redactNode(update.value, known) };
}

function redactNode(node: OperationNode, known: readonly string[]): OperationNode {
  if (node.kind !== "ValueNode") return node;
  const value = (node as unknown as { value: unknown }).value;
  const redacted = redactValue(value, known);
  return redacted === value ? node : ({ ...node, value: redacted } as OperationNode);
}

/** No credential is this short; a shorter value under a credential key is not searched for elsewhere. */
const MIN_KNOWN = 6;

/** The string values under credential keys anywhere in these values (JSON text included), longest first. */
export function credentialsIn(values: readonly unknown[]): string[] {
  const found = new Set<string>();
  const walk = (value: unknown, key?: string): void => {
    if (typeof value === "string") {
      if (key !== undefined && CREDENTIAL_KEY.test(key) && value.length >= MIN_KNOWN && value !== REDACTED) {
        found.add(value);
        return;
      }
      const first = value.trimStart()[0];
      if (value.length >= MIN_SCANNED && (first === "{" || first === "[")) {
        try {
          walk(JSON.parse(value));
        } catch {
          // not JSON: prose, scanned by the rule set
        }
      }
      return;
    }
    if (Array.isArray(value)) for (const item of value) walk(item);
    else if (value !== null && typeof value === "object" && !(value instanceof Date))
      for (const [k, item] of Object.entries(value)) walk(item, k);
  };
  for (const value of values) walk(value);
  return [...found].sort((a, b) => b.length - a.length);
}

/**
 * A value as stored: strings redacted (a JSON document is redacted as data, so a credential under a
 * key like `ssh.password` goes whatever its shape), objects and arrays deeply; anything else as is.
 */
export function redactValue(value: unknown, known: readonly string[] = []): unknown {
  if (typeof value === "string") return redactText(value, known);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, known));
  if (value !== null && typeof value === "object" && !(value instanceof Date) && !ArrayBuffer.isView(value)) {
    return redactJson(value, known);
  }
  return value;
}

function redactText(text: string, known: readonly string[]): string {
  if (text.length < MIN_SCANNED && !known.some((secret) => text.includes(secret))) return text;
  const first = text.trimStart()[0];
  if (first === "{" || first === "[") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return redactProse(text, known);
    }
    const redacted = redactJson(parsed, known);
    return redacted === parsed ? text : JSON.stringify(redacted);
  }
  return redactProse(text, known);
}

function redactProse(text: string, known: readonly string[]): string {
  let out = redact(text);
  for (const secret of known) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}

/** Deep redaction that returns the same object when nothing changed (so unchanged JSON keeps its text). */
function redactJson(value: unknown, known: readonly string[], key?: string): unknown {
  if (typeof value === "string") {
    if (key !== undefined && CREDENTIAL_KEY.test(key) && value !== "" && value !== REDACTED) return REDACTED;
    return redactText(value, known);
  }
  if (Array.isArray(value)) {
    const items = value.map((item) => redactJson(item, known));
    return items.every((item, i) => item === value[i]) ? value : items;
  }
  if (value !== null && typeof value === "object") {
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [k, item] of Object.entries(value)) {
      const redacted = redactJson(item, known, k);
      if (redacted !== item) changed = true;
      out[k] = redacted;
    }
    return changed ? out : value;
  }
  return value;
}

function tableName(node: OperationNode | undefined): string | undefined {
  if (node?.kind !== "TableNode") return undefined;
  return (node as unknown as { table: { identifier: { name: string } } }).table.identifier.name;
}

function aliasedTable(node: OperationNode | undefined): string | undefined {
  if (node?.kind !== "AliasNode") return undefined;
  return tableName((node as unknown as { node: OperationNode }).node);
}

function columnName(node: OperationNode): string | undefined {
  if (node.kind !== "ColumnNode") return undefined;
  return (node as unknown as { column: { name: string } }).column.name;
}
