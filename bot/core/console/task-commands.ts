import type { Db } from "../../../store/db.ts";
import {
  findTask,
  listTasks,
  TASK_FILTERS,
  type TaskLine,
  type TaskScope,
  type WaitingFor,
} from "../../../store/task-views.ts";
import { type BotCommand, type CommandContext, defineCommand } from "../bot-commands.ts";
import { choice, word } from "../command-args.ts";
import { riskBadge, stepIcon } from "../risk-badge.ts";
import { ago, short, when } from "./ago.ts";

/** People named only for a room see that room's tasks; fleet-wide people every room's. */
export function scopeOf(ctx: CommandContext): TaskScope {
  return ctx.fleetWide ? {} : { room: { platform: ctx.platform, room: ctx.room } };
}

/** `!tasks [open|waiting|stuck|partial|today|all]`: one line per task, without the model. */
export function tasksCommand(db: Db, clock: () => Date = () => new Date()): BotCommand {
  return defineCommand({
    name: "tasks",
    args: { filter: choice(TASK_FILTERS, "which tasks (default open)", "open") },
    summary: "list tasks: open, waiting for you, stuck, closed as partial, today's, all",
    details:
      "open: not closed; waiting: an approval, a plan or an answer waits for an operator; stuck: open, " +
      "nothing waits for an operator and nothing happened for 30 minutes; partial: closed as partial; " +
      "today: started or active in the last 24 hours. `!task <id>` shows one.",
    permission: "operator",
    examples: ["!tasks", "!tasks waiting", "!tasks stuck"],
    async run(ctx, { filter }) {
      const now = clock();
      const tasks = await listTasks(db, filter, scopeOf(ctx), now);
      if (tasks.length === 0)
        return `No ${filter === "all" ? "" : `${filter} `}tasks${ctx.fleetWide ? "" : " in this room"}.`;
      return [
        `Tasks (${filter}, ${tasks.length}${tasks.length >= 30 ? ", most recent first" : ""}):`,
        ...tasks.map((t) => taskLine(ctx, t, now)),
      ].join("\n");
    },
  });
}

function taskLine(ctx: CommandContext, t: TaskLine, now: Date): string {
  const where = ctx.threadLink(t.platform, t.room, t.thread) ?? `${t.platform}:${t.room} thread ${t.thread}`;
  const state = t.outcome ? `${t.status} (${t.outcome})` : t.status;
  const waits = t.waitingFor ? `, ${waitingText(t.waitingFor)} since ${when(t.waitingFor.since, now)}` : "";
  const quiet = t.waitingFor ? "" : `, last activity ${ago(t.lastActivityAt, now)}`;
  return `  ${t.id.slice(0, 8)}  “${short(t.goal ?? "(no goal yet)", 60)}” — ${state}${waits}${quiet} · ${where}`;
}

function waitingText(w: WaitingFor): string {
  switch (w.kind) {
    case "approval":
      return `waiting for approval ${w.approvalId}`;
    case "plan_approval":
      return `waiting for approval of plan ${w.generation}`;
    case "answer":
      return "waiting for an answer";
  }
}

/** `!task <id>`: goal, plan with step statuses, executions, approvals, outcome. */
export function taskCommand(db: Db, clock: () => Date = () => new Date()): BotCommand {
  return defineCommand({
    name: "task",
    args: { id: word("id", "the task id, or its first characters as `!tasks` shows them") },
    summary: "one task: goal, plan and step statuses, executions, approvals, outcome",
    permission: "operator",
    examples: ["!task 3f2a9c1e"],
    async run(ctx, { id }) {
      const now = clock();
      const found = await findTask(db, id, scopeOf(ctx));
      if (!found.found) {
        return found.ambiguous.length > 1
          ? `\`${id}\` matches ${found.ambiguous.length} tasks (${found.ambiguous.map((a) => a.slice(0, 12)).join(", ")}); give more characters.`
          : `There is no task \`${id}\`${ctx.fleetWide ? "" : " in this room"}. \`!tasks all\` lists them.`;
      }
      const { line, plan, executions, approvals, summary, createdBy } = found.task;
      const out = [
        taskLine(ctx, line, now).trim(),
        `  id ${line.id}, started by ${createdBy} ${when(line.createdAt, now)}`,
      ];
      out.push(`Goal: ${line.goal ?? "(not set yet)"}`);
      if (plan) {
        out.push(`Plan ${plan.generation} (${plan.status}):`);
        for (const step of plan.steps) {
          const target = step.target ? ` on \`${step.target}\`` : "";
          const reason = step.replaced_reason ? ` (${step.replaced_reason})` : "";
          out.push(
            `  ${stepIcon(step.status)} ${step.seq}. ${short(step.title, 80)}${target} — ${step.status}${reason}`,
          );
        }
      } else out.push("Plan: none yet.");
      if (executions.length > 0) {
        out.push(`Executions (${executions.length}):`);
        for (const e of executions) {
          const exit = e.exit_code !== null ? `, exit ${e.exit_code}` : "";
          out.push(
            `  ${e.id} \`${short(e.command, 60)}\` on \`${e.target}\` ${riskBadge(e.risk)} — ${e.status}${exit}, ${ago(e.created_at, now)}`,
          );
        }
      }
      if (approvals.length > 0) {
        out.push(`Approvals (${approvals.length}):`);
        for (const a of approvals) {
          const by = a.decided_by ? ` by ${a.decided_by}${a.channel ? ` via ${a.channel}` : ""}` : "";
          out.push(
            `  ${a.id} for ${a.execution_id ?? "-"} — ${a.status}${by}, asked ${ago(a.created_at, now)}`,
          );
        }
      }
      if (line.outcome) out.push(`Outcome: ${line.outcome}${summary ? ` — ${short(summary, 300)}` : ""}`);
      return out.join("\n");
    },
  });
}
