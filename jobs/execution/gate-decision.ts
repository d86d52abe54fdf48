import type { RunGateDecision, RunGateFacts } from "./run-policy.ts";

export const RETRY_CAP = 3;
export const PREPLAN_READ_ONLY_CAP = 8;

/**
 * The risk gate on store facts (used until policy/ exports decideRun; same rules): retry cap →
 * plan-first → read_only runs → config_mutation inside an approved plan's assent window, else its
 * own approval → destructive only inside its session+target window, else typed confirmation →
 * self-protection.
 */
export function decideOnFacts(f: RunGateFacts): RunGateDecision {
  if (f.failuresOfKey >= RETRY_CAP) {
    return {
      kind: "refuse",
      code: "retry_cap",
      reason: `this exact command failed or timed out ${f.failuresOfKey} times in this session`,
      nextStep:
        "do not run it again: investigate why (ps, strace -p, lsof, the service's logs, dmesg) with read-only commands, or ask the operator",
    };
  }
  if (f.risk !== "read_only" && f.plan === null) {
    return {
      kind: "refuse",
      code: "plan_first",
      reason: `a ${f.risk} command needs a proposed plan first`,
      nextStep:
        "call propose_plan with the steps (targets, commands, risks), then end your turn and wait for the operator",
    };
  }
  if (f.risk === "read_only" && f.plan === null && f.preplanReadOnlyCalls >= PREPLAN_READ_ONLY_CAP) {
    return {
      kind: "refuse",
      code: "preplan_cap",
      reason: `${f.preplanReadOnlyCalls} read-only commands ran before any plan`,
      nextStep:
        "stop researching: propose a plan now with what you know (propose_plan), or ask the operator a question",
    };
  }
  if (f.plan?.status === "denied" && f.risk !== "read_only") {
    return {
      kind: "refuse",
      code: "plan_denied",
      reason: `the operator denied plan ${f.plan.generation}`,
      nextStep: "ask the operator what they want instead, then propose a new plan",
    };
  }
  if (f.selfTargetDisruption && !f.destructiveWindowOpen) {
    return {
      kind: "needs_typed_confirmation",
      reason: `${f.targetSlug} runs oikos itself: stopping, restarting or destroying it needs a typed confirmation`,
      phrase: `confirm ${f.confirmAction} ${f.targetSlug}`,
    };
  }
  if (f.risk === "read_only") return { kind: "allow" };
  if (f.risk === "config_mutation") {
    if (f.plan?.status === "approved" && f.assentWindowOpen) return { kind: "allow" };
    if (f.destructiveWindowOpen) return { kind: "allow" };
    if (f.plan?.status === "proposed") {
      return {
        kind: "refuse",
        code: "plan_not_approved",
        reason: `plan ${f.plan.generation} is proposed but the operator has not approved it yet`,
        nextStep: "end your turn now and wait: you are resumed when the operator approves the plan",
      };
    }
    return {
      kind: "needs_approval",
      reason: "config_mutation outside an approved plan's window needs its own approval",
    };
  }
  if (f.destructiveWindowOpen) return { kind: "allow" };
  return {
    kind: "needs_typed_confirmation",
    reason: "destructive commands never ride a plan approval: an operator must type the confirmation",
    phrase: `confirm ${f.confirmAction} ${f.targetSlug}`,
  };
}
