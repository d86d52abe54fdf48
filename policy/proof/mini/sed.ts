import type { Verdict } from "../context.ts";

/**
 * The sed subset proven read-only, by parsing the script: addresses, then commands. `e` (run),
 * `w`/`W` (write), `r`/`R` (read a file into the output, devices included), and the `e`/`w` flags
 * of `s` are outside it; so is any command this parser does not know.
 *
 * Where sed implementations read a script differently, every reading must pass: GNU sed takes the
 * delimiter inside a bracket expression literally (`s/a[/]/cmd/e` runs cmd), other seds do not;
 * GNU ends a label at whitespace (`:x e cmd` runs cmd), POSIX at the newline.
 */
const SIMPLE = new Set(["=", "d", "D", "g", "G", "h", "H", "n", "N", "p", "P", "x", "z", "F"]);
const OPTIONAL_NUMBER = new Set(["l", "L", "q", "Q"]);
const LABELLED = new Set(["b", "t", "T", ":"]);
const TEXT = new Set(["a", "i", "c"]);

export function checkSedScript(script: string): Verdict {
  return readScript(script, false) ?? readScript(script, true);
}

function readScript(script: string, brackets: boolean): Verdict {
  let i = 0;
  const n = script.length;
  const skipSpace = () => {
    while (i < n && /[\s;]/.test(script[i] as string)) i++;
  };
  /** Reads to the closing delimiter; in a regex (`brackets`) a `[...]` may hold the delimiter. */
  const readDelimited = (delimiter: string, regex = false): boolean => {
    for (; i < n; i++) {
      const c = script[i] as string;
      if (c === "\\") {
        i++;
        continue;
      }
      if (regex && brackets && c === "[") {
        i = bracketEnd(script, i);
        continue;
      }
      if (c === "\n" && delimiter !== "\n") return false;
      if (c === delimiter) {
        i++;
        return true;
      }
    }
    return false;
  };
  const address = (): boolean => {
    const c = script[i];
    if (c === undefined) return true;
    if (/[0-9]/.test(c)) {
      while (i < n && /[0-9~]/.test(script[i] as string)) i++;
    } else if (c === "$") i++;
    else if (c === "/") {
      i++;
      if (!readDelimited("/", true)) return false;
      while (i < n && /[IM]/.test(script[i] as string)) i++;
    } else if (c === "\\") {
      const delimiter = script[i + 1] ?? "";
      i += 2;
      if (!readDelimited(delimiter, true)) return false;
    }
    return true;
  };
  while (true) {
    skipSpace();
    if (i >= n) return null;
    if (!address()) return "the sed address is not closed";
    if (script[i] === ",") {
      i++;
      if (script[i] === "+" || script[i] === "~") i++;
      if (!address()) return "the sed address is not closed";
    }
    while (i < n && /[\s!]/.test(script[i] as string)) i++;
    const command = script[i];
    if (command === undefined) return "a sed address without a command";
    i++;
    if (command === "{" || command === "}") continue;
    if (command === "#") {
      while (i < n && script[i] !== "\n") i++;
      continue;
    }
    if (SIMPLE.has(command)) continue;
    if (OPTIONAL_NUMBER.has(command)) {
      while (i < n && /[ 0-9]/.test(script[i] as string)) i++;
      continue;
    }
    if (LABELLED.has(command)) {
      // The label is the next run of non-blank text; whatever follows is the next command.
      while (i < n && /[ \t]/.test(script[i] as string)) i++;
      while (i < n && !/[\s;]/.test(script[i] as string)) i++;
      continue;
    }
    if (TEXT.has(command)) {
      while (i < n && script[i] !== "\n") {
        if (script[i] === "\\") i++;
        i++;
      }
      continue;
    }
    if (command === "s" || command === "y") {
      const delimiter = script[i];
      if (delimiter === undefined || delimiter === "\n" || delimiter === "\\")
        return "a sed `s` without a delimiter";
      i++;
      if (!readDelimited(delimiter, command === "s") || !readDelimited(delimiter))
        return "a sed `s` command is not closed";
      if (command === "s") {
        while (i < n && /[gpiImM0-9]/.test(script[i] as string)) i++;
        const flag = script[i];
        if (flag === "e") return "the sed flag `s///e` runs the pattern space as a command";
        if (flag === "w") return "the sed flag `s///w` writes a file";
      }
      continue;
    }
    if (command === "e") return "sed `e` runs a command";
    if (command === "w" || command === "W") return "sed `w` writes a file";
    if (command === "r" || command === "R") return "sed `r` reads a file or device into the output";
    return `sed \`${command}\` is not a command proven read-only`;
  }
}

/** Where a bracket expression that opens at `at` closes (`[]…]` and `[^]…]` hold a literal `]`). */
function bracketEnd(script: string, at: number): number {
  let i = at + 1;
  if (script[i] === "^") i++;
  if (script[i] === "]") i++;
  for (; i < script.length; i++) {
    const c = script[i];
    if (c === "\n") return i - 1;
    if (c === "[" && /[:.=]/.test(script[i + 1] ?? "")) {
      const close = script.indexOf(`${script[i + 1]}]`, i + 2);
      if (close > 0) i = close + 1;
      continue;
    }
    if (c === "]") return i;
  }
  return script.length;
}
