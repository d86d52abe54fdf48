/** Where a tool argument holds a byte that is no text: NUL or another control character. */
export interface ControlByte {
  /** The argument's path, e.g. `command` or `attributes.note`. */
  path: string;
  /** Index of the character in that string. */
  index: number;
  /** `NUL (\0)`, `control byte 0x1b` … */
  name: string;
}

/**
 * The first NUL or control character (tab, newline and carriage return are text) in any string of
 * the arguments, keys included. Such bytes are never meant (a shell command cannot carry NUL) and
 * Postgres refuses NUL in text and jsonb, so they are refused up front with the field named.
 */
export function findControlByte(value: unknown, path = ""): ControlByte | null {
  if (typeof value === "string") {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this finds
    const match = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.exec(value);
    if (!match) return null;
    const code = match[0].charCodeAt(0);
    const name =
      code === 0 ? "a NUL byte (\\0)" : `the control character 0x${code.toString(16).padStart(2, "0")}`;
    return { path: path || "(argument)", index: match.index, name };
  }
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = findControlByte(item, `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      const here = path ? `${path}.${key}` : key;
      const inKey = findControlByte(key, here);
      if (inKey) return { ...inKey, path: `${here} (the key)` };
      const found = findControlByte(item, here);
      if (found) return found;
    }
  }
  return null;
}
