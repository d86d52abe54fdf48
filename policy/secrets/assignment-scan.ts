import { isSecretKeyName, keyWords } from "./key-names.ts";
import { isPlaceholderValue, readsAsProse } from "./values.ts";

/**
 * `key = value` in every notation operators' output carries — env files, YAML, INI, TOML, JSON, PHP
 * arrays, HTTP headers, query strings, mount options, `"KEY=value"` inside quotes, and `Label: value`
 * lines — where the key names a secret (key-names.ts). Only the value is reported.
 *
 * Hand-written rather than a regex because it is the hottest rule: it must look at every key in every
 * output. It starts only where a secret word occurs (one literal scan), walks out to the key's ends,
 * and reads the separator and value by hand: linear, and ~10× faster than the equivalent pattern.
 */
export function* findSecretAssignments(text: string): Generator<[number, number]> {
  const hints = /pass|pwd|pw|secret|token|key|auth|cred|cookie|psk|bearer|sess/gi;
  let keyEnd = -1;
  for (let hint = hints.exec(text); hint !== null; hint = hints.exec(text)) {
    const at = hint.index;
    if (at < keyEnd) continue; // a second secret word in a key already read
    let start = at;
    while (start > 0 && at - start < 60 && isKeyChar(text.charCodeAt(start - 1))) start--;
    let end = at + hint[0].length;
    while (end < text.length && end - at < 60 && isKeyChar(text.charCodeAt(end))) end++;
    keyEnd = end;
    if (start > 0 && isKeyChar(text.charCodeAt(start - 1))) continue; // longer than any key we read
    const found = readAssignment(text, start, end);
    if (found) {
      yield found;
      hints.lastIndex = Math.max(hints.lastIndex, found[1]);
      keyEnd = Math.max(keyEnd, found[1]);
    }
  }
}

/** The secret value of the key at [start, end), or null when it is no secret assignment. */
function readAssignment(text: string, start: number, end: number): [number, number] | null {
  const before = textBefore(text, start);
  const open = before.at(-1);
  const quote = open === '"' || open === "'" ? open : "";
  let key = text.slice(start, end);
  let at = end;
  if (quote && text[at] === quote) at++;
  // "KEY=value with spaces": the value runs to the quote that opened the key.
  if (quote && at === end && text[at] === "=") {
    const close = findClosing(text, at + 1, quote);
    return close > at + 1 ? accepted(key, text, at + 1, close) : null;
  }
  // `Initial Root Token: …`, `Unseal Key 1: …`: a label at the start of a line, spaces allowed.
  const label = /^[ \t]*([A-Za-z][A-Za-z0-9 _.-]{0,60})$/.exec(before);
  let labelled = false;
  if (label?.[1]?.includes(" ") && !quote) {
    const rest = /^((?:[ \t]+\d{1,2})?)[ \t]*:(?!\/\/)/.exec(text.slice(at, at + 16));
    if (rest) {
      key = label[1] + key;
      at += rest[0].length - 1;
      labelled = true;
    }
  }
  for (let gap = 0; gap < 8 && (text[at] === " " || text[at] === "\t"); gap++) at++;
  const separator = separatorAt(text, at);
  if (separator === 0) return null;
  at += separator;
  while (text[at] === " " || text[at] === "\t") at++;
  const first = text[at];
  if (first === '"' || first === "'") {
    const close = findClosing(text, at + 1, first);
    return close > at + 1 ? accepted(key, text, at + 1, close) : null;
  }
  if (first === undefined || first === "\n" || first === "\r") return null;
  // `"key": 0` in JSON: a secret is a string; a bare number under a quoted key is a count or an age.
  if (quote === '"' && /^-?\d+(?:\.\d+)?(?:[,}\]\s]|$)/.test(text.slice(at, at + 24))) return null;
  const atLineStart = labelled || /^[ \t]*(?:export[ \t]+|set[ \t]+|-[ \t]+|#[ \t]*)?["']?$/.test(before);
  let valueEnd = at;
  if (atLineStart) {
    // A password may hold spaces: at the start of a line the value is the rest of it.
    while (valueEnd < text.length && valueEnd - at < 1024 && !isLineEnd(text.charCodeAt(valueEnd)))
      valueEnd++;
    while (valueEnd > at && isBlank(text.charCodeAt(valueEnd - 1))) valueEnd--;
    if (/^[|>][-+0-9]{0,2}$/.test(text.slice(at, valueEnd))) {
      // A YAML block scalar (`password: |`): the secret is the more-indented lines below.
      const block = blockBelow(text, valueEnd, indentOf(before));
      return block && isSecretKeyName(key) ? block : null;
    }
  } else {
    while (valueEnd < text.length && valueEnd - at < 1024 && !endsBareValue(text.charCodeAt(valueEnd)))
      valueEnd++;
  }
  return valueEnd > at ? accepted(key, text, at, valueEnd) : null;
}

/**
 * The text between the line's start and `start`, when the line starts at most 128 characters
 * back; otherwise just the character before (enough to see an opening quote). Bounded, so a
 * megabyte-long line costs no more per key than a short one.
 */
function textBefore(text: string, start: number): string {
  for (let i = start - 1; i >= 0 && start - i <= 128; i--) {
    if (text.charCodeAt(i) === 10) return text.slice(i + 1, start);
  }
  return start - 128 <= 0 ? text.slice(0, start) : `\u0000${text.slice(start - 1, start)}`;
}

function indentOf(linePrefix: string): number {
  let width = 0;
  while (width < linePrefix.length && isBlank(linePrefix.charCodeAt(width))) width++;
  return width;
}

/** The lines after `from`'s line indented deeper than `indent` (blank lines inside kept). */
function blockBelow(text: string, from: number, indent: number): [number, number] | null {
  let lineStart = text.indexOf("\n", from) + 1;
  if (lineStart === 0) return null;
  const start = lineStart;
  let end = start;
  while (lineStart < text.length) {
    let lineEnd = text.indexOf("\n", lineStart);
    if (lineEnd < 0) lineEnd = text.length;
    const line = text.slice(lineStart, lineEnd);
    const blank = line.trim().length === 0;
    if (!blank && indentOf(line) <= indent) break;
    if (!blank) end = lineEnd;
    lineStart = lineEnd + 1;
  }
  return end > start ? [start, end] : null;
}

function accepted(key: string, text: string, start: number, end: number): [number, number] | null {
  if (!isSecretKeyName(key)) return null;
  const value = text.slice(start, end);
  if (isPlaceholderValue(value)) return null;
  // `token: check SLACK_BOT_TOKEN (…)`: after a colon and a space, a sentence is no secret.
  if (/:[ \t]+$/.test(text.slice(Math.max(0, start - 8), start)) && readsAsProse(restOfLine(text, start)))
    return null;
  const last = keyWords(key).at(-1);
  // Counts and limits: `max_tokens: 4096`, `token: 3`.
  if ((last === "token" || last === "tokens") && /^\d+$/.test(value)) return null;
  // nsswitch.conf: `passwd: files systemd` names where accounts come from.
  if (/^passwd$/i.test(key) && NSSWITCH_SOURCES.test(value)) return null;
  return [start, end];
}

function restOfLine(text: string, start: number): string {
  const end = text.indexOf("\n", start);
  return text.slice(start, end < 0 ? Math.min(text.length, start + 256) : Math.min(end, start + 256));
}

const NSSWITCH_SOURCES =
  /^(?:(?:files|systemd|compat|ldap|nis|nisplus|sss|db|winbind|extrausers|cache|mymachines|\[[^\]]*\])[ \t]*)+$/;

/** Length of the separator at `at`: `:=`, `=>`, `=` or `:` (not `://`, not `::`); 0 when none. */
function separatorAt(text: string, at: number): number {
  const c = text[at];
  const next = text[at + 1];
  if (c === ":" && next === "=") return 2;
  if (c === "=" && next === ">") return 2;
  if (c === "=") return next === "=" ? 0 : 1;
  if (c === ":") return next === ":" || (next === "/" && text[at + 2] === "/") ? 0 : 1;
  return 0;
}

/** Index of the quote closing a value that starts at `from` on the same line (≤ 1024), or -1. */
function findClosing(text: string, from: number, quote: string): number {
  for (let i = from; i < text.length && i - from <= 1024; i++) {
    const c = text[i];
    if (c === "\\" && quote === '"') i++;
    else if (c === quote) return i;
    else if (c === "\n" || c === "\r") return -1;
  }
  return -1;
}

function isKeyChar(code: number): boolean {
  return (
    (code >= 97 && code <= 122) ||
    (code >= 65 && code <= 90) ||
    (code >= 48 && code <= 57) ||
    code === 95 ||
    code === 46 ||
    code === 45
  );
}

function isLineEnd(code: number): boolean {
  return code === 10 || code === 13;
}

function isBlank(code: number): boolean {
  return code === 32 || code === 9;
}

/** A bare value ends at whitespace, a quote or backtick, a list/query separator, or a closing bracket. */
function endsBareValue(code: number): boolean {
  return (
    code <= 32 ||
    code === 34 ||
    code === 39 ||
    code === 96 ||
    code === 44 ||
    code === 59 ||
    code === 38 ||
    code === 125 ||
    code === 93
  );
}
