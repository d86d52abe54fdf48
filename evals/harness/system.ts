import { randomBytes } from "node:crypto";
import { pino } from "pino";
import { type Composition, compose } from "../../app/compose.ts";
import { type Config, ConfigSchema } from "../../app/config.ts";
import type { Runtime } from "../../app/runtime.ts";
import { silentLogger } from "../../base/logger.ts";
import { createEventBus } from "../../jobs/events/create.ts";
import { createQueue } from "../../jobs/queue/create.ts";
import type { QueuePort } from "../../jobs/queue/port.ts";
import { KyselyJobJournal } from "../../store/queue-journal.ts";
import { MatrixDouble } from "../../test-support/matrix-double/matrix-double.ts";
import { deleteRedisKeys } from "../../test-support/redis.ts";
import { createTestStore, type TestStore } from "../../test-support/store.ts";
import { type ConfigOverrides, deepMerge } from "./config-step.ts";

export const BOT = "@oikos:double.test";
export const OPERATOR = "@alice:double.test";
export const SECOND_OPERATOR = "@bob:double.test";
/** In the room, but not an operator: everything they do must be ignored. */
export const STRANGER = "@mallory:double.test";

export interface SystemOptions {
  modelUrl: string;
  modelName?: string;
  modelApiKey?: string;
  executionWaitMs: number;
  sshUser: string;
  sshKeyPath: string;
  /** The scenario's `config:` block, laid over the harness's configuration. */
  config?: ConfigOverrides;
}

/**
 * oikos as `oikos start` composes it (app/compose.ts capabilities), on a database of its own, the
 * in-process queue (BullMQ with a per-run prefix when REDIS_URL is set) and the Matrix
 * homeserver double as the chat platform. `restart()` stops every process-level part (queue,
 * workers, chat adapter, SSH pool) without grace and starts them again on the same database: a
 * killed worker, as the next process sees it.
 */
export class EvalSystem {
  readonly store: TestStore;
  readonly double: MatrixDouble;
  readonly room: string;
  readonly config: Config;
  readonly #redisPrefix: string | undefined;
  #runtime: Runtime | undefined;
  #composition: Composition | undefined;

  private constructor(
    store: TestStore,
    double: MatrixDouble,
    room: string,
    config: Config,
    redisPrefix?: string,
  ) {
    this.store = store;
    this.double = double;
    this.room = room;
    this.config = config;
    this.#redisPrefix = redisPrefix;
  }

  static async start(options: SystemOptions): Promise<EvalSystem> {
    const store = await createTestStore();
    const double = await MatrixDouble.start();
    const botToken = double.registerUser(BOT);
    double.registerUser(OPERATOR);
    double.registerUser(SECOND_OPERATOR);
    double.registerUser(STRANGER);
    const room = double.createRoom({ creator: OPERATOR, members: [SECOND_OPERATOR, STRANGER] });
    double.invite(room, OPERATOR, BOT);
    const redisUrl = process.env.REDIS_URL || undefined;
    const prefix = redisUrl ? `oikos_eval_${randomBytes(4).toString("hex")}` : undefined;
    const base = {
      dataDir: "/nonexistent-eval-data",
      redis: { url: redisUrl, ...(prefix ? { prefix } : {}) },
      http: { enabled: false },
      model: {
        baseUrl: options.modelUrl,
        apiKey: options.modelApiKey ?? "eval",
        name: options.modelName ?? "scripted",
        timeoutMs: 120_000,
      },
      log: { level: "silent" },
      ssh: { privateKeyPath: options.sshKeyPath, user: options.sshUser, connectTimeoutMs: 5_000 },
      // The lab's fake tools live and log under its state dir in /tmp, which a jailed command can
      // neither see nor write: scenarios about the read-only jail set execution.readOnlyJail.
      execution: { waitMs: options.executionWaitMs, timeoutMs: 120_000, readOnlyJail: "off" },
      chat: {
        operators: [OPERATOR, SECOND_OPERATOR],
        admins: [OPERATOR],
        matrix: { homeserverUrl: double.url, accessToken: botToken, rooms: [room] },
      },
    };
    const config = ConfigSchema.parse(deepMerge(base, options.config ?? {}));
    const system = new EvalSystem(store, double, room, config, prefix);
    await system.#boot();
    return system;
  }

  /** The running composition (its metrics registry, commands, routes). */
  get composition(): Composition {
    if (!this.#composition) throw new Error("eval system is not running");
    return this.#composition;
  }

  get runtime(): Runtime {
    if (!this.#runtime) throw new Error("eval system is not running");
    return this.#runtime;
  }

  async #boot(): Promise<void> {
    const logger = process.env.OIKOS_EVAL_LOG
      ? pino({ level: process.env.OIKOS_EVAL_LOG }, pino.destination(2))
      : silentLogger();
    const registered = new Set<string>();
    const queue = recordRegistrations(
      await createQueue({
        redisUrl: this.config.redis.url,
        prefix: this.config.redis.prefix,
        journal: new KyselyJobJournal(this.store.db),
        onError: (error, job) => logger.error({ err: error, job }, "eval: job failed"),
      }),
      registered,
    );
    const events = await createEventBus({
      redisUrl: this.config.redis.url,
      prefix: this.config.redis.prefix,
      onError: (error, event) =>
        logger.error({ err: error, event: event?.type }, "eval: event handler failed"),
    });
    const runtime: Runtime = {
      config: this.config,
      logger,
      store: this.store,
      db: this.store.db,
      queue,
      events,
      stopping: new AbortController().signal,
      close: async () => {
        await queue.close({ graceMs: 0 });
        await events.close();
      },
    };
    this.#runtime = runtime;
    this.#composition = await compose(runtime, "all");
    for (const queue of ["agent-turn", "continue", "execute"]) {
      if (!registered.has(queue))
        throw new Error(`app/compose.ts registered no ${queue} handler: evals need the whole app`);
    }
    await queue.start();
    await this.#composition.started();
  }

  /** Everything but the database and the chat platform goes down at once, then comes back. */
  async restart(): Promise<void> {
    await this.#halt();
    await this.#boot();
  }

  async #halt(): Promise<void> {
    // the queue first and without grace: running jobs are cut off as by kill -9
    await this.#runtime?.queue.close({ graceMs: 0 });
    await this.#composition?.stop();
    await this.#runtime?.events.close();
    this.#composition = undefined;
    this.#runtime = undefined;
  }

  async stop(): Promise<void> {
    await this.#halt();
    await this.double.close();
    await this.store.dispose();
    if (this.config.redis.url && this.#redisPrefix) {
      await deleteRedisKeys(this.config.redis.url, this.#redisPrefix).catch(() => 0);
    }
  }
}

function recordRegistrations(queue: QueuePort, registered: Set<string>): QueuePort {
  const register = queue.register.bind(queue);
  queue.register = ((name, handler, options) => {
    registered.add(name);
    register(name, handler, options);
  }) as QueuePort["register"];
  return queue;
}
