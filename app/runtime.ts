import { join } from "node:path";
import type { Logger } from "../base/logger.ts";
import { createEventBus } from "../jobs/events/create.ts";
import type { EventBus } from "../jobs/events/port.ts";
import { createQueue } from "../jobs/queue/create.ts";
import type { QueuePort } from "../jobs/queue/port.ts";
import { openStore, type StoreHandle, type StoreOptions } from "../store/connect.ts";
import type { Db } from "../store/db.ts";
import { migrateToLatest } from "../store/migrate.ts";
import { KyselyJobJournal } from "../store/queue-journal.ts";
import type { Config } from "./config.ts";
import { createLogger } from "./logger.ts";

/** The ports every capability is built from, chosen once from config. */
export interface Runtime {
  config: Config;
  logger: Logger;
  store: StoreHandle;
  db: Db;
  queue: QueuePort;
  events: EventBus;
  /**
   * Aborted the moment this process begins to stop, before anything closes: no new command starts
   * (a turn records its calls not started, the execute worker claims nothing, `run` stops waiting).
   */
  stopping: AbortSignal;
  close(): Promise<void>;
}

/** A runtime its owner (serve) can begin to stop. */
export interface OwnedRuntime extends Runtime {
  beginStop(): void;
}

export interface OpenRuntimeOptions {
  logger?: Logger;
  /** Apply pending migrations (default true). */
  migrate?: boolean;
}

export async function openRuntime(config: Config, options: OpenRuntimeOptions = {}): Promise<OwnedRuntime> {
  const logger = options.logger ?? createLogger(config);
  const where = storeOptions(config);
  const store = await openStore(
    where.kind === "postgres"
      ? {
          ...where,
          onIdleError: (error) =>
            logger.warn(
              { err: { message: error.message } },
              "database connection lost; the next query reconnects",
            ),
        }
      : where,
  );
  try {
    if (options.migrate !== false) {
      const report = await migrateToLatest(store.db);
      if (report.applied.length > 0) logger.info({ applied: report.applied }, "database migrated");
    }
    const queue = await createQueue({
      redisUrl: config.redis.url,
      prefix: config.redis.prefix,
      lockMs: config.redis.lockMs,
      journal: new KyselyJobJournal(store.db),
      logger,
    });
    const events = await createEventBus({
      redisUrl: config.redis.url,
      prefix: config.redis.prefix,
      onError: (error, event) => logger.error({ err: error, event: event?.type }, "event handler failed"),
      logger,
    });
    let closed = false;
    const stopping = new AbortController();
    return {
      config,
      logger,
      store,
      db: store.db,
      queue,
      events,
      stopping: stopping.signal,
      beginStop: () => stopping.abort(new Error("oikos is stopping")),
      async close() {
        if (closed) return;
        closed = true;
        stopping.abort(new Error("oikos is stopping"));
        await queue.close({ graceMs: config.shutdown.graceMs });
        await events.close();
        await store.close();
      },
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}

/** Postgres when DATABASE_URL is set, otherwise embedded PGlite under the data folder. */
export function storeOptions(config: Config): StoreOptions {
  return config.database.url
    ? { kind: "postgres", url: config.database.url }
    : { kind: "pglite", dataDir: join(config.dataDir, "pg") };
}
