import type { Classifier } from "../../policy/classify.ts";
import type { JailFacts } from "../../policy/jail.ts";
import { jailBlockReason, jailPlanFor } from "../../policy/jail.ts";
import type { Probe, ProbeResult } from "../../policy/preview/rule.ts";
import { redact } from "../../policy/redact.ts";
import { quoteSegment } from "../../policy/risk.ts";
import { runUnderJailPlan } from "../execution/jailed-run.ts";
import type { ExecOptions, ExecResult } from "../ssh/exec-result.ts";
import type { Target } from "../ssh/target.ts";

/** What runs a command on a target (jobs/ssh TransportRouter). */
export interface ProbeRunner {
  exec(target: Target, command: string, options?: ExecOptions): Promise<ExecResult>;
}

export interface ProbeLimits {
  timeoutMs: number;
  maxOutputBytes: number;
}

export interface ProbeContext {
  classifier: Pick<Classifier, "classify">;
  runner: ProbeRunner;
  target: Target;
  targetType: string;
  jail: JailFacts | undefined;
  limits: ProbeLimits;
  signal?: AbortSignal;
}

/** Why the probes may not run on this target at all (the jail is required there and cannot start). */
export function probesBlocked(context: Pick<ProbeContext, "jail" | "target">): string | null {
  const why = jailBlockReason(context.jail);
  return why === null
    ? null
    : `${context.target.slug} cannot run the read-only jail (${why}), so nothing runs to preview it`;
}

/** A probe's answer and whether it ran inside the jail (null: it ended before the jail said). */
export type RanProbe = ProbeResult & { jailed: boolean | null };

/**
 * Runs one probe as a read-only run with nobody asked: only if the classifier proves it read-only
 * (again, here: whatever planned it), jailed where the target can jail (the same plan as a read-only
 * auto-run), within the time and output limits. A complete answer, or why there is none.
 * `asRoot`: as the user a plain `sudo` gives (root, through `sudo -n`), and only inside the jail —
 * never unjailed as root, whatever the target's jail mode.
 */
export async function runProbe(
  context: ProbeContext,
  probe: Probe,
  asRoot = false,
): Promise<RanProbe | { failed: string }> {
  const q = quoteSegment(probe.command);
  const verdict = context.classifier.classify(probe.command, context.targetType);
  if (verdict.risk !== "read_only") return { failed: `${q} is not proven read-only, so it was not run` };
  const blocked = probesBlocked(context);
  if (blocked) return { failed: blocked };
  const autoRun = jailPlanFor({
    risk: "read_only",
    approved: false,
    jail: context.jail,
    grants: verdict.grants ?? [],
  });
  if (asRoot && autoRun.plan === "off") {
    return {
      failed: `oikos looks as root (the user sudo gives) only inside the read-only jail, and ${context.target.slug} runs read-only commands unjailed`,
    };
  }
  const plan = asRoot ? { plan: "require" as const, note: null, grants: autoRun.grants } : autoRun;
  const options: ExecOptions = {
    ...context.limits,
    ...(context.signal ? { signal: context.signal } : {}),
    ...(asRoot ? { sudo: true } : {}),
  };
  let run: Awaited<ReturnType<typeof runUnderJailPlan>>;
  try {
    run = await runUnderJailPlan(
      context.runner,
      context.target,
      probe.command,
      options,
      plan.plan,
      plan.note,
      plan.grants,
    );
  } catch (error) {
    return { failed: `${q} could not run: ${redact((error as Error).message)}` };
  }
  const { result } = run;
  if (run.reason) {
    return {
      failed: asRoot
        ? `oikos could not look as root (sudo -n, inside the read-only jail): ${redact(run.reason)}`
        : redact(run.reason),
    };
  }
  if (result.timedOut)
    return { failed: `${q} did not finish within ${Math.round(context.limits.timeoutMs / 1000)} s` };
  if (result.cancelled) return { failed: `${q} was cancelled` };
  if (result.truncated) return { failed: `${q} printed more than ${context.limits.maxOutputBytes} bytes` };
  if (result.stdoutBinary) return { failed: `${q} printed binary data` };
  const code = result.exitCode;
  const accepted =
    code !== null &&
    (probe.accepts === "any" || code === 0 || (probe.accepts === "zero_or_one" && code === 1));
  if (!accepted) {
    const why = result.stderr.trim().split("\n").slice(-1)[0] || `exit ${code ?? result.signal ?? "unknown"}`;
    return { failed: `${q} failed: ${redact(why).slice(0, 300)}` };
  }
  return { exitCode: code as number, stdout: result.stdout, stderr: result.stderr, jailed: run.jailed };
}
