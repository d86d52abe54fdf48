/**
 * Does a key name say its value is a secret? `DB_PASS`, `redisPassword`, `client-key-data`,
 * `X-Plex-Token`, `aws_secret_access_key`, `APP_KEY` do; `password_encryption`, `max_tokens`,
 * `PUBLIC_KEY`, `secretName`, `key_id`, `token_url`, `PasswordAuthentication` do not. The last word
 * decides (after dropping encodings such as `_data`, `_b64`): a configuration names a thing by its
 * last word, so `password_file` is a path and `password_hash` is still a password.
 */
export function isSecretKeyName(key: string): boolean {
  let verdict = verdicts.get(key);
  if (verdict === undefined) {
    if (verdicts.size >= 4096) verdicts.clear();
    verdict = classify(key);
    verdicts.set(key, verdict);
  }
  return verdict;
}

/** Keys repeat (`password`, `token`, `api_key`): remember the last few thousand verdicts. */
const verdicts = new Map<string, boolean>();

function classify(key: string): boolean {
  const words = keyWords(key);
  // `existingSecret`, `LoadCredential`, `secretRef`-style names refer to a secret held elsewhere.
  if (words.length > 1 && REFERENCE_PREFIXES.has(words[0]!)) return false;
  while (words.length > 1 && ENCODING_WORDS.has(words[words.length - 1]!)) words.pop();
  const last = words[words.length - 1];
  if (last === undefined) return false;
  if (last === "key") {
    const before = words[words.length - 2];
    return before !== undefined && KEY_QUALIFIERS.has(before);
  }
  if (last === "hash" || last === "salt") {
    const before = words[words.length - 2];
    return before !== undefined && PASSWORD_WORDS.has(before);
  }
  if (SECRET_WORDS.has(last)) return true;
  return isCompoundSecretWord(last);
}

/** `DB_PASS` → db, pass; `redisPassword` → redis, password; `X-Plex-Token` → x, plex, token. */
export function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0 && !/^\d+$/.test(word));
}

const REFERENCE_PREFIXES = new Set(["existing", "load", "import", "use", "with", "require", "required"]);

const PASSWORD_WORDS = new Set(["password", "passwd", "pass", "pwd", "pw", "passphrase", "passwort"]);

/** A key whose last word is one of these holds a secret. */
const SECRET_WORDS = new Set([
  ...PASSWORD_WORDS,
  "secret",
  "token",
  "auth",
  "credential",
  "credentials",
  "creds",
  "cookie",
  "psk",
  "bearer",
  "apikey",
  "privatekey",
  "sessionid",
  "sessid",
  "phpsessid",
  "jsessionid",
  "requirepass",
  "masterauth",
]);

/** `<qualifier>_key` holds a secret (`APP_KEY`, `ENCRYPTION_KEY`, `tls.key`); `public_key`, `sort_key` do not. */
const KEY_QUALIFIERS = new Set([
  "access",
  "account",
  "admin",
  "aes",
  "api",
  "app",
  "auth",
  "client",
  "crypt",
  "crypto",
  "decryption",
  "enc",
  "encryption",
  "hmac",
  "jwt",
  "license",
  "licence",
  "master",
  "preshared",
  "private",
  "priv",
  "root",
  "secret",
  "server",
  "service",
  "session",
  "shared",
  "sign",
  "signing",
  "ssl",
  "storage",
  "tls",
  "unseal",
  "recovery",
  "webhook",
  "write",
]);

/** Trailing words that name an encoding of the same value: `client-key-data`, `password_b64`. */
const ENCODING_WORDS = new Set([
  "data",
  "b64",
  "base64",
  "hex",
  "value",
  "encoded",
  "raw",
  "plain",
  "plaintext",
]);

/** Single words that end in a secret word after a known qualifier: `dbpassword`, `apitoken`, `secretkey`. */
function isCompoundSecretWord(word: string): boolean {
  for (const suffix of COMPOUND_SUFFIXES) {
    if (word.length > suffix.length && word.endsWith(suffix)) {
      const head = word.slice(0, -suffix.length);
      if (suffix === "key" ? KEY_QUALIFIERS.has(head) : COMPOUND_HEADS.has(head)) return true;
    }
  }
  return false;
}

const COMPOUND_SUFFIXES = [
  "password",
  "passwd",
  "passphrase",
  "pass",
  "pwd",
  "secret",
  "token",
  "key",
  "auth",
];

const COMPOUND_HEADS = new Set([
  ...KEY_QUALIFIERS,
  "access",
  "bind",
  "bot",
  // Proxmox cloud-init: `cipassword`.
  "ci",
  "db",
  "database",
  "gh",
  "id",
  "identity",
  "ldap",
  "mysql",
  "pg",
  "proxy",
  "redis",
  "refresh",
  "registry",
  "require",
  "rpc",
  "smtp",
  "sql",
  "user",
  "vnc",
  "wpa",
  "x",
]);
