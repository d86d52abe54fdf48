import type { Capability } from "../app/compose-context.ts";
import type { Runtime } from "../app/runtime.ts";
import { ConfigError } from "../base/errors.ts";
import { runsWorkers } from "../base/process-role.ts";
import { scheduleCommands } from "../bot/core/schedule-commands.ts";
import { QueueClosedError } from "../jobs/queue/errors.ts";
import { pruneAlertDeliveries } from "../store/alert-groups.ts";
import { dispatchInvestigations } from "./alerts/dispatch.ts";
import { ALERTS_PATH, alertReceiver } from "./alerts/receiver.ts";
import { ScheduleBook } from "./schedules/control.ts";
import { fireSchedule } from "./schedules/fire.ts";

/** Waiting alert investigations are looked at this often even when no event says a slot freed. */
const DISPATCH_EVERY_MS = 60_000;
/** Stored webhook requests are kept this long (groups and alerts stay). */
const KEEP_DELIVERIES_MS = 90 * 24 * 3_600_000;
const PRUNE_EVERY_MS = 3_600_000;

/**
 * Work that arrives without anyone typing: alert webhooks on `/alerts/<source>` of the HTTP
 * server, the dispatcher that starts alert investigations up to alerts.maxConcurrent, and the
 * configured schedules as cron repeats on the queue port with `!oikos schedules`.
 */
export const intakeCapability: Capability = {
  name: "intake",
  async start(runtime, ctx) {
    const { config, db, queue, events, logger } = runtime;
    const book = new ScheduleBook({ db, queue, schedules: config.schedules, logger });
    for (const command of scheduleCommands(book)) ctx.commands.add(command);
    if (ctx.role === "mcp") return undefined;
    const sources = Object.keys(config.alerts.sources);
    if (sources.length > 0) {
      if (!config.http.enabled && ctx.role === "all") {
        throw new ConfigError(
          `alerts.sources (${sources.join(", ")}) need the HTTP server: set OIKOS_HTTP_PORT (http.port in oikos.yaml).`,
        );
      }
      ctx.httpRoutes[ALERTS_PATH] = alertReceiver({ db, queue, config: config.alerts, logger });
    }
    if (!runsWorkers(ctx.role, queue.kind)) return undefined;
    registerDispatch(runtime);
    // An investigation frees its slot when it reports (a plan, a question) or closes.
    const dispatchSoon = async () => {
      await queue.enqueue("alert-dispatch", {}, { jobId: "alert-dispatch" }).catch((error: unknown) => {
        if (!(error instanceof QueueClosedError)) throw error;
      });
    };
    const unsubscribe = [
      events.subscribe("plan.proposed", dispatchSoon),
      events.subscribe("question.raised", dispatchSoon),
      events.subscribe("task.completed", dispatchSoon),
    ];
    await queue.repeat("alert-dispatch", {}, { key: "alert-dispatch", everyMs: DISPATCH_EVERY_MS });
    queue.register("schedule", async (job) => {
      await fireSchedule({ db, queue, logger, schedules: config.schedules }, job.id, job.data.name);
    });
    await book.register();
    return {
      async stop() {
        for (const off of unsubscribe) off();
      },
    };
  },
};

function registerDispatch(runtime: Runtime): void {
  const { db, queue, logger, store, config } = runtime;
  let prunedAt = 0;
  queue.register("alert-dispatch", async () => {
    const report = await dispatchInvestigations(
      { db, queue, dialect: store.dialect },
      config.alerts.maxConcurrent,
    );
    if (report.started.length > 0 || report.skipped > 0)
      logger.info(report, "alert investigations dispatched");
    if (Date.now() - prunedAt > PRUNE_EVERY_MS) {
      prunedAt = Date.now();
      const pruned = await pruneAlertDeliveries(db, new Date(Date.now() - KEEP_DELIVERIES_MS));
      if (pruned > 0) logger.info({ pruned }, "old alert webhook requests pruned");
    }
  });
}
