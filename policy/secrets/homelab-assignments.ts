import { findSecretAssignments } from "./assignment-scan.ts";
import { isSecretKeyName } from "./key-names.ts";
import type { Candidate, HomelabRule } from "./rule.ts";
import { isPlaceholderValue } from "./values.ts";

/**
 * `key = value` in every notation an operator's output carries (env files, YAML, INI, TOML, JSON,
 * PHP arrays, XML, HTTP headers, query strings, mount options) where the key names a secret
 * (key-names.ts). Only the value is replaced, so the output still says which setting it was.
 */

/** A key containing one of these is worth classifying; the pattern finds no other keys. */
const SECRET_HINT = "(?:pass|pwd|pw|secret|token|key|auth|cred|cookie|psk|bearer|sess)";
const KEY = `[A-Za-z0-9_.\\-]{0,60}?${SECRET_HINT}[A-Za-z0-9_.\\-]{0,40}`;
const KEYWORDS = [
  "pass",
  "pwd",
  "pw",
  "secret",
  "token",
  "key",
  "auth",
  "cred",
  "cookie",
  "psk",
  "bearer",
  "sess",
];

/** For the XML notations: the key names a secret and the value is not a placeholder. */
function keyAndValueAccepted({ match, secret }: Candidate): boolean {
  return isSecretKeyName(match.groups?.key ?? "") && !isPlaceholderValue(secret);
}

export const ASSIGNMENT_RULES: readonly HomelabRule[] = [
  {
    id: "secret-assignment",
    keywords: KEYWORDS,
    scan: findSecretAssignments,
    examples: [
      { text: "DB_PASS=Tr0ub4dor&3x", secret: "Tr0ub4dor" },
      { text: "REDIS_PASS: hunter2hunter2", secret: "hunter2hunter2" },
      { text: '{"smtp_password": "p@ss word!"}', secret: "p@ss word!" },
      { text: "'dbpassword' => 'Sup3rS3cret',", secret: "Sup3rS3cret" },
      { text: "https://plex.lan/library?X-Plex-Token=aB3dE5fG7hJ9kL1mN3pQ", secret: "aB3dE5fG7hJ9kL1mN3pQ" },
      { text: "mount -t cifs -o username=bob,password=S4mb4P4ss //nas/x /mnt", secret: "S4mb4P4ss" },
      {
        text: "APP_KEY=base64:7GcOTBAFkK0dcFQwCrKH3Yl0Hl1xwBqVdVN6mX3Hx+I=",
        secret: "7GcOTBAFkK0dcFQwCrKH3Yl0Hl1xwBqVdVN6mX3Hx",
      },
      { text: "X-Api-Key: 9f8e7d6c5b4a39281706f5e4d3c2b1a0", secret: "9f8e7d6c5b4a39281706f5e4d3c2b1a0" },
      { text: '"auth": "Ym9iOmh1bnRlcjJodW50ZXIy"', secret: "Ym9iOmh1bnRlcjJodW50ZXIy" },
      { text: "password = correct horse battery staple\n", secret: "horse battery staple" },
      { text: "  smtp_pass: my mail pass 2024\nport: 587", secret: "mail pass 2024" },
      { text: "- DB_PASS=two words here", secret: "words here" },
      { text: '"Env": ["PATH=/usr/bin", "MYSQL_ROOT_PASSWORD=my root pw"]', secret: "root pw" },
      { text: "Environment='SMTP_PASS=mail pass word'", secret: "pass word" },
      { text: "Initial Root Token: s.Xk2nB7qLp9RzT4wY6vC1mD8e", secret: "Xk2nB7qLp9RzT4wY6vC1mD8e" },
      { text: "otpauth://totp/x:bob?secret=JBSWY3DPEHPK3PXP&issuer=x", secret: "JBSWY3DPEHPK3PXP" },
      {
        text: "auth:\n  password: |\n    line one secret\n\n    line two secret\nnext: 1\n",
        secret: "line two secret",
      },
    ],
    keeps: [
      "password_encryption = scram-sha-256",
      "max_tokens: 4096",
      "PUBLIC_KEY=ssh-ed25519",
      "secretName: gitea-tls",
      "token_url: https://auth.lan/token",
      "POSTGRES_PASSWORD_FILE=/run/secrets/db_password",
      "password: $DB_PASSWORD",
      "auth: true",
      "key: node-role.kubernetes.io/control-plane",
      "PasswordAuthentication no",
      "password_min_length: 12",
      "token_ttl = 3600s",
      "script: |\n  echo hello\n  systemctl restart nginx\n",
      "Last password change\t\t\t\t\t: May 06, 2024",
    ],
  },
  {
    id: "secret-xml-element",
    keywords: KEYWORDS,
    pattern: new RegExp(
      `<(?<key>${KEY})(?:[ \\t][^>\\r\\n]{0,512})?>(?<secret>[^<\\r\\n]{1,1024})</\\k<key>>`,
      "i",
    ),
    accept: keyAndValueAccepted,
    examples: [{ text: "<Password>W1nd0wsAdm1n!</Password>", secret: "W1nd0wsAdm1n!" }],
  },
  {
    // <add key="ClearTextPassword" value="..."/> (NuGet, .NET appSettings).
    id: "secret-xml-key-value",
    keywords: KEYWORDS,
    pattern: new RegExp(
      `\\bkey=(?<q>["'])(?<key>${KEY})\\k<q>[ \\t]+value=(["'])(?<secret>[^"'\\r\\n]{1,1024})\\3`,
      "i",
    ),
    accept: keyAndValueAccepted,
    examples: [{ text: '<add key="ClearTextPassword" value="NuG3tFeedPass" />', secret: "NuG3tFeedPass" }],
  },
  {
    // PHP define('NAME', 'value'): wp-config DB_PASSWORD and its eight keys and salts.
    id: "php-define",
    keywords: ["define"],
    pattern:
      /\bdefine\([ \t]*(?<q>["'])(?<key>[A-Za-z_][A-Za-z0-9_]{0,100})\k<q>[ \t]*,[ \t]*(["'])(?<secret>[^"'\r\n]{1,1024})\3/,
    accept: ({ match, secret }) => {
      const key = match.groups?.key ?? "";
      return (isSecretKeyName(key) || /_(?:KEY|SALT)$/.test(key)) && !isPlaceholderValue(secret);
    },
    examples: [
      { text: "define( 'NONCE_SALT', 'Vx@9#kL2!mQ4$zR7' );", secret: "Vx@9#kL2!mQ4$zR7" },
      { text: "define('DB_PASSWORD', 'wpDbPa55');", secret: "wpDbPa55" },
    ],
    keeps: ["define('DB_NAME', 'wordpress');", "define('WP_DEBUG', false);"],
  },
  {
    // ADO / ODBC connection strings: `Password=pa ss;` runs to the next semicolon.
    id: "connection-string-password",
    keywords: ["password", "pwd"],
    pattern: /(?<![A-Za-z0-9_])(?:password|pwd)[ \t]*=[ \t]*(?<secret>[^;\r\n"']{1,256}?)[ \t]*;/i,
    accept: ({ secret }) => !isPlaceholderValue(secret),
    examples: [{ text: "Server=db;Database=app;User Id=sa;Password=Pa ss w0rd;", secret: "ss w0rd" }],
  },
];
