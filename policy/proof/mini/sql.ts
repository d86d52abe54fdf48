import type { Verdict } from "../context.ts";

/**
 * The SQL subset proven read-only: statements that start with SELECT, SHOW, DESCRIBE/DESC, TABLE
 * or EXPLAIN (not ANALYZE), holding no keyword that writes, locks or runs code, and calling only
 * functions on a list of side-effect-free ones (a user function called from SELECT can write).
 * Client meta-commands (`\!`, `\o`, `system`, `pager`, `tee`) are outside it: a backslash is
 * refused anywhere outside string literals, except the listing meta-commands below alone.
 */
const START = new Set(["select", "show", "describe", "desc", "explain", "table", "values"]);
const FORBIDDEN = new Set([
  "insert",
  "update",
  "delete",
  "drop",
  "alter",
  "create",
  "truncate",
  "grant",
  "revoke",
  "copy",
  "call",
  "do",
  "set",
  "lock",
  "vacuum",
  "analyze",
  "analyse",
  "reindex",
  "cluster",
  "comment",
  "security",
  "load",
  "for",
  "notify",
  "listen",
  "prepare",
  "execute",
  "deallocate",
  "discard",
  "reset",
  "refresh",
  "import",
  "attach",
  "detach",
  "pragma",
  "into",
  "merge",
  "replace",
  "handler",
  "kill",
  "shutdown",
  "flush",
  "purge",
  "install",
  "uninstall",
  "outfile",
  "dumpfile",
  "infile",
  "begin",
  "commit",
  "rollback",
  "savepoint",
  "release",
  "checkpoint",
  "system",
  "pager",
  "tee",
]);
const FUNCTIONS = new Set([
  "count",
  "sum",
  "min",
  "max",
  "avg",
  "coalesce",
  "nullif",
  "lower",
  "upper",
  "length",
  "trim",
  "substr",
  "substring",
  "concat",
  "round",
  "floor",
  "ceil",
  "abs",
  "now",
  "version",
  "current_date",
  "current_timestamp",
  "current_database",
  "current_user",
  "current_schema",
  "database",
  "user",
  "pg_size_pretty",
  "pg_database_size",
  "pg_relation_size",
  "pg_total_relation_size",
  "pg_table_size",
  "pg_indexes_size",
  "pg_is_in_recovery",
  "pg_last_xact_replay_timestamp",
  "pg_postmaster_start_time",
  "pg_current_wal_lsn",
  "pg_wal_lsn_diff",
  "to_char",
  "date_trunc",
  "age",
  "extract",
  "cast",
  "string_agg",
  "array_agg",
  "json_agg",
  "jsonb_agg",
  "row_number",
  "rank",
  "format_type",
  "pg_get_userbyid",
  "has_table_privilege",
  "format",
  "date",
  "datetime",
  "strftime",
  "group_concat",
  "inet_server_addr",
  "txid_current_snapshot",
  "left",
  "right",
  "greatest",
  "least",
  "position",
  "split_part",
  "array_length",
  "unnest",
  "exists",
  "in",
  "any",
]);
const META = /^\\(l\+?|dt\+?|du\+?|dn\+?|di\+?|dv\+?|df\+?|dx\+?|d\+? [A-Za-z_][A-Za-z0-9_.]*|conninfo|x)$/;

export function checkSql(text: string): Verdict {
  const trimmed = text.trim();
  if (META.test(trimmed)) return null;
  let statements = 0;
  for (const statement of splitStatements(trimmed)) {
    if (statement === null) return "an SQL string or identifier is not closed";
    const tokens = tokenize(statement);
    if (tokens === null) return "the SQL holds a backslash or client command outside the read-only subset";
    if (tokens.length === 0) continue;
    statements++;
    const first = (tokens[0] as string).toLowerCase();
    if (!START.has(first)) return `the SQL statement \`${first.toUpperCase()} …\` is not a read-only query`;
    for (let k = 0; k < tokens.length; k++) {
      const token = (tokens[k] as string).toLowerCase();
      if (FORBIDDEN.has(token))
        return `the SQL uses \`${token.toUpperCase()}\`, which writes, locks or runs code`;
      if (
        tokens[k + 1] === "(" &&
        /^[a-z_][a-z0-9_.]*$/.test(token) &&
        !FUNCTIONS.has(token.replace(/^pg_catalog\./, ""))
      ) {
        return `the SQL calls \`${token}()\`, which is not a function proven free of side effects`;
      }
    }
  }
  return statements > 0 ? null : "the SQL is empty";
}

function splitStatements(text: string): (string | null)[] {
  const out: (string | null)[] = [];
  let current = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === "'" || c === '"' || c === "`") {
      const end = text.indexOf(c, i + 1);
      if (end < 0) return [null];
      current += text.slice(i, end + 1);
      i = end;
      continue;
    }
    if (c === ";") {
      out.push(current);
      current = "";
      continue;
    }
    current += c;
  }
  out.push(current);
  return out;
}

/** Words, numbers and punctuation; string literals become one token `'…'`. Null on a backslash. */
function tokenize(statement: string): string[] | null {
  const tokens: string[] = [];
  for (let i = 0; i < statement.length; i++) {
    const c = statement[i] as string;
    if (/\s/.test(c)) continue;
    if (c === "\\") return null;
    if (c === "-" && statement[i + 1] === "-") {
      while (i < statement.length && statement[i] !== "\n") i++;
      continue;
    }
    if (c === "/" && statement[i + 1] === "*") return null;
    if (c === "'" || c === '"' || c === "`") {
      const end = statement.indexOf(c, i + 1);
      const literal = statement.slice(i, end + 1);
      if (literal.includes("\\")) return null;
      tokens.push(c === "'" ? "'…'" : literal.slice(1, -1));
      i = end;
      continue;
    }
    if (c === "$") return null;
    if (/[A-Za-z0-9_.]/.test(c)) {
      let j = i;
      while (j < statement.length && /[A-Za-z0-9_.]/.test(statement[j] as string)) j++;
      tokens.push(statement.slice(i, j));
      i = j - 1;
      continue;
    }
    tokens.push(c);
  }
  return tokens;
}
