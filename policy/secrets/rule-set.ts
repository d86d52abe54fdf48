import { SecretDetector } from "./detect.ts";
import { GITLEAKS_RULES } from "./gitleaks-rules.ts";
import { ASSIGNMENT_RULES } from "./homelab-assignments.ts";
import { COMMAND_RULES } from "./homelab-commands.ts";
import { FORMAT_RULES } from "./homelab-formats.ts";
import { TOKEN_RULES } from "./homelab-tokens.ts";
import type { Candidate, HomelabRule, SecretRule } from "./rule.ts";

/** oikos' own rules (each carries examples): key files, key=value, command lines, homelab tokens. */
export const HOMELAB_RULES: readonly HomelabRule[] = [
  ...FORMAT_RULES,
  ...ASSIGNMENT_RULES,
  ...COMMAND_RULES,
  ...TOKEN_RULES,
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
