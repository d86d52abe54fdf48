import { createHash } from "node:crypto";

/**
 * The retry key of a command on a target: the same command written with other whitespace,
 * quoting or escaping gives the same key (`echo "a b"` == `echo 'a b'` == `echo a\ b`),
 * while anything the shell would run differently gives another (`"$x"` vs `'$x'`).
 */
export function commandKey(target: string, command: string): string {
  const canonical = canonicalCommand(command);
  return createHash("sha256").update(`${target.trim().toLowerCase()}\n${canonical}`).digest("hex");
}

const OPERATOR_CHARS = new Set([";", "&", "|", "(", ")", "<", ">"]);
/** Characters that mean something to the shell when unquoted; escaped when they are literal. */
const SPECIAL = /[\s$`\\'"*?[\]{}~#;&|()<>!]/;

/**
 * Re-tokenises a command the way bash splits words and writes every word in one canonical
 * quoting: literal special characters backslash-escaped, expansions left bare.
 */
export function canonicalCommand(command: string): string {
  const tokens: string[] = [];
  let word = "";
  let inWord = false;
  const flush = () => {
    if (inWord) tokens.push(word);
    word = "";
    inWord = false;
  };
  const literal = (ch: string) => {
    word += SPECIAL.test(ch) ? `\\${ch}` : ch;
    inWord = true;
  };
  for (let i = 0; i < command.length; i++) {
    const ch = command[i] as string;
    if (ch === "\\") {
      const next = command[i + 1];
      i++;
      if (next === undefined) literal("\\");
      else if (next !== "\n") literal(next);
      continue;
    }
    if (ch === "'") {
      const end = command.indexOf("'", i + 1);
      const stop = end === -1 ? command.length : end;
      for (const c of command.slice(i + 1, stop)) literal(c);
      inWord = true;
      i = stop;
      continue;
    }
    if (ch === '"') {
      inWord = true;
      let j = i + 1;
      for (; j < command.length && command[j] !== '"'; j++) {
        const c = command[j] as string;
        if (c === "\\" && /[\\"$`\n]/.test(command[j + 1] ?? "")) {
          j++;
          if (command[j] !== "\n") literal(command[j] as string);
        } else if (c === "$" || c === "`") {
          word += c;
        } else {
          literal(c);
        }
      }
      i = j;
      continue;
    }
    if (ch === "#" && !inWord) {
      while (i < command.length && command[i] !== "\n") i++;
      i--;
      continue;
    }
    if (ch === "\n") {
      flush();
      if (tokens.length > 0 && tokens[tokens.length - 1] !== ";") tokens.push(";");
      continue;
    }
    if (/\s/.test(ch)) {
      flush();
      continue;
    }
    if (OPERATOR_CHARS.has(ch)) {
      flush();
      let op = ch;
      while (
        i + 1 < command.length &&
        OPERATOR_CHARS.has(command[i + 1] as string) &&
        command[i + 1] !== "(" &&
        command[i + 1] !== ")"
      ) {
        op += command[i + 1];
        i++;
      }
      tokens.push(op);
      continue;
    }
    word += ch;
    inWord = true;
  }
  flush();
  while (tokens[tokens.length - 1] === ";") tokens.pop();
  return tokens.join(" ");
}
