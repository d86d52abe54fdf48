import type { Verdict } from "../context.ts";

/**
 * The awk subset proven read-only: no `system()`, no pipes (`print | "cmd"`, `"cmd" | getline`,
 * `|&` coprocesses), no output redirection inside `print`/`printf`, no `@` indirect calls or
 * `@load`/`@include`. Strings and regex literals are skipped so their text cannot hide or fake a
 * token. A newline ends a `print` statement only where awk ends it: not after `\`, `,`, `&&`,
 * `||`, `?`, `:`, `do` or `else`, where awk reads on (`print 1,⏎2 > "f"` writes f).
 */
export function checkAwkProgram(program: string): Verdict {
  let inPrint = false;
  let depth = 0;
  let previous = "";
  /** The last character or word that was not blank: whether a newline continues the statement. */
  let lastToken = "";
  for (let i = 0; i < program.length; i++) {
    const c = program[i] as string;
    if (c === "\\" && program[i + 1] === "\n") {
      i++;
      continue;
    }
    if (c === "\n" && CONTINUES.has(lastToken)) continue;
    if (!/\s/.test(c)) lastToken = c;
    if (c === '"') {
      i = skipQuoted(program, i, '"');
      previous = "string";
      continue;
    }
    if (c === "/" && regexMayStart(previous)) {
      i = skipQuoted(program, i, "/");
      previous = "regex";
      continue;
    }
    if (c === "#") {
      while (i < program.length && program[i] !== "\n") i++;
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      let j = i;
      while (j < program.length && /[A-Za-z0-9_]/.test(program[j] as string)) j++;
      const word = program.slice(i, j);
      if (word === "system") return "awk `system()` runs a command";
      if (word === "print" || word === "printf") inPrint = true;
      lastToken = word;
      previous = "word";
      i = j - 1;
      continue;
    }
    if (c === "@") return "awk `@` calls a function by name or loads an extension";
    if (c === "|") {
      if (program[i + 1] === "|") {
        i++;
        previous = "op";
        continue;
      }
      return "awk `|` pipes to or from a command";
    }
    if (c === "(") depth++;
    if (c === ")") depth = Math.max(0, depth - 1);
    if (c === ">" && inPrint && depth === 0) return "awk `print > file` writes a file";
    if (c === ";" || c === "\n" || c === "}" || c === "{") inPrint = false;
    if (!/\s/.test(c)) previous = /[)\]0-9]/.test(c) ? "value" : "op";
  }
  return null;
}

const CONTINUES = new Set([",", "&", "|", "?", ":", "do", "else"]);

function skipQuoted(text: string, at: number, quote: string): number {
  for (let i = at + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === quote) return i;
  }
  return text.length;
}

/** A `/` starts a regex unless it follows a value (then it divides). */
function regexMayStart(previous: string): boolean {
  return previous !== "value" && previous !== "word" && previous !== "string";
}
