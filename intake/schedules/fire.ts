import type { Logger } from "../../base/logger.ts";
import type { QueuePort } from "../../jobs/queue/port.ts";
import type { Db } from "../../store/db.ts";
import { isSchedulePaused, recordSkippedRun, startScheduledRun } from "../../store/schedules.ts";
import { platformOf, type ScheduleConfig } from "../config.ts";
import { resolveTargets } from "./targets.ts";

export interface FireDeps {
  db: Db;
  queue: QueuePort;
  logger: Logger;
  schedules: readonly ScheduleConfig[];
}

export type FireOutcome = "started" | "skipped_paused" | "skipped_unknown" | "duplicate";

/**
 * One fire of a schedule (the `schedule` job; `fireId` is the job id, `repeat:schedule:<name>:<ms>`):
 * a task in the schedule's room whose goal is its prompt. The fire is claimed in `schedule_runs`
 * first, so a fire delivered twice (a retry, a restart at the wrong moment) starts one task. The
 * session's thread is deferred: the bot posts it only when the run has something to show.
 */
export async function fireSchedule(deps: FireDeps, fireId: string, name: string): Promise<FireOutcome> {
  const schedule = deps.schedules.find((s) => s.name === name);
  if (!schedule) {
    await recordSkippedRun(deps.db, { fireId, schedule: name, outcome: "skipped_unknown" });
    deps.logger.warn(
      { schedule: name, fire: fireId },
      "a fire of a schedule that is no longer configured; skipped",
    );
    return "skipped_unknown";
  }
  if (await isSchedulePaused(deps.db, name)) {
    await recordSkippedRun(deps.db, { fireId, schedule: name, outcome: "skipped_paused" });
    return "skipped_paused";
  }
  const targets = schedule.targets ? await resolveTargets(deps.db, schedule.targets) : null;
  // One transaction: the claim, the session and its first message exist together or not at all.
  const started = await startScheduledRun(deps.db, {
    fireId,
    schedule: name,
    session: {
      platform: platformOf(schedule),
      room: schedule.room,
      thread: `schedule:${fireId}`,
      createdBy: `schedule:${name}`,
      goal: schedule.prompt.slice(0, 500),
    },
    brief: scheduleBrief(schedule, targets),
  });
  if (!started) return "duplicate";
  const { session, message } = started;
  await deps.queue.enqueue("agent-turn", { sessionId: session.id, reason: "message", messageId: message.id });
  deps.logger.info({ schedule: name, fire: fireId, session: session.id }, "schedule fired");
  return "started";
}

function scheduleBrief(schedule: ScheduleConfig, targets: string[] | null): string {
  const lines = [
    `Scheduled check "${schedule.name}" (${schedule.cron}${schedule.tz ? ` ${schedule.tz}` : ""}):`,
    schedule.prompt,
  ];
  if (targets) {
    lines.push(
      targets.length > 0
        ? `Targets (${schedule.targets!.join(", ")}): ${targets.join(", ")}.`
        : `No entity matches the target selector ${schedule.targets!.join(", ")}: report that and complete the task.`,
    );
  }
  lines.push(
    "",
    "Check read-only. If everything is as it should be, complete the task with outcome success and a one-line " +
      "summary: that is all the room sees. If something is wrong, say what you found and propose the fix with " +
      "propose_plan; nothing that changes anything runs before an operator approves it.",
  );
  return lines.join("\n");
}
