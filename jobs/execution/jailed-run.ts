import {
  JAIL_TRANSIENT_BACKOFF_MS,
  type JailAvailability,
  type JailPlan,
  jailFailureReason,
  jailFailureRetries,
} from "../../policy/jail.ts";
import type { JailGrant, JailResource } from "../../policy/jail-grant.ts";
import { type HiddenResource, hiddenByJail } from "../../policy/jail-hidden.ts";
import type { ExecOptions, ExecResult } from "../ssh/exec-result.ts";
import { jailRefusalNote } from "../ssh/jail-refusal.ts";
import type { JailEngine } from "../ssh/jail-script.ts";
import type { Target } from "../ssh/target.ts";

/** What runs a command (the worker's CommandRunner; jobs/ssh TransportRouter satisfies it). */
interface Runner {
  exec(target: Target, command: string, options?: ExecOptions): Promise<ExecResult>;
}

/** A run under its jail plan: what ran, whether it was jailed and why not, and what it taught about the target. */
export interface JailedRun {
  result: ExecResult;
  /** null: the run ended (timeout, cancel) before the jail reported either way. */
  jailed: boolean | null;
  /** Why it did not run jailed; or, jailed, what the jail refused or hid. */
  note: string | null;
  /** The status reason when the jail is why the command did not run (it then fails). */
  reason: string | null;
  /** Whether the target can jail, learned by this run (record it on the entity when it changed). */
  detected: Exclude<JailAvailability, { state: "unknown" }> | null;
  /** A grant this target cannot make, learned by this run. */
  grantUnavailable: { resource: JailResource; reason: string } | null;
  /** The engine that held it (jailed runs). */
  engine: JailEngine | null;
  /** What the jail hid from the command that it seems to have needed (jailed runs). */
  hidden: HiddenResource[];
  /** Jailed attempts made (transient failures are tried again). */
  attempts: number;
}

const pause = (ms: number, signal: AbortSignal | undefined): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

/**
 * Runs `command` as its execution's jail plan says (policy/jail.ts). `require` (and the old
 * `prefer`): in the jail with exactly `grants`, or not at all — a transient failure (a fork, memory,
 * a namespace slot) is tried again, never recorded against the target; a target that cannot jail is
 * learned (detected) and the command does not run; nor does it when a grant cannot be made there.
 * `off`: unjailed, as the plan's note says why.
 */
export async function runUnderJailPlan(
  runner: Runner,
  target: Target,
  command: string,
  options: ExecOptions,
  plan: JailPlan,
  planNote: string | null,
  grants: readonly JailGrant[] = [],
): Promise<JailedRun> {
  const none = { detected: null, grantUnavailable: null, engine: null, hidden: [] };
  if (plan === "off") {
    const result = await runner.exec(target, command, { ...options, jail: false });
    return { result, jailed: false, note: planNote, reason: null, ...none, attempts: 0 };
  }
  for (let attempt = 1; ; attempt++) {
    const result = await runner.exec(target, command, { ...options, jail: true, jailGrants: grants });
    const jail = result.jail;
    if (jail === undefined)
      return { result, jailed: null, note: null, reason: null, ...none, attempts: attempt };
    if (jail.state === "jailed") {
      const hidden = hiddenByJail({ result, grants, net: jail.facts.net, command });
      const notes = [jailRefusalNote(result), hidden.note].filter((note): note is string => note !== null);
      const note = notes.length === 0 ? null : notes.join("; ");
      return {
        result,
        jailed: true,
        note,
        reason: jailRefusalNote(result),
        detected: { state: "available" },
        grantUnavailable: null,
        engine: jail.facts.engine,
        hidden: hidden.hidden,
        attempts: attempt,
      };
    }
    if (jailFailureRetries(jail.kind, attempt) && !options.signal?.aborted) {
      await pause(JAIL_TRANSIENT_BACKOFF_MS[attempt - 1] ?? 1_000, options.signal);
      if (!options.signal?.aborted) continue;
    }
    const reason = jailFailureReason(target.slug, jail);
    return {
      result,
      jailed: false,
      note: reason,
      reason,
      detected: jail.kind === "unavailable" ? { state: "unavailable", reason: jail.reason } : null,
      grantUnavailable:
        jail.kind === "grant" && jail.resource !== undefined
          ? { resource: jail.resource, reason: jail.reason }
          : null,
      engine: null,
      hidden: [],
      attempts: attempt,
    };
  }
}
