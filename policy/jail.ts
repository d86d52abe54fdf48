import type { Risk } from "./risk.ts";

/**
 * The read-only jail as policy sees it (the jail itself: jobs/ssh/jail.bash). Pure: the run service
 * reads the mode from config and the entity, and the availability from the entity, then asks here.
 *
 *  - `auto`: read-only commands that run with nobody asked run jailed where the target can jail,
 *    unjailed where it cannot (the execution says why);
 *  - `required`: where the target cannot jail, a read-only command needs the operator's approval;
 *  - `off`: never jailed.
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
/** A target found unable to jail is tried again after this long (it may have been fixed). */
export const JAIL_RECHECK_MS = 6 * 3_600_000;

export type JailAvailability =
  | { state: "unknown" }
  | { state: "available" }
  | { state: "unavailable"; reason: string };

/** How one execution runs: decided at the gate, stored on the execution, followed by the worker. */
export type JailPlan =
  /** try the jail; if it cannot start, record that and run unjailed (auto) */
  | "prefer"
  /** try the jail; if it cannot start, record that and do not run (required) */
  | "require"
  | "off";

export interface JailFacts {
  mode: JailMode;
  availability: JailAvailability;
}

export function isJailMode(value: unknown): value is JailMode {
  return typeof value === "string" && (JAIL_MODES as readonly string[]).includes(value);
}

/** The entity's own mode when it sets a valid one, else the configured mode. */
export function jailModeOf(configured: JailMode, attributes: Record<string, unknown>): JailMode {
  const own = attributes[JAIL_MODE_ATTRIBUTE];
  return isJailMode(own) ? own : configured;
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

/** `required` and the target is known not to jail: a read-only command may not run with nobody asked. */
export function jailBlocksAutoRun(jail: JailFacts | undefined): jail is JailFacts & {
  availability: { state: "unavailable"; reason: string };
} {
  return jail?.mode === "required" && jail.availability.state === "unavailable";
}

/**
 * The jail plan of an execution and, when it will not be jailed, why (stored with it and shown).
 * `approved`: the operator released this execution, which then runs exactly as approved.
 */
export function jailPlanFor(input: {
  risk: Exclude<Risk, "reject">;
  approved: boolean;
  jail: JailFacts | undefined;
}): { plan: JailPlan; note: string | null } {
  const { jail } = input;
  if (jail === undefined) return { plan: "off", note: "the read-only jail is not configured" };
  if (input.risk !== "read_only") return { plan: "off", note: "approved changes run exactly as approved" };
  if (input.approved) return { plan: "off", note: "approved by the operator: runs exactly as approved" };
  if (jail.mode === "off") return { plan: "off", note: "the read-only jail is off for this target" };
  if (jail.availability.state === "unavailable") {
    return { plan: "off", note: `this target cannot jail: ${jail.availability.reason}` };
  }
  return { plan: jail.mode === "required" ? "require" : "prefer", note: null };
}
