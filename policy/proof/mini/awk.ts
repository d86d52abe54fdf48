import type { ProofContext, Verdict } from "../context.ts";
import { mayReboot, reachesDevice } from "../devices.ts";
import type { ProofWord } from "../proof-word.ts";

/**
 * The awk subset proven read-only: no `system()`, no pipes (`print | "cmd"`, `"cmd" | getline`,
 * `|&` coprocesses), no output redirection inside `print`/`printf`, no `@` indirect calls or
 * `@load`/`@include`. Strings and regex literals are skipped so their text cannot hide or fake a
 * token. A newline ends a `print` statement only where awk ends it: not after `\`, `,`, `&&`,
 * `||`, `?`, `:`, `do` or `else`, where awk reads on (`print 1,⏎2 > "f"` writes f). The files
 * it reads are fixed: `getline < "literal"` (no device whose opening acts), no `ARGV`/`ARGC`
 * (changing them opens other files).
 */
export function checkAwkProgram(program: string, ctx: ProofContext): Verdict {
  let inPrint = false;
  let inGetline = false;
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
      if (word === "ARGV" || word === "ARGC")
        return mayReboot("awk `ARGV`/`ARGC` can name files to read at run time, devices included", ctx);
      if (word === "getline") inGetline = true;
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
    if (c === "<" && inGetline) {
      const verdict = getlineSource(program, i + 1, ctx);
      if (verdict) return verdict;
    }
    if (c === ";" || c === "\n" || c === "}" || c === "{") {
      inPrint = false;
      inGetline = false;
    }
    if (!/\s/.test(c)) previous = /[)\]0-9]/.test(c) ? "value" : "op";
  }
  return null;
}

/** `getline < "file"`: the file must be fixed text, and no device whose opening acts. */
function getlineSource(program: string, at: number, ctx: ProofContext): Verdict {
  const match = /^\s*"([^"\\]*)"/.exec(program.slice(at));
  if (!match) return mayReboot("awk `getline <` reads a file named at run time, devices included", ctx);
  const value = match[1] as string;
  if (/^\/inet[46]?\//.test(value)) return 'awk `getline < "/inet/…"` opens a network connection';
  const word = { value, raw: value, static: true, mayBeOption: false } as ProofWord;
  const device = reachesDevice(word, ctx);
  return device ? `awk \`getline <\`: ${device}` : null;
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
