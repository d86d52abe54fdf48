import { type JailFacts, jailBlockReason } from "./jail.ts";
import type { LintResult } from "./lint.ts";
import { redact } from "./redact.ts";
import { REFUSALS, type Refusal, type RefusalCode, refusal } from "./refusals.ts";
import type { Classification, Risk } from "./risk.ts";
import { quoteSegment } from "./risk.ts";
import { elsewhereNextStep } from "./runs-elsewhere.ts";
import { findCoveringGrant, grantBasisOf, type StandingGrantFacts } from "./standing-grant.ts";
import { checkTarget, type TargetFacts } from "./target-check.ts";
import { UNREADABLE_WORDS, type UnreadableKind } from "./unreadable.ts";

/**
 * The `run` gate as one pure function, and the only statement of its order: the run service
 * gathers the facts from the store (jobs/execution/run-facts.ts), asks this once, and returns a
 * refusal exactly as decided here. run_many and inspect_path ask the same function per target.
 *
 *  1. session: a session id is present → it is known → its task is open
 *  2. target: it exists → it is runnable (transport, vmid, owning host)
 *  3. the command lints and parses, and carries no secret in its text (it would be stored, shown on a
 *     card and replayed to the model: the command reads the secret on the target instead)
 *  4. the classifier did not reject it
 *  5. the target can run it (no `qm` on an LXC)
 *  6. read-only only (run_many, inspect_path)
 *  7. retry cap (the same command failed 3 times in this session)
 *  8. read-only runs, within the pre-plan research budget when there is no plan yet; where the
 *     read-only jail is required and the target cannot jail, it needs the operator's approval
 *     (run_many / inspect_path: refused, they never ask)
 *  9. plan first: a change needs a proposed, then approved plan
 * 10. risk: config_mutation inside the assent window or after its own approval; destructive only in
 *     its own window for this target or after a typed confirmation; one pending approval per session
 *
 * A standing grant (policy/standing-grant.ts, issue #32) stands in for the operator's approval of
 * exactly the command it names on exactly its target, before 9 and 10 (and for the approval of an
 * unjailed read-only run in 8): the operator already decided that command. It never covers what a
 * window may not (destructive, unreadable, what disrupts oikos itself).
 */

/** The session's current plan, in policy's words (a superseded plan is no plan). */
export type PlanState = "none" | "proposed" | "approved" | "denied";

export type RunSessionFacts =
  | { state: "absent" }
  | { state: "unknown"; id: string }
  | { state: "closed"; status: string }
  | {
      state: "open";
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
    };

export type RunTargetFacts =
  | { state: "unknown"; suggestions: readonly string[] }
  | { state: "not_runnable"; reason: string }
  /** `candidates`: entities that might run what this one cannot (its owning host), to suggest. */
  | { state: "runnable"; entity: TargetFacts; candidates: readonly TargetFacts[] };

export interface RunFacts {
  command: string;
  targetSlug: string;
  session: RunSessionFacts;
  target: RunTargetFacts;
  lint: LintResult;
  /** The classifier's verdict for the target's type (computed even when lint fails; read only after). */
  classification: Classification;
  /** run_many / inspect_path: anything but read-only is refused. */
  readOnlyOnly?: boolean;
  /** The command would stop, restart or destroy the machine or service oikos itself runs on. */
  affectsSelf?: boolean;
  preplanReadOnlyCap?: number;
  retryCap?: number;
  /** The read-only jail's mode for this target and whether the target can jail (policy/jail.ts). */
  jail?: JailFacts;
  /** Standing grants naming this command on this target (issue #32), with where it resolves now. */
  standingGrants?: readonly StandingGrantFacts[];
  /** The routing stamp of the target now (compared with each grant's). */
  routing?: unknown;
  /** Now, for a grant's expiry. */
  now?: Date;
}

export type AllowVia = "read_only" | "assent_window" | "destructive_window" | "standing_grant";

/** The classifier's risk of a command that may run (a rejected one never passes the gate). */
export type RunnableRisk = Exclude<Risk, "reject">;

export type RunDecision =
  | {
      kind: "allow";
      via: AllowVia;
      risk: RunnableRisk;
      /** A read-only run before any plan: it takes one slot of the pre-plan research budget. */
      preplanSlot: boolean;
      /** via standing_grant: the grant it runs under. */
      grant?: StandingGrantFacts;
    }
  | { kind: "needs_approval"; risk: RunnableRisk; reason: string }
  | {
      kind: "needs_typed_confirmation";
      risk: RunnableRisk;
      phrase: string;
      reason: string;
      /** oikos cannot tell what the command changes (policy/unreadable.ts): the card says so. */
      unreadable?: UnreadableKind;
    }
  | Refusal;

export const DEFAULT_PREPLAN_READ_ONLY_CAP = 8;
export const DEFAULT_RETRY_CAP = 3;

/** Refusals decided before the command is classified: no classification row is recorded for them. */
export const UNCLASSIFIED_REFUSALS: ReadonlySet<RefusalCode> = new Set([
  "no_session",
  "unknown_session",
  "session_closed",
  "unknown_target",
  "target_not_runnable",
  "lint",
  "secret_in_command",
]);

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

function wiringFault(which: "no" | "an unknown"): string {
  return `this is a wiring fault, not yours: tell the operator the tool call carried ${which} session id, and end your turn`;
}

export function decideRun(facts: RunFacts): RunDecision {
  const { session, target, classification } = facts;
  if (session.state === "absent") {
    return refusal(
      "no_session",
      "this tool call carries no oikos session id, so nothing may run",
      wiringFault("no"),
    );
  }
  if (session.state === "unknown") {
    return refusal(
      "unknown_session",
      `this tool call carries session id ${session.id}, which oikos does not know`,
      wiringFault("an unknown"),
    );
  }
  if (session.state === "closed") {
    return refusal("session_closed", `the task of this session is closed (${session.status})`);
  }
  if (target.state === "unknown") {
    const close = target.suggestions;
    return refusal(
      "unknown_target",
      `unknown target "${facts.targetSlug}"${close.length ? `; did you mean ${close.join(", ")}?` : ""}`,
    );
  }
  if (target.state === "not_runnable") return refusal("target_not_runnable", target.reason);
  if (!facts.lint.ok) return refusal("lint", facts.lint.problems.map((p) => p.message).join("; "));
  if (redact(facts.command) !== facts.command) {
    return refusal(
      "secret_in_command",
      `the command carries a secret in its text: ${redact(facts.command)}. oikos stores, shows and replays every command, so it never runs one with a secret written into it`,
    );
  }

  const cmd = quoteSegment(facts.command);
  const on = `${cmd} on ${facts.targetSlug}`;
  const why =
    classification.reasons.length > 0
      ? classification.reasons.join("; ")
      : `${cmd} is ${classification.risk}`;
  if (classification.risk === "reject") return rejected(facts, on, why);
  const check = checkTarget(classification, target.entity, target.candidates);
  if (!check.ok) return refusal("wrong_target", check.reason, check.nextStep);
  // A read-only command that runs elsewhere (ssh, pct exec, docker exec …): its refusals say where
  // to run it instead, in words and as data.
  const away = classification.elsewhere;
  const awayDetail = away ? { runs_elsewhere: away } : undefined;
  if (facts.readOnlyOnly && classification.risk !== "read_only") {
    return refusal(
      "not_read_only",
      `on ${facts.targetSlug} this command is ${classification.risk}: ${classification.reasons.join("; ")}`,
      away
        ? elsewhereNextStep(away, "use run for this command as it is (it goes through approval)")
        : REFUSALS.not_read_only.nextStep,
      awayDetail,
    );
  }
  const retryCap = facts.retryCap ?? DEFAULT_RETRY_CAP;
  if (session.failuresOfKey >= retryCap) {
    return refusal("retry_cap", `${on} has already failed ${session.failuresOfKey} times in this session`);
  }

  const planApproved = session.planState === "approved";
  const planOpen = session.planState === "proposed" || planApproved;
  if (classification.risk === "read_only" && !facts.affectsSelf) {
    const jailBlocked = jailBlockReason(facts.jail, classification.grants);
    if (jailBlocked !== null) {
      const grant = facts.readOnlyOnly ? null : coveringGrant(facts);
      if (grant)
        return { kind: "allow", via: "standing_grant", risk: "read_only", preplanSlot: false, grant };
      return unjailedReadOnly(facts, on, jailBlocked);
    }
    const cap = facts.preplanReadOnlyCap ?? DEFAULT_PREPLAN_READ_ONLY_CAP;
    if (!planOpen && session.preplanReadOnlyCalls >= cap) {
      return refusal(
        "preplan_cap",
        `${session.preplanReadOnlyCalls} read-only commands have run before any plan; the research budget before a plan is ${cap}`,
      );
    }
    return { kind: "allow", via: "read_only", risk: "read_only", preplanSlot: !planOpen };
  }

  const classified = classification.risk;
  const risk: RunnableRisk = facts.affectsSelf ? "destructive" : classified;
  const selfNote = facts.affectsSelf ? " It would stop or destroy what oikos itself runs on." : "";
  const grant = coveringGrant(facts);
  if (grant) return { kind: "allow", via: "standing_grant", risk: classified, preplanSlot: false, grant };
  if (!planOpen) {
    return refusal(
      "plan_required",
      `${on} is ${risk} and this session has no plan (${why}).${selfNote}`,
      away ? elsewhereNextStep(away, REFUSALS.plan_required.nextStep) : REFUSALS.plan_required.nextStep,
      awayDetail,
    );
  }
  if (!planApproved) {
    return refusal("plan_not_approved", `${on} is ${risk}; the proposed plan has not been approved yet`);
  }
  if (risk === "config_mutation" && session.assentWindowOpen) {
    return { kind: "allow", via: "assent_window", risk: classified, preplanSlot: false };
  }
  // What oikos cannot read never rides a window: each one is typed for itself.
  const unreadable = facts.classification.unreadable;
  if (risk === "destructive" && session.destructiveWindowOpenForTarget && !facts.affectsSelf && !unreadable) {
    return { kind: "allow", via: "destructive_window", risk: classified, preplanSlot: false };
  }
  const pending = session.pendingApprovalExecutionId;
  if (pending !== null) {
    return refusal(
      "approval_pending",
      `execution ${pending} is already waiting for the operator; only one approval may be pending per session`,
      `wait for the operator to decide on execution ${pending}: end your turn, you are resumed with the decision`,
    );
  }
  if (risk === "config_mutation") {
    return {
      kind: "needs_approval",
      risk: classified,
      reason: `${on} changes state (config_mutation): ${why}`,
    };
  }
  const phrase = confirmationPhrase(facts.command, facts.targetSlug);
  const cannotTell = unreadable
    ? ` oikos cannot tell what this changes: ${UNREADABLE_WORDS[unreadable]}.`
    : "";
  return {
    kind: "needs_typed_confirmation",
    risk: classified,
    phrase,
    reason: `${on} is destructive (${why}).${cannotTell}${selfNote} It needs the operator to type \`${phrase}\` or approve this execution explicitly`,
    ...(unreadable ? { unreadable } : {}),
  };
}

/** The standing grant that lets this very command run now, if one does (policy/standing-grant.ts). */
export function coveringGrant(facts: RunFacts): StandingGrantFacts | null {
  if (!facts.standingGrants?.length || !facts.now) return null;
  return findCoveringGrant(facts.standingGrants, grantBasisOfFacts(facts), facts.now).covering;
}

/** The grant basis the gated command has (or why none): what a grant of it records, what a use compares. */
export function grantBasisOfFacts(facts: RunFacts): ReturnType<typeof grantBasisOf> {
  return grantBasisOf({
    target: facts.targetSlug,
    command: facts.command,
    classification: facts.classification,
    affectsSelf: facts.affectsSelf ?? false,
    routing: facts.routing ?? null,
    jail: facts.jail,
  });
}

/**
 * A read-only command the read-only jail cannot hold on this target (policy/jail.ts jailBlockReason):
 * nothing runs unasked, so the operator decides whether it may run unjailed. Fan-outs never ask, so
 * they refuse it.
 */
function unjailedReadOnly(facts: RunFacts, on: string, why: string): RunDecision {
  const cannot = `${on} is read-only, but ${facts.targetSlug} cannot run it in the read-only jail (${why}), and nothing runs unjailed there with nobody asked`;
  if (facts.readOnlyOnly) return refusal("jail_unavailable", cannot);
  const pending = facts.session.state === "open" ? facts.session.pendingApprovalExecutionId : null;
  if (pending !== null) {
    return refusal(
      "approval_pending",
      `${cannot}; execution ${pending} is already waiting for the operator, and only one approval may be pending per session`,
      `wait for the operator to decide on execution ${pending}: end your turn, you are resumed with the decision`,
    );
  }
  return {
    kind: "needs_approval",
    risk: "read_only",
    reason: `${cannot}: it runs unjailed only if the operator approves`,
  };
}

/** command_rejected, naming the offending segment and what the classifier says to do about it. */
function rejected(facts: RunFacts, on: string, why: string): Refusal {
  const { classification } = facts;
  const offending = classification.segments.filter((segment) => segment.risk === "reject");
  const fixes = (offending.length > 0 ? offending.flatMap((s) => s.reasons) : classification.reasons).join(
    "; ",
  );
  return refusal(
    "command_rejected",
    `${on} is rejected: ${why}`,
    `fix the offending part (${fixes}), then call run again with the rewritten command; ${REFUSALS.command_rejected.nextStep}`,
  );
}
