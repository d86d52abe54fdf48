import { findBase64Secrets } from "./base64-scan.ts";
import { SecretDetector } from "./detect.ts";
import { GITLEAKS_RULES } from "./gitleaks-rules.ts";
import { ASSIGNMENT_RULES } from "./homelab-assignments.ts";
import { COMMAND_RULES } from "./homelab-commands.ts";
import { FORMAT_RULES } from "./homelab-formats.ts";
import { TOKEN_RULES } from "./homelab-tokens.ts";
import type { Candidate, HomelabRule, SecretRule } from "./rule.ts";

/**
 * A base64 blob that decodes to a secret (`cGFzc3dvcmQ9aHVudGVyMg==`): decoded, and read by the
 * detector of every other rule (one level deep: base64 inside base64 is not unwrapped).
 */
const BASE64_RULE: HomelabRule = {
  id: "base64-encoded-secret",
  keywords: [],
  scan: (text) => findBase64Secrets(text, (decoded) => plainDetector.find(decoded).length > 0),
  examples: [
    { text: "echo cGFzc3dvcmQ9aHVudGVyMnh5eg== | base64 -d", secret: "cGFzc3dvcmQ9aHVudGVyMnh5eg==" },
    {
      text: "env: REJfUEFTU1dPUkQ9UzNjcjN0IVBhc3MK",
      secret: "REJfUEFTU1dPUkQ9UzNjcjN0IVBhc3MK",
    },
  ],
  keeps: [
    "sha256:4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945",
    "d40cca85f0f54f30445a3577e18a0a5abcca95bf8e2f8559f823cdef7f73edd7  /srv/backup/db.sql.gz",
    "id 3f2b8c1e-9a4d-4e7b-8c2a-1d5e6f7a8b9c",
    "aGVsbG8gd29ybGQsIHRoaXMgaXMgZmluZQ==",
    "image: ghcr.io/org/app@sha256:9b2f0c3e8f4a1d7b6c5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c",
  ],
};

/** oikos' own rules (each carries examples): key files, key=value, command lines, homelab tokens. */
export const HOMELAB_RULES: readonly HomelabRule[] = [
  ...FORMAT_RULES,
  ...ASSIGNMENT_RULES,
  ...COMMAND_RULES,
  ...TOKEN_RULES,
  BASE64_RULE,
];

/** Every rule redaction applies: gitleaks' maintained set plus ours. */
export const ALL_SECRET_RULES: readonly SecretRule[] = [
  ...GITLEAKS_RULES.map((rule) => ({
    ...rule,
    id: `gitleaks:${rule.id}`,
    ...(rule.id === "generic-api-key" ? { accept: notAPublicKey } : {}),
  })),
  ...HOMELAB_RULES,
];

/**
 * gitleaks allowlists `public_key = …` for its generic rule, but not `public key: …` (wg show,
 * ssh-keygen, gpg print the label with a space): a public key is not a secret.
 */
function notAPublicKey({ text, match }: Candidate): boolean {
  const before = text.slice(Math.max(0, match.index - 24), match.index);
  return !/\bpub(?:lic)?[ \t_.-]*$/i.test(before);
}

/** What redaction wrote is never a secret again (redacting twice changes nothing). */
const ALREADY_REDACTED = { regexes: [/^["'`]?\[REDACTED\]["'`]?$/] };

/** The detector every path out of the process uses (policy/redact.ts). */
export const secretDetector = new SecretDetector(ALL_SECRET_RULES, [ALREADY_REDACTED]);

/** Every rule but the base64 one: what a decoded blob is read with. */
const plainDetector = new SecretDetector(
  ALL_SECRET_RULES.filter((rule) => rule.id !== BASE64_RULE.id),
  [ALREADY_REDACTED],
);
