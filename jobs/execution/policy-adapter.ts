import { createHash } from "node:crypto";
import { type Classifier, loadClassifier } from "../../policy/classify.ts";
import type { Classification } from "../../policy/risk.ts";
import { decideOnFacts } from "./gate-decision.ts";
import type { RunPolicy, TargetCheck } from "./run-policy.ts";

/** The run service's policy port over the real policy/ modules (grammar loaded once per process). */
export async function loadRunPolicy(): Promise<RunPolicy> {
  return createRunPolicy(await loadClassifier());
}

export function createRunPolicy(classifier: Classifier): RunPolicy {
  return {
    lint: (command) => classifier.lint(command),
    classify: (command, targetType) => classifier.classify(command, targetType),
    checkTarget,
    commandKey,
    decide: decideOnFacts,
    redact,
  };
}

const GUEST_TYPES = new Set(["lxc", "vm", "container", "ct"]);
const HOST_ONLY_TOOLS = /^(qm|pct|pvesh|pvecm|pveam|vzdump)\b/;

function checkTarget(_command: string, classification: Classification, targetType: string): TargetCheck {
  if (!GUEST_TYPES.has(targetType)) return { ok: true };
  const bad = classification.segments.find((segment) =>
    HOST_ONLY_TOOLS.test(segment.text.replace(/^`|`$/g, "").trim()),
  );
  if (!bad) return { ok: true };
  return {
    ok: false,
    reason: `${bad.text.split(/\s+/)[0]} is a Proxmox host tool and does not exist inside a ${targetType}`,
    nextStep: "run it on the Proxmox host that owns the guest (see get_relations for its host)",
  };
}

function commandKey(target: string, command: string): string {
  const normalised = command.trim().replace(/\s+/g, " ");
  return createHash("sha256").update(`${target}\n${normalised}`).digest("hex").slice(0, 32);
}

const SECRET_PATTERNS: readonly [RegExp, string][] = [
  [
    /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)/g,
    "[REDACTED PRIVATE KEY]",
  ],
  [
    /\b(password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key)(\s*[=:]\s*)("[^"]*"|'[^']*'|\S+)/gi,
    "$1$2[REDACTED]",
  ],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/g, "$1 [REDACTED]"],
  [/\b(AKIA|ASIA)[A-Z0-9]{16}\b/g, "[REDACTED AWS KEY]"],
  [/\b(gh[pousr]_[A-Za-z0-9]{20,}|xox[abpr]-[A-Za-z0-9-]{10,}|sk-[A-Za-z0-9_-]{20,})\b/g, "[REDACTED TOKEN]"],
  [/(\/\/[^/\s:@]+:)[^@\s/]+@/g, "$1[REDACTED]@"],
];

function redact(text: string): string {
  let out = text;
  for (const [pattern, replacement] of SECRET_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}
