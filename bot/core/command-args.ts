import { z } from "zod";

/**
 * One declared argument of a chat command: how it reads in the usage line and help, and the zod
 * schema that checks the words typed for it. Positional arguments take one word each, in
 * declaration order; a `rest` argument takes every word left (and must come last).
 */
export interface ArgDef<T> {
  /** How the argument reads in the usage line: `<slug>`, `[open|waiting]`, `[key=value …]`. */
  usage: string;
  help: string;
  schema: z.ZodType<T>;
  rest: boolean;
}

export type ArgDefs = Record<string, ArgDef<unknown>>;
export type ArgValues<A extends ArgDefs> = { [K in keyof A]: A[K] extends ArgDef<infer T> ? T : never };

/** A required single word (`<name>`). */
export function word(name: string, help: string): ArgDef<string> {
  return { usage: `<${name}>`, help, schema: z.string().min(1), rest: false };
}

/** An optional single word (`[name]`). */
export function optionalWord(name: string, help: string): ArgDef<string | undefined> {
  return { usage: `[${name}]`, help, schema: z.string().min(1).optional(), rest: false };
}

/** One of a closed set of words, case-insensitive; `fallback` when left out (required without one). */
export function choice<const C extends readonly [string, ...string[]]>(
  choices: C,
  help: string,
  fallback?: C[number],
): ArgDef<C[number]> {
  const oneOf = z.enum(choices, { error: () => `use one of: ${choices.join(", ")}` });
  const schema = z.preprocess(
    (value) => (typeof value === "string" ? value.toLowerCase() : value),
    fallback === undefined ? oneOf : oneOf.default(fallback),
  ) as unknown as z.ZodType<C[number]>;
  const usage = choices.join("|");
  return { usage: fallback === undefined ? `<${usage}>` : `[${usage}]`, help, schema, rest: false };
}

/** Every word left, joined with single spaces (a search query, a free-form filter). */
export function text(name: string, help: string, options: { optional?: boolean } = {}): ArgDef<string> {
  const base = z.array(z.string()).transform((words) => words.join(" ").trim());
  const schema = options.optional ? base : base.pipe(z.string().min(1, `${name} is missing`));
  return { usage: options.optional ? `[${name}…]` : `<${name}…>`, help, schema, rest: true };
}

/** Every word left, as `key=value` pairs (`name="Big NAS" tag=web`). */
export function pairs(help: string): ArgDef<Record<string, string>> {
  const schema = z.array(z.string()).transform((words, ctx) => {
    const out: Record<string, string> = {};
    for (const item of words) {
      const at = item.indexOf("=");
      if (at <= 0) {
        ctx.addIssue({ code: "custom", message: `“${item}” is not key=value` });
        return z.NEVER;
      }
      const key = item.slice(0, at).trim().toLowerCase();
      if (key in out) {
        ctx.addIssue({ code: "custom", message: `${key} is given twice` });
        return z.NEVER;
      }
      out[key] = item.slice(at + 1);
    }
    return out;
  });
  return { usage: "[key=value …]", help, schema, rest: true };
}

export type ParsedArgs<A extends ArgDefs> =
  | { ok: true; values: ArgValues<A> }
  | { ok: false; problem: string };

/** Maps the words after the command name onto its declared arguments and checks them. */
export function parseArgs<A extends ArgDefs>(defs: A, words: readonly string[]): ParsedArgs<A> {
  const raw: Record<string, unknown> = {};
  const names = Object.keys(defs);
  let at = 0;
  for (const name of names) {
    const def = defs[name]!;
    if (def.rest) {
      raw[name] = words.slice(at);
      at = words.length;
    } else {
      raw[name] = words[at];
      at++;
    }
  }
  if (at < words.length) {
    return { ok: false, problem: `unexpected “${words.slice(names.length).join(" ")}”` };
  }
  const values: Record<string, unknown> = {};
  for (const name of names) {
    const parsed = defs[name]!.schema.safeParse(raw[name]);
    if (!parsed.success) {
      if (raw[name] === undefined) return { ok: false, problem: `${name} is missing` };
      const message = parsed.error.issues[0]?.message ?? "invalid";
      return { ok: false, problem: message.startsWith(name) ? message : `${name}: ${message}` };
    }
    values[name] = parsed.data;
  }
  return { ok: true, values: values as ArgValues<A> };
}

const OPENING_QUOTES: Record<string, string> = { '"': '"', "'": "'", "“": "”", "„": "“", "‘": "’" };

/**
 * Splits a command line into words: whitespace separates, quotes ("…", '…', and the curly ones
 * chat clients substitute) group, and may start mid-word (`name="Big NAS"` is one word). An
 * unclosed quote runs to the end of the line.
 */
export function splitWords(line: string): string[] {
  const words: string[] = [];
  let current = "";
  let started = false;
  let closing: string | null = null;
  for (const ch of line) {
    if (closing !== null) {
      if (ch === closing) closing = null;
      else current += ch;
      continue;
    }
    const close = OPENING_QUOTES[ch];
    if (close !== undefined) {
      closing = close;
      started = true;
      continue;
    }
    if (/\s/.test(ch)) {
      if (started) words.push(current);
      current = "";
      started = false;
      continue;
    }
    current += ch;
    started = true;
  }
  if (started) words.push(current);
  return words;
}
