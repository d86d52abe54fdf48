import type { Classification, Risk } from "../../policy/risk.ts";

/** Facts the risk gate decides on, gathered from the store for one `run` call. */
export interface RunGateFacts {
  risk: Risk;
  /** Classifier reasons, for refusal texts and approval cards. */
  reasons: readonly string[];
  command: string;
  targetSlug: string;
  targetType: string;
  /** The session's current plan: none yet, or its generation and status. */
  plan: { generation: number; status: string } | null;
  assentWindowOpen: boolean;
  destructiveWindowOpen: boolean;
  /** The session's pending execution approval, if any (only one may be pending). */
  pendingApproval: { approvalId: string; executionId: string | null } | null;
  failuresOfKey: number;
  preplanReadOnlyCalls: number;
  /** The target runs oikos itself and the command would stop, restart or destroy it. */
  selfTargetDisruption: boolean;
}

export type RunGateDecision =
  | { kind: "allow" }
  | { kind: "needs_approval"; reason: string }
  | { kind: "needs_typed_confirmation"; reason: string; phrase: string }
  | { kind: "refuse"; code: string; reason: string; nextStep: string };

export type TargetCheck = { ok: true } | { ok: false; reason: string; nextStep: string };

/** What the capability check knows of a target (policy/target-check.ts TargetFacts). */
export interface TargetFacts {
  slug: string;
  type: string;
  attributes: Readonly<Record<string, unknown>>;
  parentSlug?: string;
}

/** The slice of policy/ the run service uses; policy-adapter.ts builds it from the real modules. */
export interface RunPolicy {
  lint(command: string): { ok: true } | { ok: false; problems: { message: string }[] };
  classify(command: string, targetType: string): Classification;
  /** `candidates`: other entities that might run it instead (the target's host), for the suggestion. */
  checkTarget(
    classification: Classification,
    target: TargetFacts,
    candidates: readonly TargetFacts[],
  ): TargetCheck;
  commandKey(target: string, command: string): string;
  decide(facts: RunGateFacts): RunGateDecision;
  /** Read-only runs a session may make before any plan (what `decide` refuses past). */
  preplanReadOnlyCap: number;
  redact(text: string): string;
}
