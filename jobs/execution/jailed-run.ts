import type { JailAvailability, JailPlan } from "../../policy/jail.ts";
import type { ExecOptions, ExecResult } from "../ssh/exec-result.ts";
import { jailRefusalNote } from "../ssh/jail-refusal.ts";
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
  /** Why it did not run jailed; or, jailed, what the jail refused. */
  note: string | null;
  /** The status reason when the jail is why the command failed or did not run. */
  reason: string | null;
  /** Whether the target can jail, learned by this run (record it on the entity when it changed). */
  detected: Exclude<JailAvailability, { state: "unknown" }> | null;
}

/**
 * Runs `command` as its execution's jail plan says (policy/jail.ts). Every jailed attempt is also
 * the target's detection: the jail started (available) or said why it could not (unavailable).
 * `prefer` then runs the command unjailed; `require` does not run it at all.
 */
export async function runUnderJailPlan(
  runner: Runner,
  target: Target,
  command: string,
  options: ExecOptions,
  plan: JailPlan,
  planNote: string | null,
): Promise<JailedRun> {
  if (plan === "off") {
    const result = await runner.exec(target, command, { ...options, jail: false });
    return { result, jailed: false, note: planNote, reason: null, detected: null };
  }
  const result = await runner.exec(target, command, { ...options, jail: true });
  const jail = result.jail;
  if (jail === undefined) return { result, jailed: null, note: null, reason: null, detected: null };
  if (jail.state === "jailed") {
    const refused = jailRefusalNote(result);
    return { result, jailed: true, note: refused, reason: refused, detected: { state: "available" } };
  }
  const detected = { state: "unavailable", reason: jail.reason } as const;
  const cannot = `the read-only jail could not start on ${target.slug}: ${jail.reason}`;
  if (plan === "require") {
    return {
      result,
      jailed: false,
      note: cannot,
      reason: `${cannot}. execution.readOnlyJail is required there, so the command did not run; run it again and the operator is asked to approve it unjailed`,
      detected,
    };
  }
  if (options.signal?.aborted) return { result, jailed: false, note: cannot, reason: null, detected };
  const unjailed = await runner.exec(target, command, { ...options, jail: false });
  return {
    result: unjailed,
    jailed: false,
    note: `${cannot}; ran unjailed (execution.readOnlyJail is auto)`,
    reason: null,
    detected,
  };
}
