import type { QueuePort } from "../../jobs/queue/port.ts";
import { listPendingApprovals } from "../../store/approvals.ts";
import { cancelPendingExecution } from "../../store/consent.ts";
import type { Db } from "../../store/db.ts";
import { executionWithRoom, requestCancel } from "../../store/executions.ts";
import { type BotCommand, defineCommand } from "./bot-commands.ts";
import { choice, optionalWord } from "./command-args.ts";

// People named only for a room (`chat.rooms`) see and cancel only that room's work; fleet-wide
// people (the global operator/admin lists) every room's (CommandContext.fleetWide).

const SWEEP_KINDS = ["all", "stale", "approvals", "reminders", "idle"] as const;

/** `!oikos sweep [all|stale|approvals|idle]`: queues the sweep job (admin only). */
export function sweepCommand(queue: QueuePort): BotCommand {
  return defineCommand({
    name: "sweep",
    args: { kind: choice(SWEEP_KINDS, "which sweep (default all)", "all") },
    summary: "clean up stale executions, orphaned approvals, idle sessions",
    permission: "admin",
    async run(_ctx, { kind }) {
      const jobId = await queue.enqueue("sweep", { kind }, { jobId: `sweep:${kind}:manual` });
      return `Sweep \`${kind}\` queued (job ${jobId}); its results go to the log and the audit trail.`;
    },
  });
}

/** `!oikos approvals`: pending approvals, oldest first: every room's for fleet-wide people, else this room's. */
export function approvalsCommand(db: Db): BotCommand {
  return defineCommand({
    name: "approvals",
    args: {},
    summary: "list pending approvals",
    permission: "operator",
    async run(ctx) {
      const rows = await listPendingApprovals(
        db,
        ctx.fleetWide ? undefined : { platform: ctx.platform, room: ctx.room },
      );
      if (rows.length === 0) return "No pending approvals.";
      const lines = rows.map((r) => {
        const what = r.command ? `\`${r.command}\` on \`${r.target ?? "?"}\`` : r.subject;
        const expires = new Date(r.expires_at).toISOString().slice(11, 16);
        return `  ${r.id}  ${what}  [${r.risk ?? "?"}]  execution ${r.execution_id ?? "-"}, expires ${expires} UTC`;
      });
      return [`Pending approvals (${rows.length}):`, ...lines].join("\n");
    },
  });
}

/**
 * `!oikos cancel <execution>`: cancels a waiting execution, or asks a running one to stop. A
 * room admin can cancel only what that room's sessions started.
 */
export function cancelCommand(db: Db): BotCommand {
  return defineCommand({
    name: "cancel",
    args: { execution: optionalWord("execution", "the execution id (see `!approvals` or `!task <id>`)") },
    summary: "cancel an execution that is waiting or running",
    permission: "admin",
    async run(ctx, { execution: id }) {
      if (!id) return "Usage: `!oikos cancel <execution id>` (see `!oikos approvals`).";
      const execution = await executionWithRoom(db, id);
      const inThisRoom = execution?.platform === ctx.platform && execution?.room === ctx.room;
      if (!execution || (!ctx.fleetWide && !inThisRoom))
        return `There is no execution \`${id}\` in this room.`;
      if (await cancelPendingExecution(db, id, ctx.user))
        return `Execution \`${id}\` cancelled (it had not started).`;
      if (await requestCancel(db, id, ctx.user))
        return `Execution \`${id}\` is running; asked its worker to stop it.`;
      return `Execution \`${id}\` is ${execution.status}; nothing to cancel.`;
    },
  });
}
