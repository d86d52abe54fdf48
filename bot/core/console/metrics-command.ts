import type { Db } from "../../../store/db.ts";
import {
  type ApprovalFigureSubject,
  type QualityFigures,
  qualityFigures,
} from "../../../store/quality-figures.ts";
import { type BotCommand, defineCommand } from "../bot-commands.ts";
import { choice } from "../command-args.ts";

const FINISHED = new Set(["completed", "failed", "timed_out", "interrupted"]);
/** One line per kind of decision: plans apart from the commands and routing changes they lead to. */
const APPROVAL_LINES: readonly (readonly [string, readonly ApprovalFigureSubject[]])[] = [
  ["plan approvals", ["plan"]],
  ["approvals", ["execution", "routing"]],
];

/** `!metrics [7|30]`: the quality figures of the last 7 or 30 days, as text. */
export function metricsCommand(db: Db, clock: () => Date = () => new Date()): BotCommand {
  return defineCommand({
    name: "metrics",
    args: { days: choice(["7", "30"], "the last 7 or 30 days (default 7)", "7") },
    summary:
      "quality: tasks by outcome, plan adherence, execution success, approval latency, refusals, tokens",
    details: "The same figures Prometheus scrapes from /metrics (docs/metrics.md), for a window.",
    permission: "operator",
    examples: ["!metrics", "!metrics 30"],
    async run(_ctx, { days }) {
      const since = new Date(clock().getTime() - Number(days) * 86_400_000);
      return metricsText(await qualityFigures(db, since), days);
    },
  });
}

export function metricsText(f: QualityFigures, days: string): string {
  const out = [`Quality, last ${days} days:`];
  const tasks = f.tasksByOutcome.reduce((n, t) => n + t.count, 0);
  out.push(
    tasks === 0
      ? "  tasks closed: none"
      : `  tasks closed: ${tasks} (${f.tasksByOutcome.map((t) => `${t.outcome} ${t.count}`).join(", ")})`,
  );
  if (f.planAdherence.length > 0) {
    const mean = f.planAdherence.reduce((a, b) => a + b, 0) / f.planAdherence.length;
    const followed = f.planAdherence.filter((a) => a >= 1).length;
    out.push(
      `  plan adherence: ${percent(mean)} of steps done on average; ${followed}/${f.planAdherence.length} plans followed in full`,
    );
  } else out.push("  plan adherence: no closed task with a plan");
  const finished = f.executions.filter((e) => FINISHED.has(e.status));
  const total = finished.reduce((n, e) => n + e.count, 0);
  const ok = finished.filter((e) => e.status === "completed").reduce((n, e) => n + e.count, 0);
  const byRisk = new Map<string, number>();
  for (const e of f.executions) byRisk.set(e.risk, (byRisk.get(e.risk) ?? 0) + e.count);
  out.push(
    total === 0
      ? "  executions: none finished"
      : `  executions: ${ok}/${total} succeeded (${percent(ok / total)}); by risk: ${[...byRisk].map(([r, n]) => `${r} ${n}`).join(", ")}`,
  );
  for (const [label, subjects] of APPROVAL_LINES) {
    const asked = f.approvals.filter((a) => subjects.includes(a.subject));
    const decided = f.approvalLatency
      .filter((a) => subjects.includes(a.subject))
      .map((a) => a.seconds)
      .sort((a, b) => a - b);
    const counts = asked.map((a) => `${a.outcome} ${a.count}`).join(", ");
    out.push(
      counts
        ? `  ${label}: ${counts}${decided.length > 0 ? `; median wait ${duration(decided[Math.floor(decided.length / 2)]!)}` : ""}`
        : `  ${label}: none`,
    );
  }
  const refusals = [...f.refusals].sort((a, b) => b.count - a.count);
  out.push(
    refusals.length > 0
      ? `  gate refusals: ${refusals.reduce((n, r) => n + r.count, 0)} (${refusals
          .slice(0, 6)
          .map((r) => `${r.code} ${r.count}`)
          .join(", ")})`
      : "  gate refusals: none",
  );
  const calls = f.tokens.reduce((n, t) => n + t.calls, 0);
  const tokens = f.tokens.reduce((n, t) => n + t.prompt + t.completion, 0);
  out.push(
    calls > 0 ? `  model: ${calls} calls, ${tokens.toLocaleString("en")} tokens` : "  model: no calls",
  );
  return out.join("\n");
}

function percent(ratio: number): string {
  return `${Math.round(ratio * 100)}%`;
}

function duration(seconds: number): string {
  return seconds < 90 ? `${Math.round(seconds)} s` : `${Math.round(seconds / 60)} min`;
}
