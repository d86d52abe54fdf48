import type { SyntaxNode } from "./bash-parser.ts";
import type { Arg } from "./command-view.ts";
import { finding } from "./command-view.ts";
import { toArg } from "./redirects.ts";
import type { Finding } from "./risk.ts";
import { quoteSegment } from "./risk.ts";

/**
 * Code written as a literal that bash or a builtin runs anyway. Only what is destructive there
 * raises the verdict: a literal `$(…)` that is merely printed costs nothing more than that.
 */
type Nested = (script: string) => Finding[];

/** Builtins that run one of their option values as a command: `mapfile -C cmd`, `compgen -C cmd`. */
const CALLBACK_OPTIONS: ReadonlyMap<string, string> = new Map([
  ["mapfile", "-C"],
  ["readarray", "-C"],
  ["compgen", "-C"],
  ["complete", "-C"],
]);

/** Alias bodies and callback options of a command. */
export function callbackCode(args: Arg[], nested: Nested): Finding[] {
  const scripts: string[] = [];
  const head = args[0]?.value ?? "";
  const callback = CALLBACK_OPTIONS.get(head);
  for (const [i, arg] of args.entries()) {
    if (arg.dynamic !== "none") continue;
    if (head === "alias" && i > 0 && arg.value.includes("="))
      scripts.push(arg.value.slice(arg.value.indexOf("=") + 1));
    if (callback !== undefined && i > 0 && args[i - 1]?.value === callback) scripts.push(arg.value);
  }
  return scripts.flatMap((script) => nested(script).filter((f) => f.risk === "destructive"));
}

/**
 * Quoted text holding `$(…)` or backquotes: bash runs it wherever the text is evaluated again
 * (arithmetic, subscripts, `declare -i`, `test -v`, `[[ -eq ]]`, `PS4`, `shift`). Returns the
 * quoted text and its destructive findings, one entry per such literal.
 */
export function literalCode(node: SyntaxNode, source: string, nested: Nested): [string, Finding[]][] {
  if (node.type === "raw_string" || node.type === "ansi_c_string" || node.type === "string") {
    const value = toArg(node, source);
    if (value.dynamic !== "none" || !/\$\(|`/.test(value.value)) return [];
    const destructive = nested(value.value).filter((f) => f.risk === "destructive");
    if (destructive.length === 0) return [];
    const text = source.slice(node.start, node.end);
    return [
      [
        text,
        [
          ...destructive,
          finding(
            "destructive",
            `${quoteSegment(text)} holds code bash runs if the text is evaluated (destructive)`,
          ),
        ],
      ],
    ];
  }
  return node.children.flatMap((child) => literalCode(child, source, nested));
}
