import type { JailFacts } from "./jail.ts";
import type { Classification, Risk } from "./risk.ts";
import { riskRank } from "./risk.ts";

/**
 * Standing grants (♾️, issue #32): an operator approves one execution and, with it, lets the very
 * same command run again on the same target without asking, for a bounded time. A grant never
 * widens: it covers the command exactly as written (every byte the shell reads, so another quoting,
 * another argument, another variable or a `sudo` in front is another command), on the same target,
 * routed to the same place, proven the same way, jailed the same way, at a risk no higher than
 * config_mutation. Anything else asks again. Pure: the run service gathers the facts.
 */

export const DEFAULT_GRANT_DAYS = 7;
export const MAX_GRANT_DAYS = 90;
const DAY_MS = 86_400_000;

/** The highest risk a grant may cover: a destructive command is confirmed each time. */
export const GRANTABLE_RISK: Risk = "config_mutation";

/** What a grant is bound to, recorded when the approval is asked and compared at every use. */
export interface GrantBasis {
  target: string;
  /** The command exactly as the shell reads it. */
  command: string;
  risk: "read_only" | "config_mutation";
  /** Where the target resolved to (the execution's routing stamp), as stable JSON. */
  routing: string;
  /** The classification's verdict in a stable form: a changed proof or rule ends the grant. */
  proof: string;
  /** The read-only jail's facts for the target: a changed jail state ends the grant. */
  jail: string;
}

/** Why a command cannot get a standing grant (the card then offers none). */
export type NotGrantable =
  | "destructive"
  | "rejected"
  | "unreadable"
  | "affects_self"
  | "multi_line"
  | "script_runner";

export const NOT_GRANTABLE_WORDS: Readonly<Record<NotGrantable, string>> = {
  destructive: "a destructive command is confirmed each time it runs",
  rejected: "a rejected command never runs",
  unreadable: "oikos cannot tell what this command does",
  affects_self: "it would stop or destroy what oikos itself runs on",
  multi_line: "a command of several lines is approved each time",
  script_runner: "it hands a script to a shell or an interpreter, and the script can change between runs",
};

/**
 * Programs that run a script or program text they are given: a grant of `bash deploy.sh` would
 * cover whatever deploy.sh becomes, so none is granted (the classifier's commands, by basename).
 */
const SCRIPT_RUNNERS: ReadonlySet<string> = new Set(
  "bash sh dash zsh ksh mksh fish busybox source . eval exec python python2 python3 perl ruby node nodejs php lua tclsh Rscript".split(
    " ",
  ),
);

export interface GrantableInput {
  target: string;
  command: string;
  classification: Classification;
  /** The run gate's verdict that the command disrupts oikos itself. */
  affectsSelf: boolean;
  routing: unknown;
  jail: JailFacts | undefined;
}

/** The basis a grant of this command would have, or why it can have none. */
export function grantBasisOf(
  input: GrantableInput,
): { ok: true; basis: GrantBasis } | { ok: false; why: NotGrantable } {
  const { classification } = input;
  if (classification.risk === "reject") return { ok: false, why: "rejected" };
  if (classification.unreadable) return { ok: false, why: "unreadable" };
  if (input.affectsSelf) return { ok: false, why: "affects_self" };
  if (riskRank(classification.risk) > riskRank(GRANTABLE_RISK)) return { ok: false, why: "destructive" };
  if (/[\r\n]/.test(input.command)) return { ok: false, why: "multi_line" };
  if (classification.commands.some((name) => SCRIPT_RUNNERS.has(name)))
    return { ok: false, why: "script_runner" };
  return {
    ok: true,
    basis: {
      target: input.target,
      command: input.command,
      risk: classification.risk as GrantBasis["risk"],
      routing: stableJson(input.routing ?? null),
      proof: proofFingerprint(classification),
      // The jail matters only to a read-only run (an unjailed one the operator allowed): a change
      // grant's command is never jailed, and the target's first detection must not end its grants.
      jail: classification.risk === "read_only" ? jailFingerprint(input.jail) : "not_jailed",
    },
  };
}

/** A grant as the gate sees it. */
export interface StandingGrantFacts {
  id: string;
  basis: GrantBasis;
  grantedBy: string;
  expiresAt: Date;
  /** Revoked or invalidated: it covers nothing any more. */
  ended: boolean;
}

/** Why a grant does not cover a command it was asked about. */
export type GrantMiss =
  | "ended"
  | "expired"
  | "other_target"
  | "other_command"
  /** the target resolves elsewhere now: the grant dies */
  | "routing_changed"
  /** the classifier reads the command differently now (risk, reasons, programs): the grant dies */
  | "proof_changed"
  /** the target's read-only jail facts changed: the grant dies */
  | "jail_changed"
  | "not_grantable";

/** The misses that end a grant for good (recorded, audited): the command it names changed meaning. */
export const GRANT_KILLING_MISSES: ReadonlySet<GrantMiss> = new Set([
  "routing_changed",
  "proof_changed",
  "jail_changed",
]);

export type GrantJudgement = { covers: true } | { covers: false; miss: GrantMiss };

/**
 * Does this grant let this command run now? `current` is the basis the command would have now
 * (grantBasisOf of the call being gated), or why it could have none.
 */
export function judgeGrant(
  grant: StandingGrantFacts,
  current: ReturnType<typeof grantBasisOf>,
  now: Date,
): GrantJudgement {
  if (grant.ended) return { covers: false, miss: "ended" };
  if (grant.expiresAt.getTime() <= now.getTime()) return { covers: false, miss: "expired" };
  if (!current.ok) return { covers: false, miss: "not_grantable" };
  const was = grant.basis;
  const is = current.basis;
  if (was.target !== is.target) return { covers: false, miss: "other_target" };
  if (was.command !== is.command) return { covers: false, miss: "other_command" };
  if (was.routing !== is.routing) return { covers: false, miss: "routing_changed" };
  if (was.proof !== is.proof || riskRank(is.risk) > riskRank(was.risk))
    return { covers: false, miss: "proof_changed" };
  if (was.jail !== is.jail) return { covers: false, miss: "jail_changed" };
  return { covers: true };
}

/** The first grant that covers the command, and those the command's new meaning ends. */
export function findCoveringGrant(
  grants: readonly StandingGrantFacts[],
  current: ReturnType<typeof grantBasisOf>,
  now: Date,
): { covering: StandingGrantFacts | null; killed: { grant: StandingGrantFacts; miss: GrantMiss }[] } {
  let covering: StandingGrantFacts | null = null;
  const killed: { grant: StandingGrantFacts; miss: GrantMiss }[] = [];
  for (const grant of grants) {
    const judged = judgeGrant(grant, current, now);
    if (judged.covers) covering ??= grant;
    else if (GRANT_KILLING_MISSES.has(judged.miss)) killed.push({ grant, miss: judged.miss });
  }
  return { covering, killed };
}

/** How long a grant lasts: the operator's days, else the configured default, never past the maximum. */
export function grantDurationMs(askedDays: number | null, defaultDays = DEFAULT_GRANT_DAYS): number {
  const fallback = clampDays(defaultDays);
  const days = askedDays === null ? fallback : clampDays(askedDays);
  return days * DAY_MS;
}

function clampDays(days: number): number {
  if (!Number.isFinite(days) || days < 1) return 1;
  return Math.min(Math.floor(days), MAX_GRANT_DAYS);
}

/** The classification's verdict, stable across runs of the same oikos: risk, reasons, programs, grants. */
export function proofFingerprint(classification: Classification): string {
  return stableJson({
    risk: classification.risk,
    reasons: classification.reasons,
    commands: classification.commands,
    programs: classification.programs ?? null,
    grants: classification.grants ?? null,
  });
}

/** The jail facts a run depends on (mode, availability, the operator's allowance, missing grants). */
export function jailFingerprint(jail: JailFacts | undefined): string {
  if (!jail) return "none";
  return stableJson({
    mode: jail.mode,
    availability: jail.availability.state,
    unjailedAllowed: jail.unjailedAllowed ?? false,
    grantsUnavailable: Object.keys(jail.grantsUnavailable ?? {}).sort(),
  });
}

/** JSON with object keys sorted, so equal values give equal text. */
export function stableJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([k, v]) => [k, sortKeys(v)]));
  }
  return value;
}

/**
 * The operator's words for "approve and grant" in a thread: `allow always`, `approve always`,
 * `always`, `♾️`, optionally `for <n> days` / `<n>d`. The whole message, nothing else: anything
 * longer is not a grant (it may still be plain assent, which approves only this execution).
 */
export function parseGrantPhrase(text: string): { days: number | null } | null {
  const t = text
    .normalize("NFKC")
    .replace(/[\uFE0F]/g, "")
    .replace(/[.!]+$/, "")
    .trim()
    .toLowerCase()
    .replace(/\s+/g, " ");
  const match =
    /^(?:(?:allow|approve|grant)(?: it)? (?:always|for good)|always allow|♾|:infinity:|always)(?:,? (?:for )?(\d{1,3}) ?(?:d|days?))?$/.exec(
      t,
    ) ?? /^(?:allow|approve|grant)(?: it)? for (\d{1,3}) ?(?:d|days?)$/.exec(t);
  if (!match) return null;
  return { days: match[1] === undefined ? null : Number(match[1]) };
}

/** The reaction keys that mean ♾️ (Matrix sends the emoji, Slack a name, some clients drop FE0F). */
export function isGrantReaction(key: string): boolean {
  const k = key.trim().replace(/\uFE0F/g, "");
  return k === "♾" || k === ":infinity:" || k === "infinity";
}
