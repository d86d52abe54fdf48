import { createRequire } from "node:module";
import { Language, Parser } from "web-tree-sitter";

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
}

export interface BashParser {
  parse(source: string): ParsedScript;
}

let loading: Promise<BashParser> | undefined;

/** Loads the bash grammar once per process; later calls return the same parser. */
export function loadBashParser(): Promise<BashParser> {
  loading ??= createBashParser();
  return loading;
}

async function createBashParser(): Promise<BashParser> {
  const require = createRequire(import.meta.url);
  await Parser.init();
  const language = await Language.load(require.resolve("tree-sitter-bash/tree-sitter-bash.wasm"));
  const parser = new Parser();
  parser.setLanguage(language);
  return {
    parse(source: string): ParsedScript {
      const tree = parser.parse(source);
      if (!tree) throw new Error("tree-sitter returned no tree");
      try {
        const cursor = tree.walk();
        try {
          const state = { hasError: false };
          const root = copyNode(cursor, state);
          return { source, root, hasError: state.hasError };
        } finally {
          cursor.delete();
        }
      } finally {
        tree.delete();
      }
    },
  };
}

type Cursor =
  ReturnType<Parser["parse"]> extends infer T ? (T extends { walk(): infer C } ? C : never) : never;

function copyNode(cursor: Cursor, state: { hasError: boolean }): SyntaxNode {
  const type = cursor.nodeType;
  const missing = cursor.nodeIsMissing;
  if (missing || type === "ERROR") state.hasError = true;
  const node: SyntaxNode = {
    type,
    named: cursor.nodeIsNamed,
    field: cursor.currentFieldName,
    start: cursor.startIndex,
    end: cursor.endIndex,
    missing,
    children: [],
  };
  if (cursor.gotoFirstChild()) {
    do node.children.push(copyNode(cursor, state));
    while (cursor.gotoNextSibling());
    cursor.gotoParent();
  }
  return node;
}
