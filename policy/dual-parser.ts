import type { BashParser, ParsedScript } from "./bash-parser.ts";
import { compareShapes, secondShape, treeSitterShape } from "./parse-agreement.ts";
import type { SecondParser } from "./second-parser.ts";

/**
 * Parses with tree-sitter-bash (the tree the classifier walks) and with mvdan/sh, a parser from
 * other authors. When mvdan/sh cannot parse the text, or the two disagree on the structure that
 * decides safety, the parse carries a `rejection` and the walk rejects the command.
 */
export function createDualParser(first: BashParser, second: SecondParser): BashParser {
  return {
    wasmHeapBytes: () => first.wasmHeapBytes(),
    parse(source: string): ParsedScript {
      const parsed = first.parse(source);
      if (parsed.hasError) return parsed;
      const other = second.parse(source);
      if (!other.ok) {
        return {
          ...parsed,
          rejection: `the second bash parser (mvdan/sh) cannot parse it: ${other.error}; write it as plain bash`,
        };
      }
      const disagreement = compareShapes(
        treeSitterShape(parsed),
        secondShape(other.tree, second, source),
        source,
      );
      return disagreement ? { ...parsed, rejection: disagreement.reason } : parsed;
    },
  };
}
