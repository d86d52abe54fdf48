import type { SyntaxNode } from "../bash-parser.ts";
import type { ProofContext, Verdict } from "./context.ts";

/**
 * Parameter expansions the proof allows: plain `$name`/`${name}`, special and positional
 * parameters, `${#name}`, `${name[@]}`, literal slices, and the pattern/default operators with
 * operands that hold no expansion. Never `${x@P}`/`@E`-style transformations (they run prompt
 * expansion), `${!x}` indirection (its value may hold a subscript that runs code), subscripts that
 * are not literal, assignments (`:=`) or `:?`.
 */
const NAME = "[A-Za-z_][A-Za-z0-9_]*";
const SPECIAL = "[0-9?#$!*@-]";
const SIMPLE = new RegExp(`^\\$(${NAME}|${SPECIAL})$`);
const BRACED = new RegExp(`^\\$\\{#?(${NAME}|${SPECIAL}|[0-9]+)(\\[[0-9@*]+\\])?\\}$`);
const SLICE = new RegExp(`^\\$\\{(${NAME}|[0-9@*])(\\[[@*]\\])?:[ ]?-?[0-9]+(:-?[0-9]+)?\\}$`);
const OPERATOR = new RegExp(
  `^\\$\\{(${NAME}|[0-9@*])(\\[[@*]\\])?(:?[-+]|##?|%%?|//?|,,?|\\^\\^?)(.*)\\}$`,
  "s",
);

export function checkExpansion(node: SyntaxNode, ctx: ProofContext): Verdict {
  const raw = ctx.source.slice(node.start, node.end);
  if (node.type === "simple_expansion") {
    return SIMPLE.test(raw) ? null : `\`${raw}\` is not a plain variable reference`;
  }
  if (BRACED.test(raw) || SLICE.test(raw)) return null;
  const operator = OPERATOR.exec(raw);
  if (operator) {
    const operand = operator[4] ?? "";
    // The operand is a word of its own; keep it to literal text and plain `$name`.
    if (/[`\\]|\$[({[]|\$\{/.test(operand))
      return `\`${raw}\` has an operand that expands code or subscripts`;
    return null;
  }
  return (
    `\`${raw}\` is an expansion outside the proven set (plain \`$name\`, \`\${name:-text}\`, ` +
    "`${name#pattern}` …; no `@P`-style transformations, `!` indirection or computed subscripts)"
  );
}

/**
 * `$(( … ))` and `[[ a -eq b ]]` evaluate their operands as arithmetic, and a variable holding
 * `a[$(cmd)]` runs `cmd` there. Allowed: numbers, operators, and variables this command never
 * assigns from text it does not control.
 */
export function checkArithmetic(text: string, ctx: ProofContext): Verdict {
  if (/[`\\[\]]|\$[({]|\+\+|--/.test(text) || assigns(text)) {
    return `the arithmetic \`${text}\` uses subscripts, substitutions or assignments`;
  }
  for (const match of text.matchAll(/\$([0-9@*#?!$-])|\$?([A-Za-z_][A-Za-z0-9_]*)/g)) {
    const name = (match[1] ?? match[2]) as string;
    if (/^[0-9@*#?!$-]/.test(name) || ctx.tainted.has(name)) {
      return `the arithmetic \`${text}\` reads \`${name}\`, whose text this command does not fix`;
    }
  }
  return null;
}

/** Whether arithmetic text holds an assignment (`=`, `+=`, `<<=` …), not a comparison (`==`, `<=`). */
function assigns(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== "=") continue;
    if (text[i + 1] === "=") {
      i++;
      continue;
    }
    const before = text[i - 1] ?? "";
    if (before === "=" || before === "!") continue;
    if ((before === "<" || before === ">") && text[i - 2] !== before) continue;
    return true;
  }
  return false;
}
