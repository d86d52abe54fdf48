import { createHash } from "node:crypto";
import { type Classifier, loadClassifier } from "../../policy/classify.ts";
import { redact } from "../../policy/redact.ts";
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
