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
 * Variables bash itself keeps numeric: arithmetic may read them. Every other name bash assigns can
 * hold any text — `$_` (the last word of the previous command), `REPLY`, `BASH_REMATCH`,
 * `OPTARG`, `MAPFILE`, `BASH_COMMAND`, `PWD` … — and the environment is the target's, not fixed.
 */
const NUMERIC_SPECIALS = new Set([
  "#",
  "?",
  "$",
  "LINENO",
  "RANDOM",
  "SRANDOM",
  "SECONDS",
  "EPOCHSECONDS",
  "BASHPID",
  "PPID",
  "UID",
  "EUID",
  "SHLVL",
  "OPTIND",
  "PIPESTATUS",
]);

/**
 * Every context where bash evaluates arithmetic — `$(( … ))`, `$[ … ]`, `[[ a -eq b ]]` — reads a
 * variable's value as an expression again, so a value like `a[$(cmd)]` runs `cmd`, and the value
 * can come from a file name or a log line (`read`, `mapfile`, `getopts`, `printf -v`, `[[ =~ ]]`,
 * `for`, `$_`). Allowed: numbers, operators, the variables bash keeps numeric, and variables this
 * command assigns only literal numbers.
 */
export function checkArithmetic(text: string, ctx: ProofContext): Verdict {
  if (/[`\\[\]]|\$[({]|\+\+|--/.test(text) || assigns(text)) {
    return `the arithmetic \`${text}\` uses subscripts, substitutions or assignments`;
  }
  // Number literals first (`0x1f`, `16#ff`), so their letters are not read as names.
  for (const match of text.matchAll(/[0-9][A-Za-z0-9_#@]*|\$([0-9@*#?!$-])|\$?([A-Za-z_][A-Za-z0-9_]*)/g)) {
    const name = match[1] ?? match[2];
    if (name === undefined || NUMERIC_SPECIALS.has(name) || ctx.numeric.has(name)) continue;
    return (
      `the arithmetic \`${text}\` reads \`${name}\`, which this command does not set to a number it writes ` +
      "(bash evaluates its text again: a value like `a[$(cmd)]` runs cmd)"
    );
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
