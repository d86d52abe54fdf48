/** Removes secrets from text and log objects before they reach logs or model context. */

export const REDACTED = "[REDACTED]";

const SECRET_KEY =
  /(?:password|passwd|passphrase|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|auth|credential|cookie|session[_-]?id)/i;

interface Pattern {
  regex: RegExp;
  replace: (match: string, ...groups: string[]) => string;
}

const PATTERNS: Pattern[] = [
  // PEM private keys, whole block.
  {
    regex: /-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY-----[\s\S]*?(?:-----END \1PRIVATE KEY-----|$)/g,
    replace: () => REDACTED,
  },
  // The body and END line of a private key whose BEGIN line was cut away (capped head + tail
  // output). The lookbehind starts a match only where a base64 run starts, so it stays linear.
  {
    regex: /(?<![A-Za-z0-9+/=\r\n])[A-Za-z0-9+/=\r\n]*-----END [A-Z0-9 ]*PRIVATE KEY-----/g,
    replace: (match: string) => (match.startsWith("\n") ? `\n${REDACTED}` : REDACTED),
  },
  // Authorization headers, any scheme.
  {
    regex:
      /\b((?:proxy-)?authorization\s*[:=]\s*)(?:(bearer|basic|token|digest|bot)\s+)?("[^"]*"|'[^']*'|[^\s"',;]+)/gi,
    replace: (_m, prefix: string, scheme: string | undefined) =>
      `${prefix}${scheme ? `${scheme} ` : ""}${REDACTED}`,
  },
  { regex: /\b(bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi, replace: (_m, prefix: string) => `${prefix}${REDACTED}` },
  // user:password@ in URLs.
  {
    regex: /\b([a-z][a-z0-9+.-]*:\/\/)([^/\s:@]*):([^/\s@]+)@/gi,
    replace: (_m, scheme: string, user: string) => `${scheme}${user}:${REDACTED}@`,
  },
  // Well-known token shapes.
  { regex: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA)[0-9A-Z]{16}\b/g, replace: () => REDACTED },
  { regex: /\bgh[pousr]_[A-Za-z0-9]{20,}\b/g, replace: () => REDACTED },
  { regex: /\bgithub_pat_[A-Za-z0-9_]{20,}\b/g, replace: () => REDACTED },
  { regex: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g, replace: () => REDACTED },
  { regex: /\bxapp-\d-[A-Za-z0-9-]{10,}/g, replace: () => REDACTED },
  { regex: /\bsyt_[A-Za-z0-9_-]{10,}/g, replace: () => REDACTED },
  { regex: /\bsk-(?:proj-|live-|test-|ant-[a-z0-9]+-)?[A-Za-z0-9_-]{20,}/g, replace: () => REDACTED },
  { regex: /\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g, replace: () => REDACTED },
  // key=value / key: value / "key": "value" where the key names a secret.
  {
    regex:
      /(["']?)\b([A-Za-z0-9_.-]*(?:password|passwd|passphrase|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|preshared[_-]?key|rediscli_auth)[A-Za-z0-9_.-]*)\1(\s*(?:=|:)\s*)("[^"]*"|'[^']*'|[^\s,;&"'}]+)/gi,
    replace: (match, quote: string, key: string, separator: string, value: string) => {
      if (value === REDACTED || value === `"${REDACTED}"`) return match;
      if (/tokens?$/i.test(key) && /^\d+$/.test(value)) return match; // token counts, not tokens
      const wrapped = value.startsWith('"')
        ? `"${REDACTED}"`
        : value.startsWith("'")
          ? `'${REDACTED}'`
          : REDACTED;
      return `${quote}${key}${quote}${separator}${wrapped}`;
    },
  },
  // Command-line secrets: --password x, --token=x, mysql -pSECRET, sshpass -p x.
  {
    regex: /(--(?:password|passwd|token|secret|api-key|access-key)(?:=|\s+))("[^"]*"|'[^']*'|\S+)/gi,
    replace: (_m, flag: string) => `${flag}${REDACTED}`,
  },
  {
    regex: /\b((?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n|;&]*?\s-p)(?!\s)(\S+)/g,
    replace: (_m, prefix: string) => `${prefix}${REDACTED}`,
  },
  { regex: /\b(sshpass\s+-p\s*)(\S+)/g, replace: (_m, prefix: string) => `${prefix}${REDACTED}` },
  // curl -u user:pass, --user user:pass, --proxy-user: the part after the first colon.
  {
    regex: /\b(curl\b[^\n|;&]*?\s(?:-[uU]\s*|--(?:proxy-)?user(?:=|\s+)))("[^"]*"|'[^']*'|\S+)/g,
    replace: (match, prefix: string, credential: string) => keepUserPart(match, prefix, credential, ":"),
  },
  // Samba tools: -U user%pass, --user=user%pass.
  {
    regex: /(\s(?:-U\s*|--user(?:name)?(?:=|\s+)))("[^"]*%[^"]*"|'[^']*%[^']*'|[^\s"']*%\S+)/g,
    replace: (match, prefix: string, credential: string) => keepUserPart(match, prefix, credential, "%"),
  },
  // redis-cli -a pass / --pass pass.
  {
    regex: /\b(redis-cli\b[^\n|;&]*?\s(?:-a|--pass)(?:=|\s+))("[^"]*"|'[^']*'|\S+)/g,
    replace: (_m, prefix: string) => `${prefix}${REDACTED}`,
  },
  // docker/podman/... login -p pass (--password is covered above; --password-stdin has no value).
  {
    regex:
      /\b((?:docker|podman|nerdctl|buildah|skopeo|helm\s+registry)\s+login\b[^\n|;&]*?\s-p(?:=|\s+)?)("[^"]*"|'[^']*'|\S+)/g,
    replace: (_m, prefix: string) => `${prefix}${REDACTED}`,
  },
  // Proxmox VE: the auth cookie and the ticket it carries (PVE:user@realm:HEX::signature).
  {
    regex: /\b(PVEAuthCookie\s*[=:]\s*)("[^"]*"|'[^']*'|[^\s;,"']+)/g,
    replace: (_m, prefix: string) => `${prefix}${REDACTED}`,
  },
  { regex: /\bPVE:[^\s:"']+:[0-9A-F]{8}::[A-Za-z0-9+/=]+/g, replace: () => REDACTED },
  // rclone config create/update <name> <type> key value ...: the values of secret keys.
  {
    regex: /\brclone\s+config\s+(?:create|update)\b[^\n|;&]*/g,
    replace: (match: string) =>
      match.replace(
        /(\s(?:secret_access_key|access_key_id|session_token|pass|password2?|client_secret|token|account_key|key|sas_url|service_account_credentials)(?:=|\s+))("[^"]*"|'[^']*'|\S+)/g,
        (_m, prefix: string) => `${prefix}${REDACTED}`,
      ),
  },
  // rclone.conf `pass = ...` lines (obscured, which is reversible).
  { regex: /^(\s*pass\s*=\s*)(\S.*)$/gm, replace: (_m, prefix: string) => `${prefix}${REDACTED}` },
];

/** `user:secret` -> `user:[REDACTED]`, keeping quotes; no separator means no secret was given. */
function keepUserPart(match: string, prefix: string, credential: string, separator: string): string {
  const quote = credential.startsWith('"') || credential.startsWith("'") ? credential[0] : "";
  const inner = quote ? credential.slice(1, -1) : credential;
  const at = inner.indexOf(separator);
  if (at < 0 || inner.slice(at + 1) === REDACTED) return match;
  return `${prefix}${quote}${inner.slice(0, at + 1)}${REDACTED}${quote}`;
}

/** Replaces every secret this module recognises with `[REDACTED]`. */
export function redact(text: string): string {
  let out = text;
  for (const pattern of PATTERNS) {
    out = out.replace(pattern.regex, pattern.replace as (substring: string, ...args: unknown[]) => string);
  }
  return out;
}

/**
 * A deep copy of `value` for logging: values under secret-named keys become `[REDACTED]`,
 * every string is passed through `redact`, cycles become `[Circular]`.
 */
export function redactObject<T>(value: T): T {
  return redactValue(value, new WeakSet()) as T;
}

function redactValue(value: unknown, seen: WeakSet<object>): unknown {
  if (typeof value === "string") return redact(value);
  if (value === null || typeof value !== "object") return value;
  if (seen.has(value)) return "[Circular]";
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, seen));
  if (value instanceof Date) return value;
  if (value instanceof Error) {
    return {
      name: value.name,
      message: redact(value.message),
      stack: value.stack ? redact(value.stack) : undefined,
    };
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const countOfTokens = /tokens?$/i.test(key) && typeof item === "number";
    out[key] =
      SECRET_KEY.test(key) && !countOfTokens && item !== null && item !== undefined
        ? REDACTED
        : redactValue(item, seen);
  }
  return out;
}
