import { randomBytes } from "node:crypto";
import { type Composition, compose } from "../../app/compose.ts";
import { type Config, ConfigSchema } from "../../app/config.ts";
import { type RunningHttpServer, startHttpServer } from "../../app/http-server.ts";
import type { Runtime } from "../../app/runtime.ts";
import { silentLogger } from "../../base/logger.ts";
import { createEventBus } from "../../jobs/events/create.ts";
import { createQueue } from "../../jobs/queue/create.ts";
import { KyselyJobJournal } from "../../store/queue-journal.ts";
import type { DoubleEvent } from "../matrix-double/homeserver-state.ts";
import { MatrixDouble } from "../matrix-double/matrix-double.ts";
import { deleteRedisKeys } from "../redis.ts";
import { createTestStore, type TestStore } from "../store.ts";

export const BOT = "@oikos:double.test";
export const OPERATOR = "@alice:double.test";
export const ONCALL = "@oncall:double.test";

export interface IntakeAppOptions {
  /** oikos.yaml's `alerts` and `schedules` (room "$ROOM" is replaced by the Matrix room id). */
  alerts?: unknown;
  schedules?: unknown[];
  modelUrl: string;
  /** "bullmq" uses REDIS_URL with a prefix of its own. Default in-process. */
  queue?: "in-process" | "bullmq";
  /** A fixed HTTP port (a real Alertmanager must know it before oikos starts); default any free one. */
  httpPort?: number;
}

/**
 * oikos as `oikos start` composes it (every capability of app/compose.ts, the HTTP server with
 * its routes, the Matrix adapter against the homeserver double), on a database of its own.
 * `restart()` stops everything but the database and the homeserver and starts it again: a new
 * process, as the next start sees the state.
 */
export class IntakeApp {
  readonly store: TestStore;
  readonly double: MatrixDouble;
  readonly room: string;
  readonly config: Config;
  readonly #prefix: string | undefined;
  #runtime: Runtime | undefined;
  #composition: Composition | undefined;
  #http: RunningHttpServer | undefined;

  private constructor(store: TestStore, double: MatrixDouble, room: string, config: Config, prefix?: string) {
    this.store = store;
    this.double = double;
    this.room = room;
    this.config = config;
    this.#prefix = prefix;
  }

  static async start(options: IntakeAppOptions): Promise<IntakeApp> {
    const store = await createTestStore();
    const double = await MatrixDouble.start();
    const botToken = double.registerUser(BOT);
    double.registerUser(OPERATOR);
    double.registerUser(ONCALL);
    const room = double.createRoom({ creator: OPERATOR, members: [ONCALL] });
    double.invite(room, OPERATOR, BOT);
    const redisUrl = options.queue === "bullmq" ? process.env.REDIS_URL : undefined;
    if (options.queue === "bullmq" && !redisUrl) throw new Error("the bullmq intake app needs REDIS_URL");
    const prefix = redisUrl ? `oikos_t_intake_${randomBytes(4).toString("hex")}` : undefined;
    const withRoom = (value: unknown) => JSON.parse(JSON.stringify(value ?? {}).replaceAll("$ROOM", room));
    const config = ConfigSchema.parse({
      dataDir: "/nonexistent-intake-data",
      redis: { url: redisUrl, ...(prefix ? { prefix } : {}) },
      http: { enabled: true, host: "127.0.0.1", port: options.httpPort ?? 0 },
      model: { baseUrl: options.modelUrl, apiKey: "test", name: "scripted", timeoutMs: 30_000 },
      log: { level: "silent" },
      execution: { waitMs: 2_000, timeoutMs: 60_000 },
      chat: {
        operators: [OPERATOR, ONCALL],
        admins: [OPERATOR],
        shell: { enabled: false },
        matrix: { homeserverUrl: double.url, accessToken: botToken, rooms: [room] },
      },
      alerts: withRoom(options.alerts),
      schedules: withRoom(options.schedules ?? []),
    });
    const app = new IntakeApp(store, double, room, config, prefix);
    await app.#boot();
    return app;
  }

  get runtime(): Runtime {
    if (!this.#runtime) throw new Error("the intake app is not running");
    return this.#runtime;
  }

  /** Base URL of the HTTP server (`/alerts/<source>` lives under it). */
  get url(): string {
    if (!this.#http) throw new Error("the intake app is not running");
    return this.#http.url;
  }

  async #boot(): Promise<void> {
    const logger = silentLogger();
    const queue = await createQueue({
      redisUrl: this.config.redis.url,
      prefix: this.config.redis.prefix,
      journal: new KyselyJobJournal(this.store.db),
      onError: () => {},
    });
    const events = await createEventBus({
      redisUrl: this.config.redis.url,
      prefix: this.config.redis.prefix,
    });
    const runtime: Runtime = {
      config: this.config,
      logger,
      store: this.store,
      db: this.store.db,
      queue,
      events,
      stopping: new AbortController().signal,
      close: async () => {},
    };
    this.#runtime = runtime;
    this.#composition = await compose(runtime, "all");
    this.#http = await startHttpServer({
      host: this.config.http.host,
      port: this.config.http.port,
      logger,
      metrics: this.#composition.ctx.metrics,
      routes: this.#composition.ctx.httpRoutes,
      health: async () => ({}),
    });
    await queue.start();
  }

  /** POSTs a JSON body to `/alerts/<source>`; returns the status and the parsed answer. */
  async post(
    source: string,
    body: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`${this.url}/alerts/${source}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  }

  /** Every event the bot sent, oldest first. */
  botEvents(): DoubleEvent[] {
    return this.double.sentBy(BOT);
  }

  /** The bot's top-level messages (thread roots and quiet lines). */
  topLevel(): DoubleEvent[] {
    return this.botEvents().filter((e) => e.type === "m.room.message" && !e.content["m.relates_to"]);
  }

  /** The bot's messages in the thread rooted at `root`. */
  inThread(root: string): DoubleEvent[] {
    return this.botEvents().filter(
      (e) =>
        e.type === "m.room.message" &&
        (e.content["m.relates_to"] as { rel_type?: string; event_id?: string } | undefined)?.event_id ===
          root &&
        (e.content["m.relates_to"] as { rel_type?: string }).rel_type === "m.thread",
    );
  }

  async restart(): Promise<void> {
    await this.#halt();
    await this.#boot();
  }

  async #halt(): Promise<void> {
    await this.#http?.close();
    await this.#runtime?.queue.close({ graceMs: 2_000 });
    await this.#composition?.stop();
    await this.#runtime?.events.close();
    this.#http = undefined;
    this.#composition = undefined;
    this.#runtime = undefined;
  }

  async stop(): Promise<void> {
    await this.#halt();
    await this.double.close();
    await this.store.dispose();
    if (this.config.redis.url && this.#prefix)
      await deleteRedisKeys(this.config.redis.url, this.#prefix).catch(() => 0);
  }
}

export function body(event: DoubleEvent): string {
  return String(event.content.body ?? "");
}
