import type { Logger } from "../../base/logger.ts";
import { nextCronFire } from "../../jobs/queue/cron.ts";
import type { QueuePort } from "../../jobs/queue/port.ts";
import { recordAudit } from "../../store/audit.ts";
import type { Db } from "../../store/db.ts";
import {
  isSchedulePaused,
  lastScheduleRuns,
  scheduleStates,
  setSchedulePaused,
} from "../../store/schedules.ts";
import { platformOf, type ScheduleConfig } from "../config.ts";

/** A schedule as `!oikos schedules` shows it. */
export interface ScheduleView {
  name: string;
  cron: string;
  tz: string;
  platform: string;
  room: string;
  paused: { by: string | null; at: Date } | null;
  next: Date | null;
  last: { at: Date; outcome: string } | null;
}

export type ScheduleChange = "changed" | "unchanged" | "unknown";

export function scheduleKey(name: string): string {
  return `schedule:${name}`;
}

/**
 * The configured schedules as repeatable jobs on the queue port: registered at start (paused ones
 * left out, removed ones dropped), listed with their next run, paused and resumed by admins. The
 * pause is stored (schedule_state), so it survives restarts; the fire handler checks it too.
 */
export class ScheduleBook {
  readonly #db: Db;
  readonly #queue: QueuePort;
  readonly #schedules: readonly ScheduleConfig[];
  readonly #logger: Logger;

  constructor(deps: {
    db: Db;
    queue: QueuePort;
    schedules: readonly ScheduleConfig[];
    logger: Logger;
  }) {
    this.#db = deps.db;
    this.#queue = deps.queue;
    this.#schedules = deps.schedules;
    this.#logger = deps.logger;
  }

  /** Makes the queue's repeats match the config and the stored pauses. */
  async register(): Promise<void> {
    const configured = new Set(this.#schedules.map((s) => scheduleKey(s.name)));
    for (const repeat of await this.#queue.listRepeats()) {
      if (repeat.queue === "schedule" && !configured.has(repeat.key)) {
        await this.#queue.unrepeat(repeat.key);
        this.#logger.info({ key: repeat.key }, "schedule no longer configured; removed");
      }
    }
    for (const schedule of this.#schedules) {
      if (await isSchedulePaused(this.#db, schedule.name))
        await this.#queue.unrepeat(scheduleKey(schedule.name));
      else await this.#arm(schedule);
    }
  }

  async list(): Promise<ScheduleView[]> {
    const states = new Map((await scheduleStates(this.#db)).map((s) => [s.name, s]));
    const runs = await lastScheduleRuns(this.#db);
    const repeats = new Map((await this.#queue.listRepeats()).map((r) => [r.key, r]));
    return this.#schedules.map((schedule) => {
      const state = states.get(schedule.name);
      const paused = state?.paused ? { by: state.changed_by, at: state.changed_at } : null;
      const repeat = repeats.get(scheduleKey(schedule.name));
      const next = paused
        ? null
        : (repeat?.next ?? nextCronFire(schedule.cron, schedule.tz ? { tz: schedule.tz } : {}));
      const run = runs.get(schedule.name);
      return {
        name: schedule.name,
        cron: schedule.cron,
        tz: schedule.tz ?? "UTC",
        platform: platformOf(schedule),
        room: schedule.room,
        paused,
        next,
        last: run ? { at: run.fired_at, outcome: run.outcome } : null,
      };
    });
  }

  async pause(name: string, by: string): Promise<ScheduleChange> {
    const schedule = this.#find(name);
    if (!schedule) return "unknown";
    if (!(await setSchedulePaused(this.#db, name, true, by))) return "unchanged";
    await this.#queue.unrepeat(scheduleKey(name));
    await recordAudit(this.#db, { by }, { action: "schedule.paused", subject: name, details: {} });
    return "changed";
  }

  async resume(name: string, by: string): Promise<ScheduleChange> {
    const schedule = this.#find(name);
    if (!schedule) return "unknown";
    if (!(await setSchedulePaused(this.#db, name, false, by))) return "unchanged";
    await this.#arm(schedule);
    await recordAudit(this.#db, { by }, { action: "schedule.resumed", subject: name, details: {} });
    return "changed";
  }

  #find(name: string): ScheduleConfig | undefined {
    return this.#schedules.find((s) => s.name === name.toLowerCase());
  }

  async #arm(schedule: ScheduleConfig): Promise<void> {
    await this.#queue.repeat(
      "schedule",
      { name: schedule.name },
      { key: scheduleKey(schedule.name), cron: schedule.cron, ...(schedule.tz ? { tz: schedule.tz } : {}) },
    );
  }
}
