import type { QueuePort } from "../../jobs/queue/port.ts";
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

export { approvalsCommand, grantsCommand } from "./approvals-commands.ts";

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
