import { type RollbackDeps, requestRollback } from "../../jobs/proxmox/rollback.ts";
import { snapshotSubject } from "../../store/execution-snapshot.ts";
import { type BotCommand, defineCommand } from "./bot-commands.ts";
import { word } from "./command-args.ts";

/**
 * `!oikos rollback <execution>`: undo a change on a Proxmox guest by restoring the snapshot taken
 * before it. Rollback is destructive: this only asks — an approval card in the task's thread whose
 * typed phrase names the guest; nothing runs before an operator types it. The ⏪ reaction on the
 * execution's card or the task summary asks the same way.
 */
export function rollbackCommand(deps: RollbackDeps): BotCommand {
  return defineCommand({
    name: "rollback",
    args: { execution: word("execution", "the execution id, e.g. ex-1a2b3c4d5e6f") },
    summary: "roll a Proxmox guest or a host's ZFS datasets back to the snapshot taken before an execution",
    details:
      "Posts an approval in the task's thread: type the phrase it shows (rollback <guest>, or rollback <datasets>) " +
      "to run pct/qm rollback (the guest is started again if it was running) or zfs rollback on the host. Audited.",
    examples: ["!oikos rollback ex-1a2b3c4d5e6f"],
    permission: "operator",
    async run(ctx, { execution }) {
      return rollbackAnswer(await requestRollback(deps, { executionId: execution, by: ctx.user }));
    },
  });
}

export function rollbackAnswer(result: Awaited<ReturnType<typeof requestRollback>>): string {
  if (!result.ok) return `Not rolled back: ${result.reason}.`;
  return `Rollback of \`${snapshotSubject(result.snapshot)}\` to snapshot \`${result.snapshot.name}\` is destructive: reply in the task's thread with exactly \`${result.phrase}\` to run it.`;
}
