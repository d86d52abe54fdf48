/**
 * Values that sit where a secret would but are not one: placeholders, switches, masks, references
 * to a variable or a file, and what redaction already wrote. Used by the rules that find a secret
 * by its key name (a password is often short and plain, so entropy cannot decide there).
 */
export function isPlaceholderValue(raw: string): boolean {
  const value = unquote(raw.trim()).trim();
  if (value.length === 0) return true;
  if (TRIVIAL.has(value.toLowerCase())) return true;
  return PLACEHOLDER_SHAPES.some((shape) => shape.test(value));
}

function unquote(value: string): string {
  const first = value[0];
  if ((first === '"' || first === "'" || first === "`") && value.endsWith(first) && value.length >= 2) {
    return value.slice(1, -1);
  }
  return value;
}

const TRIVIAL = new Set([
  "true",
  "false",
  "yes",
  "no",
  "on",
  "off",
  "null",
  "nil",
  "none",
  "undefined",
  "empty",
  "required",
  "optional",
  "enabled",
  "disabled",
  "unset",
  "not set",
  "(none)",
  "<none>",
  "n/a",
  "hidden",
  "(hidden)",
  "<hidden>",
  "-",
  "",
]);

const PLACEHOLDER_SHAPES: readonly RegExp[] = [
  /^\[REDACTED/, // already redacted
  /^\$\{?[A-Za-z_][A-Za-z0-9_]*(?::?[-=?+][^}]{0,200})?\}?$/, // $VAR, ${VAR:-default}
  /^\$\([^)]{0,200}\)$/, // $(command)
  /^\$?\{\{/, // {{ template }} (an unquoted value stops at its first space)
  /^\{%/, // {% template %}
  /^%[A-Za-z_][A-Za-z0-9_]*%$/, // %VAR%
  /^<[^<>]{0,100}>$/, // <your-password>
  /^[*•x]{3,}$/i, // masked
  /^(?:\.{3}|…)$/,
  /^[|>][-+]?\d?$/, // YAML block indicators (the block rule reads the lines below)
  /^[[{(]$/, // an opening bracket: the value follows on the next lines
  /^(?:\/[\w.@+-]+)+\/?$/, // an absolute path (password_file and friends name files, not secrets)
  /^(?:file|env|vault|secret|op|ref|awssm|gcpsm|azkv):\/?\/?[\w./:@-]{1,256}$/i, // references to a store
  /^[\w.-]{1,64}:\/[\w./@+-]{1,256}$/, // name:/path (systemd LoadCredential=, docker secrets)
  /^!vault\b/, // ansible-vault: encrypted
  /^\$ANSIBLE_VAULT;/,
  /^ENC\[/, // sops
];

/**
 * A sentence where a secret would sit: oikos's own advice and ordinary prose after a colon —
 * `the bot token: check SLACK_BOT_TOKEN (…)`, `Bot password: logs in at start`, `Bearer <token> is
 * required`. `rest` is the text from the value to the end of its line. A value that opens with a
 * placeholder or a word of English prose and goes on with more words is read as a sentence; a
 * password is rarely an English sentence opening with one of these words after `key: `, and the
 * callers ask only after a colon and a space, never after `=`.
 */
export function readsAsProse(rest: string): boolean {
  return PROSE_OPENING.test(rest);
}

const PROSE_OPENING = new RegExp(
  `^(?:<[^<>\\s]{1,40}>|(?:${[
    // what advice tells someone to do
    "check|set|see|use|add|run|reinstall|invite|create|generate|rotate|update|paste|copy|give|ask|read|configure|open|remove",
    // how a sentence goes on after "token:" or "password:"
    "logs?|never|not|no|is|are|was|were|must|should|will|can|cannot|the|a|an|to|from|in|on|at|for|with|without|by|of|and|or|it|this|that|its|your|our|their|when|if|unless|only",
    "missing|required|needed|invalid|expired|refused|rejected|wrong|unknown",
  ].join("|")}))[ \t]+[A-Za-z(<"'\`]`,
  "i",
);
