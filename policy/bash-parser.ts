import { createRequire } from "node:module";
import { Language, Parser } from "web-tree-sitter";
import { keepWasmOnBaselineTier } from "../base/wasm-tier.ts";

/**
 * A plain-object copy of a tree-sitter node. The classifier walks these instead of live wasm
 * nodes: one cursor pass per parse is much cheaper than many wasm calls per node, and the wasm
 * tree can be deleted at once (no leaks, no use-after-free).
 */
export interface SyntaxNode {
  type: string;
  named: boolean;
  /** Field name in the parent (`name`, `argument`, `redirect`, `body` …) or null. */
  field: string | null;
  start: number;
  end: number;
  missing: boolean;
  children: SyntaxNode[];
}

export interface ParsedScript {
  source: string;
  root: SyntaxNode;
  /** True when the tree holds ERROR or MISSING nodes. */
  hasError: boolean;
  /** Why the command must not run although it parsed: the second parser disagrees or fails. */
  rejection?: string;
}

export interface BashParser {
  parse(source: string): ParsedScript;
  /** Size of the parser's wasm heap; it only grows, so a leak of trees shows up here. */
  wasmHeapBytes(): number;
}

let loading: Promise<BashParser> | undefined;

/** Loads the bash grammar once per process; later calls return the same parser. */
export function loadBashParser(): Promise<BashParser> {
  loading ??= createBashParser();
  return loading;
}

async function createBashParser(): Promise<BashParser> {
  // TurboFan on the grammar's huge functions cost more CPU than every parse after it (base/wasm-tier.ts).
  keepWasmOnBaselineTier();
  const require = createRequire(import.meta.url);
  // Emscripten fills the module object passed to init with its heap views (HEAPU8 …).
  const wasmModule: { HEAPU8?: Uint8Array } = {};
  await Parser.init(wasmModule);
  const language = await Language.load(require.resolve("tree-sitter-bash/tree-sitter-bash.wasm"));
  const parser = new Parser();
  parser.setLanguage(language);
  // Per type id: name and whether it is named, so the copy costs fewer wasm calls per node.
  const types: string[] = [];
  const named: boolean[] = [];
  for (let id = 0; id < language.nodeTypeCount; id++) {
    types.push(language.nodeTypeForId(id) ?? "ERROR");
    named.push(language.nodeTypeIsNamed(id));
  }
  const fields: (string | null)[] = [null];
  for (let id = 1; id <= language.fieldCount; id++) fields.push(language.fieldNameForId(id));
  // Anonymous tokens the walk reads: redirection and pipe operators. Other punctuation and
  // keywords (quotes, `$(`, `;`, `then` …) are skipped when copying a tree without errors.
  const keepAnonymous = types.map((type) => /^[<>&|]/.test(type));
  const table: TypeTable = { types, named, fields, keepAnonymous };
  return {
    wasmHeapBytes: () => wasmModule.HEAPU8?.buffer.byteLength ?? 0,
    parse(source: string): ParsedScript {
      const tree = parser.parse(source);
      if (!tree) throw new Error("tree-sitter returned no tree");
      try {
        const hasError = tree.rootNode.hasError;
        const cursor = tree.walk();
        try {
          // A tree with errors is copied whole (lint and reject messages point into it).
          const root = hasError
            ? copyNode(cursor, table, { hasError })
            : copyFast(cursor, table, cursor.nodeTypeId);
          return { source, root, hasError };
        } finally {
          cursor.delete();
        }
      } finally {
        tree.delete();
      }
    },
  };
}

interface TypeTable {
  types: string[];
  named: boolean[];
  fields: (string | null)[];
  keepAnonymous: boolean[];
}

type Cursor =
  ReturnType<Parser["parse"]> extends infer T ? (T extends { walk(): infer C } ? C : never) : never;

function copyNode(cursor: Cursor, table: TypeTable, state: { hasError: boolean }): SyntaxNode {
  const typeId = cursor.nodeTypeId;
  const type = typeId === 65535 ? "ERROR" : (table.types[typeId] ?? "ERROR");
  const start = cursor.startIndex;
  const end = cursor.endIndex;
  // MISSING nodes are zero-width: only ask tree-sitter about those.
  const missing = start === end && cursor.nodeIsMissing;
  if (missing || type === "ERROR") state.hasError = true;
  const node: SyntaxNode = {
    type,
    named: type === "ERROR" || (table.named[typeId] ?? true),
    field: table.fields[cursor.currentFieldId] ?? null,
    start,
    end,
    missing,
    children: [],
  };
  if (cursor.gotoFirstChild()) {
    do node.children.push(copyNode(cursor, table, state));
    while (cursor.gotoNextSibling());
    cursor.gotoParent();
  }
  return node;
}

/** Copy of an error-free tree: named nodes and operator tokens only, about half the wasm calls. */
function copyFast(cursor: Cursor, table: TypeTable, typeId: number): SyntaxNode {
  const node: SyntaxNode = {
    type: table.types[typeId] ?? "ERROR",
    named: table.named[typeId] ?? true,
    field: table.fields[cursor.currentFieldId] ?? null,
    start: cursor.startIndex,
    end: cursor.endIndex,
    missing: false,
    children: [],
  };
  if (cursor.gotoFirstChild()) {
    const keepAll = node.type === "concatenation";
    do {
      const childType = cursor.nodeTypeId;
      if (keepAll || table.named[childType] || table.keepAnonymous[childType]) {
        node.children.push(copyFast(cursor, table, childType));
      }
    } while (cursor.gotoNextSibling());
    cursor.gotoParent();
  }
  return node;
}

/** The first ERROR or MISSING node, depth first (for messages that point at the problem). */
export function firstError(node: SyntaxNode): SyntaxNode | null {
  if (node.type === "ERROR" || node.missing) return node;
  for (const child of node.children) {
    const found = firstError(child);
    if (found) return found;
  }
  return null;
}
