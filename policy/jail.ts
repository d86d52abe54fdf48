import { describeGrant, type JailGrant, unionGrants } from "./jail-grant.ts";
import type { Risk } from "./risk.ts";

/**
 * The read-only jail as policy sees it (the jail itself: jobs/ssh/jail.bash). Pure: the run service
 * reads the mode from config and the entity, and the detection from the entity, then asks here.
 *
 * Contained by default and fail closed: a read-only command that runs with nobody asked runs in the
 * jail, with exactly the grants its proof named, or it does not run. Where the jail cannot start
 * the result says why; where the target cannot jail at all, nothing runs unasked there (each
 * read-only command asks the operator) until the operator allows read-only commands unjailed on
 * that target — a standing, audited, revocable decision only the operator can make (the attribute
 * is routing, policy/routing.ts: the model cannot set it).
 *
 *  - `auto` (default) and `required`: as above; `required` does not honour the operator's standing
 *    allowance (every read-only command on a target that cannot jail asks);
 *  - `off`: never jailed (the operator switched the containment off).
 * Approved executions (config_mutation, destructive, or read-only approved) run exactly as
 * approved: never jailed.
 */
export const JAIL_MODES = ["auto", "required", "off"] as const;
export type JailMode = (typeof JAIL_MODES)[number];
export const DEFAULT_JAIL_MODE: JailMode = "auto";

/** The entity attribute holding the per-target mode (overrides execution.readOnlyJail). */
export const JAIL_MODE_ATTRIBUTE = "jail.mode";
/** The entity attribute holding the detection: `available` or `unavailable: <why>`. */
export const JAIL_ATTRIBUTE = "jail";
/** When the detection was made (ISO time); an `unavailable` older than the recheck age is tried again. */
export const JAIL_CHECKED_ATTRIBUTE = "jail.checked_at";
/** Which engine jailed the target's last run (jobs/ssh/jail-script.ts JAIL_ENGINES). */
export const JAIL_ENGINE_ATTRIBUTE = "jail.engine";
/** The operator's standing decision: read-only commands may run unjailed on a target that cannot jail. */
export const JAIL_UNJAILED_ATTRIBUTE = "jail.unjailed_read_only";
export const JAIL_UNJAILED_ALLOWED = "allowed";
/** The grants a target was found unable to make: `{ resource: why }` (recorded by the worker, `oikos check`). */
export const JAIL_GRANTS_ATTRIBUTE = "jail.grants_unavailable";
/** A target found unable to jail is tried again after this long (it may have been fixed). */
export const JAIL_RECHECK_MS = 6 * 3_600_000;

/**
 * Why a jail did not start: the target cannot jail (recorded on the entity, shown to the operator
 * once), the machine was short of something for a moment (tried again, never recorded), or one
 * grant cannot be made there (this run fails; the target is fine for others).
 */
export const JAIL_FAILURE_KINDS = ["unavailable", "transient", "grant"] as const;
export type JailFailureKind = (typeof JAIL_FAILURE_KINDS)[number];
/** Attempts of a run whose jail failed for a transient reason, and the pause before each retry. */
export const JAIL_TRANSIENT_ATTEMPTS = 3;
export const JAIL_TRANSIENT_BACKOFF_MS: readonly number[] = [200, 800];

export type JailAvailability =
  | { state: "unknown" }
  | { state: "available" }
  | { state: "unavailable"; reason: string };

/**
 * How one execution runs: decided at the gate, stored on the execution, followed by the worker.
 * `require`: in the jail with its grants, or not at all. (`prefer`, the old fall-back to an unjailed
 * run, is only read from rows written before it was removed, and is followed as `require`.)
 */
export type JailPlan = "require" | "off" | "prefer";

export interface JailFacts {
  mode: JailMode;
  availability: JailAvailability;
  /** The operator allowed read-only commands unjailed on this target (JAIL_UNJAILED_ATTRIBUTE). */
  unjailedAllowed?: boolean;
  /** Grants this target was found unable to make, by resource, with why (JAIL_GRANTS_ATTRIBUTE). */
  grantsUnavailable?: Partial<Record<JailGrant["resource"], string>>;
}

export function isJailMode(value: unknown): value is JailMode {
  return typeof value === "string" && (JAIL_MODES as readonly string[]).includes(value);
}

/** The entity's own mode when it sets a valid one, else the configured mode. */
export function jailModeOf(configured: JailMode, attributes: Record<string, unknown>): JailMode {
  const own = attributes[JAIL_MODE_ATTRIBUTE];
  return isJailMode(own) ? own : configured;
}

/** The grants the entity records as impossible there, by resource. */
export function grantsUnavailableOf(
  attributes: Record<string, unknown>,
): Partial<Record<JailGrant["resource"], string>> {
  const value = attributes[JAIL_GRANTS_ATTRIBUTE];
  if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter(([, why]) => typeof why === "string"));
}

/** The operator's standing allowance, read from the entity. */
export function unjailedAllowedOf(attributes: Record<string, unknown>): boolean {
  return attributes[JAIL_UNJAILED_ATTRIBUTE] === JAIL_UNJAILED_ALLOWED;
}

const UNAVAILABLE = "unavailable: ";

/** The attribute text of a detection. */
export function jailAttribute(availability: Exclude<JailAvailability, { state: "unknown" }>): string {
  return availability.state === "available" ? "available" : `${UNAVAILABLE}${availability.reason}`;
}

/**
 * The detection recorded on the entity, as of `now`: an `unavailable` older than JAIL_RECHECK_MS
 * (or without a time) counts as unknown, so the next read-only run tries the jail again.
 */
export function jailAvailabilityOf(attributes: Record<string, unknown>, now: Date): JailAvailability {
  const value = attributes[JAIL_ATTRIBUTE];
  if (value === "available") return { state: "available" };
  if (typeof value !== "string" || !value.startsWith(UNAVAILABLE)) return { state: "unknown" };
  const checked = Date.parse(String(attributes[JAIL_CHECKED_ATTRIBUTE] ?? ""));
  if (!Number.isFinite(checked) || now.getTime() - checked > JAIL_RECHECK_MS) return { state: "unknown" };
  return { state: "unavailable", reason: value.slice(UNAVAILABLE.length) };
}

/** The operator's allowance applies: the mode honours it and the target is known not to jail. */
function allowanceApplies(jail: JailFacts): boolean {
  return jail.mode === "auto" && jail.unjailedAllowed === true && jail.availability.state === "unavailable";
}

/**
 * Why a read-only command may not run with nobody asked on this target (it asks; fan-outs refuse),
 * or null: the target is known not to jail and the operator has not allowed read-only commands
 * unjailed there, or the command needs a grant the target is known unable to make.
 */
export function jailBlockReason(
  jail: JailFacts | undefined,
  grants: readonly JailGrant[] = [],
): string | null {
  if (jail === undefined || jail.mode === "off") return null;
  if (unjailedByGrant(grants) !== null) return null;
  if (jail.availability.state === "unavailable" && !allowanceApplies(jail)) return jail.availability.reason;
  for (const grant of grants) {
    const why = jail.grantsUnavailable?.[grant.resource];
    if (why !== undefined) return `it cannot open ${describeGrant(grant)} there: ${why}`;
  }
  return null;
}

/** jailBlockReason without the command's grants: the target as a whole (previews, fan-outs). */
export function jailBlocksAutoRun(jail: JailFacts | undefined): boolean {
  return jailBlockReason(jail) !== null;
}

/** The words of a run sent outside the jail by its proof spec ("unjailed: needs X (proven by spec Y)"). */
function unjailedByGrant(grants: readonly JailGrant[]): string | null {
  const named = grants.filter((grant) => grant.resource === "unjailed");
  return named.length === 0 ? null : named.map(describeGrant).join("; ");
}

/**
 * The jail plan of an execution, the grants it runs with, and, when it will not be jailed, why
 * (stored with it and shown). `approved`: the operator released this execution, which then runs
 * exactly as approved. `grants`: the classification's (read_only only).
 */
export function jailPlanFor(input: {
  risk: Exclude<Risk, "reject">;
  approved: boolean;
  jail: JailFacts | undefined;
  grants?: readonly JailGrant[];
}): { plan: Exclude<JailPlan, "prefer">; note: string | null; grants: JailGrant[] } {
  const { jail } = input;
  const grants = input.risk === "read_only" ? unionGrants(input.grants ?? []) : [];
  if (jail === undefined) return { plan: "off", note: "the read-only jail is not configured", grants };
  if (input.risk !== "read_only")
    return { plan: "off", note: "approved changes run exactly as approved", grants };
  if (input.approved)
    return { plan: "off", note: "approved by the operator: runs exactly as approved", grants };
  if (jail.mode === "off") return { plan: "off", note: "the read-only jail is off for this target", grants };
  const unjailed = unjailedByGrant(grants);
  if (unjailed !== null) return { plan: "off", note: unjailed, grants };
  if (allowanceApplies(jail) && jail.availability.state === "unavailable") {
    return {
      plan: "off",
      note: `this target cannot jail (${jail.availability.reason}); the operator allowed read-only commands to run unjailed on it`,
      grants,
    };
  }
  return { plan: "require", note: null, grants };
}

/** Whether a failed jail start is worth another attempt (never recorded against the target). */
export function jailFailureRetries(kind: JailFailureKind, attempt: number): boolean {
  return kind === "transient" && attempt < JAIL_TRANSIENT_ATTEMPTS;
}

/**
 * Why a jailed run did not run, in words for the model and the operator, with what the operator can
 * do. `target`: the entity slug.
 */
export function jailFailureReason(
  target: string,
  failure: { kind: JailFailureKind; reason: string; resource?: string },
): string {
  switch (failure.kind) {
    case "unavailable":
      return `the read-only jail cannot start on ${target} (${failure.reason}), so the command did not run: nothing runs there with nobody asked until the jail works or the operator allows read-only commands unjailed on ${target} (the card in this thread, or \`oikos routing ${target} ${JAIL_UNJAILED_ATTRIBUTE}=${JAIL_UNJAILED_ALLOWED}\`); run it again and the operator is asked to approve it`;
    case "transient":
      return `the read-only jail could not start on ${target} after ${JAIL_TRANSIENT_ATTEMPTS} attempts (${failure.reason}: the machine is short of processes or memory right now), so the command did not run; try again in a moment`;
    case "grant":
      return `the read-only jail cannot open ${failure.resource ?? "a resource"} for this command on ${target} (${failure.reason}), so the command did not run; run it again and the operator is asked to approve it (it then runs unjailed)`;
  }
}

/**
 * The jail of a target in a person's words (`!entity`, `oikos check`): whether it can jail, and
 * when it cannot, what that means and the operator's choice.
 */
export function jailStatusLine(
  slug: string,
  attributes: Record<string, unknown>,
  now: Date,
  routingCommand: "!oikos routing" | "oikos routing" = "!oikos routing",
): string {
  const mode = attributes[JAIL_MODE_ATTRIBUTE];
  if (mode === "off") return "Read-only jail: off for this target (read-only commands run uncontained)";
  const availability = jailAvailabilityOf(attributes, now);
  const grants = Object.entries(grantsUnavailableOf(attributes)).map(
    ([resource, why]) => `${resource} (${why})`,
  );
  const cannotGrant = grants.length > 0 ? `; cannot open ${grants.join(", ")} here` : "";
  const engine = attributes[JAIL_ENGINE_ATTRIBUTE];
  const by = typeof engine === "string" && engine !== "" ? ` (engine ${engine})` : "";
  if (availability.state === "available") return `Read-only jail: works here${by}${cannotGrant}`;
  if (availability.state === "unknown")
    return `Read-only jail: not checked yet (the next read-only command tries it)${cannotGrant}`;
  if (unjailedAllowedOf(attributes) && mode !== "required")
    return `Read-only jail: cannot run here (${availability.reason}); the operator allowed read-only commands unjailed (revoke: \`${routingCommand} ${slug} ${JAIL_UNJAILED_ATTRIBUTE}=\`)`;
  return `Read-only jail: cannot run here (${availability.reason}); read-only commands ask for approval — to let them run unjailed: \`${routingCommand} ${slug} ${JAIL_UNJAILED_ATTRIBUTE}=${JAIL_UNJAILED_ALLOWED}\``;
}
