import type { Verdict } from "../context.ts";

/**
 * The sed subset proven read-only, by parsing the script: addresses, then commands. `e` (run),
 * `w`/`W` (write), `r`/`R` (read a file into the output, devices included), and the `e`/`w` flags
 * of `s` are outside it; so is any command this parser does not know.
 */
const SIMPLE = new Set(["=", "d", "D", "g", "G", "h", "H", "n", "N", "p", "P", "x", "z", "F"]);
const OPTIONAL_NUMBER = new Set(["l", "L", "q", "Q"]);
const LABELLED = new Set(["b", "t", "T", ":"]);
const TEXT = new Set(["a", "i", "c"]);

export function checkSedScript(script: string): Verdict {
  let i = 0;
  const n = script.length;
  const skipSpace = () => {
    while (i < n && /[\s;]/.test(script[i] as string)) i++;
  };
  const readDelimited = (delimiter: string): boolean => {
    for (; i < n; i++) {
      const c = script[i] as string;
      if (c === "\\") {
        i++;
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
      if (!readDelimited("/")) return false;
      while (i < n && /[IM]/.test(script[i] as string)) i++;
    } else if (c === "\\") {
      const delimiter = script[i + 1] ?? "";
      i += 2;
      if (!readDelimited(delimiter)) return false;
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
    if (LABELLED.has(command) || TEXT.has(command)) {
      while (i < n && script[i] !== "\n" && (TEXT.has(command) || script[i] !== ";")) {
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
      if (!readDelimited(delimiter) || !readDelimited(delimiter)) return "a sed `s` command is not closed";
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
