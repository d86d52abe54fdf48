import { type Classifier, loadClassifier } from "../../policy/classify.ts";
import { commandKey } from "../../policy/command-key.ts";
import { DEFAULT_PREPLAN_READ_ONLY_CAP, decideRun, type PlanState } from "../../policy/decide-run.ts";
import { redact } from "../../policy/redact.ts";
import { checkTarget } from "../../policy/target-check.ts";
import type { RunGateDecision, RunGateFacts, RunPolicy } from "./run-policy.ts";

/** The run service's policy port over the real policy/ modules (grammar loaded once per process). */
export async function loadRunPolicy(): Promise<RunPolicy> {
  return createRunPolicy(await loadClassifier());
}

export function createRunPolicy(classifier: Classifier): RunPolicy {
  return {
    lint: (command) => classifier.lint(command),
    classify: (command, targetType) => classifier.classify(command, targetType),
    checkTarget: (classification, target, candidates) => checkTarget(classification, target, candidates),
    commandKey,
    decide,
    preplanReadOnlyCap: DEFAULT_PREPLAN_READ_ONLY_CAP,
    redact,
  };
}

/** Store plan statuses in policy's words; a superseded plan is no plan. */
function planState(plan: RunGateFacts["plan"]): PlanState {
  switch (plan?.status) {
    case "proposed":
      return "proposed";
    case "approved":
      return "approved";
    case "denied":
      return "rejected";
    default:
      return "none";
  }
}

function decide(facts: RunGateFacts): RunGateDecision {
  const decision = decideRun({
    sessionKnown: true, // the run service refused unknown sessions already
    risk: facts.risk,
    reasons: facts.reasons,
    command: facts.command,
    targetSlug: facts.targetSlug,
    planState: planState(facts.plan),
    assentWindowOpen: facts.assentWindowOpen,
    destructiveWindowOpenForTarget: facts.destructiveWindowOpen,
    pendingApprovalExecutionId: facts.pendingApproval
      ? (facts.pendingApproval.executionId ?? facts.pendingApproval.approvalId)
      : null,
    failuresOfKey: facts.failuresOfKey,
    preplanReadOnlyCalls: facts.preplanReadOnlyCalls,
    preplanReadOnlyCap: DEFAULT_PREPLAN_READ_ONLY_CAP,
    affectsSelf: facts.selfTargetDisruption,
  });
  switch (decision.decision) {
    case "allow":
      return { kind: "allow" };
    case "needs_approval":
      return { kind: "needs_approval", reason: decision.reason };
    case "needs_typed_confirmation":
      return { kind: "needs_typed_confirmation", reason: decision.reason, phrase: decision.phrase };
    case "refuse":
      return { kind: "refuse", code: decision.code, reason: decision.reason, nextStep: decision.nextStep };
  }
}
