import type { Risk } from "./risk.ts";
import { quoteSegment } from "./risk.ts";

/**
 * The `run` gate as a pure function. The caller (the MCP server) gathers the facts from the
 * store, runs the target, lint and capability checks first, then asks this. Every refusal says
 * what the model should do next.
 */

export type PlanState = "none" | "proposed" | "approved" | "rejected" | "completed";

export interface RunFacts {
  /** The call carries a session id the server knows. Missing or unknown fails closed. */
  sessionKnown: boolean;
  risk: Risk;
  /** Classifier reasons, shown in refusals and approval cards. */
  reasons: readonly string[];
  /** The command and target, for refusal texts and the typed-confirmation phrase. */
  command: string;
  targetSlug: string;
  planState: PlanState;
  /** The operator approved this session's plan and its assent window is still open. */
  assentWindowOpen: boolean;
  /** A destructive window is open for this session and this target. */
  destructiveWindowOpenForTarget: boolean;
  /** The execution waiting for the operator in this session, if any (at most one). */
  pendingApprovalExecutionId: string | null;
  /** Failed runs of this command key (same target, same normalised command) in this session. */
  failuresOfKey: number;
  /** Read-only runs already made in this session before any plan was proposed. */
  preplanReadOnlyCalls: number;
  preplanReadOnlyCap?: number;
  retryCap?: number;
  /** The command would stop, restart or destroy the machine or service oikos itself runs on. */
  affectsSelf?: boolean;
}

export type AllowVia = "read_only" | "assent_window" | "destructive_window";

export type RunDecision =
  | { decision: "allow"; via: AllowVia }
  | { decision: "needs_approval"; reason: string }
  | { decision: "needs_typed_confirmation"; phrase: string; reason: string }
  | { decision: "refuse"; code: RefusalCode; reason: string; nextStep: string };

export type RefusalCode =
  | "session_unknown"
  | "command_rejected"
  | "retry_cap"
  | "plan_required"
  | "plan_not_approved"
  | "preplan_cap"
  | "approval_pending";

export const DEFAULT_PREPLAN_READ_ONLY_CAP = 8;
export const DEFAULT_RETRY_CAP = 3;

/** The order the gates run in (documentation and the approval card legend read this). */
export const runGateOrder: readonly { gate: string; where: string; refuses: string }[] = [
  { gate: "session known", where: "decideRun", refuses: "session_unknown" },
  { gate: "target exists and is runnable", where: "caller (store)", refuses: "target_unknown" },
  { gate: "command lints and parses", where: "Classifier.lint", refuses: "lint problems" },
  { gate: "target can run it", where: "checkTarget", refuses: "wrong_target" },
  { gate: "classifier did not reject it", where: "decideRun", refuses: "command_rejected" },
  { gate: "retry cap (same command failed 3 times)", where: "decideRun", refuses: "retry_cap" },
  {
    gate: "plan first (changes need a proposed and approved plan; read-only research before a plan is capped)",
    where: "decideRun",
    refuses: "plan_required, plan_not_approved, preplan_cap",
  },
  {
    gate: "risk: read_only runs; config_mutation inside the assent window or after its own approval; destructive only after typed confirmation or explicit approval (window per target)",
    where: "decideRun",
    refuses: "approval_pending",
  },
];

const DESTRUCTIVE_ACTIONS: readonly (readonly [RegExp, string])[] = [
  [/\b(destroy|destroys)\b/, "destroy"],
  [/\b(rollback)\b/, "rollback"],
  [/\b(purge|prune)\b/, "purge"],
  [/\b(mkfs(\.\w+)?|wipefs|format|luksFormat|blkdiscard|sgdisk|parted|fdisk)\b/, "wipe"],
  [/\b(reboot|shutdown|poweroff|halt)\b/, "reboot"],
  [/\b(drop|truncate)\b/, "drop"],
  [/\b(dd)\b/, "overwrite"],
  [/\b(sync)\b/, "sync"],
  [
    /\b(rm|delete|del|remove|rmi|unlink|shred|delnode|delsnapshot|lvremove|vgremove|pvremove|userdel|dropdb|uninstall)\b/,
    "delete",
  ],
];

/** The action word of the typed-confirmation phrase for a destructive command. */
export function destructiveAction(command: string): string {
  for (const [pattern, action] of DESTRUCTIVE_ACTIONS) if (pattern.test(command)) return action;
  return "run";
}

/** The phrase an operator types to release a destructive command: `confirm <action> <target>`. */
export function confirmationPhrase(command: string, targetSlug: string): string {
  return `confirm ${destructiveAction(command)} ${targetSlug}`;
}

function refuse(code: RefusalCode, reason: string, nextStep: string): RunDecision {
  return { decision: "refuse", code, reason, nextStep };
}

export function decideRun(facts: RunFacts): RunDecision {
  const cmd = quoteSegment(facts.command);
  const on = `${cmd} on ${facts.targetSlug}`;
  const why = facts.reasons.length > 0 ? facts.reasons.join("; ") : `${cmd} is ${facts.risk}`;

  if (!facts.sessionKnown) {
    return refuse(
      "session_unknown",
      "this run call carries no session id the server knows, so no gate can be checked",
      "run commands only from inside a session (the client sends the session id with every call); do not retry this call as is",
    );
  }
  if (facts.risk === "reject") {
    return refuse(
      "command_rejected",
      `${on} is rejected: ${why}`,
      "rewrite it as plain commands oikos can read: no piping downloads or decoded text into a shell, no eval of dynamic text; fetch a script to a file and read it first",
    );
  }
  const retryCap = facts.retryCap ?? DEFAULT_RETRY_CAP;
  if (facts.failuresOfKey >= retryCap) {
    return refuse(
      "retry_cap",
      `${on} has already failed ${facts.failuresOfKey} times in this session`,
      "stop retrying and investigate why it fails: look at the process (ps, strace -p, lsof), the service logs (journalctl -u …, docker logs), locks and mounts; or call ask_operator",
    );
  }

  const planApproved = facts.planState === "approved";
  const planOpen = facts.planState === "proposed" || planApproved;
  if (facts.risk === "read_only" && !facts.affectsSelf) {
    const cap = facts.preplanReadOnlyCap ?? DEFAULT_PREPLAN_READ_ONLY_CAP;
    if (!planOpen && facts.preplanReadOnlyCalls >= cap) {
      return refuse(
        "preplan_cap",
        `${facts.preplanReadOnlyCalls} read-only commands have run before any plan; the research budget before a plan is ${cap}`,
        "call propose_plan now with what you found and the steps you intend (or ask_operator if you are stuck); read-only checks continue once a plan exists",
      );
    }
    return { decision: "allow", via: "read_only" };
  }

  const risk: Risk = facts.affectsSelf ? "destructive" : facts.risk;
  const selfNote = facts.affectsSelf ? " It would stop or destroy what oikos itself runs on." : "";
  if (!planOpen) {
    return refuse(
      "plan_required",
      `${on} is ${risk} and this session has no plan (${why}).${selfNote}`,
      "call propose_plan with numbered steps that include this command and its target, then end your turn and wait for the operator",
    );
  }
  if (facts.planState === "proposed") {
    return refuse(
      "plan_not_approved",
      `${on} is ${risk}; the proposed plan has not been approved yet`,
      "end your turn and wait: the operator approves the plan (that opens the assent window) and you are resumed with their answer",
    );
  }
  if (facts.pendingApprovalExecutionId !== null) {
    const windowed =
      risk === "config_mutation" ? facts.assentWindowOpen : facts.destructiveWindowOpenForTarget;
    if (!windowed) {
      return refuse(
        "approval_pending",
        `execution ${facts.pendingApprovalExecutionId} is already waiting for the operator; only one approval may be pending per session`,
        `wait for the operator to decide on execution ${facts.pendingApprovalExecutionId}: end your turn, you are resumed with the decision`,
      );
    }
  }
  if (risk === "config_mutation") {
    if (planApproved && facts.assentWindowOpen) return { decision: "allow", via: "assent_window" };
    return { decision: "needs_approval", reason: `${on} changes state (config_mutation): ${why}` };
  }
  if (facts.destructiveWindowOpenForTarget && !facts.affectsSelf)
    return { decision: "allow", via: "destructive_window" };
  const phrase = confirmationPhrase(facts.command, facts.targetSlug);
  return {
    decision: "needs_typed_confirmation",
    phrase,
    reason: `${on} is destructive (${why}).${selfNote} It needs the operator to type \`${phrase}\` or approve this execution explicitly`,
  };
}
