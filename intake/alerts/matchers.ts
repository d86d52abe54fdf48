/**
 * Label matchers in Alertmanager's own syntax (`severity="critical"`, `instance=~"web-.*"`,
 * `env!="dev"`, `job!~"node|blackbox"`), so a route reads the same as the operator's
 * Alertmanager routing tree. Regexes are anchored (the whole value must match), as there.
 */
export type MatchOp = "=" | "!=" | "=~" | "!~";

export interface LabelMatcher {
  name: string;
  op: MatchOp;
  value: string;
  /** Compiled, anchored; only for =~ and !~. */
  regex?: RegExp;
  /** The matcher as written, for messages. */
  text: string;
}

const MATCHER = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(=~|!~|!=|=)\s*(.*?)\s*$/s;

/** Parses one matcher; returns a message instead when it is not one. */
export function parseMatcher(text: string): LabelMatcher | string {
  const match = MATCHER.exec(text);
  if (!match)
    return `"${text}" is not a label matcher; write name="value", name!="value", name=~"regex" or name!~"regex"`;
  const [, name, op, raw] = match as unknown as [string, string, MatchOp, string];
  let value = raw;
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
    try {
      value = JSON.parse(value) as string;
    } catch {
      return `"${text}": the quoted value is not a valid string`;
    }
  }
  const matcher: LabelMatcher = { name, op, value, text };
  if (op === "=~" || op === "!~") {
    try {
      matcher.regex = new RegExp(`^(?:${value})$`, "u");
    } catch (error) {
      return `"${text}": ${(error as Error).message}`;
    }
  }
  return matcher;
}

/** Whether `labels` satisfy the matcher; a missing label reads as "" (as in Alertmanager). */
export function matches(matcher: LabelMatcher, labels: Readonly<Record<string, string>>): boolean {
  const value = labels[matcher.name] ?? "";
  switch (matcher.op) {
    case "=":
      return value === matcher.value;
    case "!=":
      return value !== matcher.value;
    case "=~":
      return matcher.regex!.test(value);
    case "!~":
      return !matcher.regex!.test(value);
  }
}
