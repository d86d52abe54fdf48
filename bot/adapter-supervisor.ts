import type { Logger } from "../base/logger.ts";
import { backoffDelay } from "../jobs/retry.ts";
import type { AdapterStatus, AdapterStatusBoard, StartFailure } from "./adapter-status.ts";
import type { ChatAdapter, InboundSink } from "./core/chat-adapter.ts";

/** How one platform's adapter is built, started and, when that fails, understood. */
export interface AdapterLauncher {
  platform: string;
  /** Builds a fresh adapter (a password login happens here); the supervisor starts it. */
  create(): Promise<ChatAdapter>;
  /** What a failed launch means for the operator. */
  diagnose(error: unknown): StartFailure;
}

export interface SupervisorBackoff {
  baseMs: number;
  /** Longest wait while the platform cannot be reached. */
  unreachableMaxMs: number;
  /** Longest wait while it refuses our credentials (the operator has to act; no need to knock often). */
  refusedMaxMs: number;
}

export const DEFAULT_BACKOFF: SupervisorBackoff = {
  baseMs: 1_000,
  unreachableMaxMs: 60_000,
  refusedMaxMs: 300_000,
};

/** A stop waits this long for a launch in flight; one that succeeds later is stopped at once. */
const STOP_WAIT_MS = 3_000;

export interface SupervisorOptions {
  launcher: AdapterLauncher;
  board: AdapterStatusBoard;
  logger: Logger;
  sink: InboundSink;
  /**
   * Before the adapter starts: register it, so the events its start already delivers (Matrix's
   * catch-up sync, Slack's first Socket Mode envelopes) find it.
   */
  onStarting(adapter: ChatAdapter): void;
  /** The adapter is up: what waited for it (cards left unposted). */
  onConnected(adapter: ChatAdapter): Promise<void>;
  /** The adapter is going away (a failed start, a stop). */
  onDisconnected(adapter: ChatAdapter): void;
  backoff?: SupervisorBackoff;
}

/**
 * Starts one chat platform in the background of a running process: a platform that is down or
 * refuses is tried again with backoff while everything else serves. Every change of state is one
 * line in the log (with what to do) and on the status board (`!status`, `/metrics`); a failure
 * that repeats itself is not logged again.
 */
export class AdapterSupervisor {
  readonly #options: SupervisorOptions;
  readonly #abort = new AbortController();
  readonly #firstAttempt = Promise.withResolvers<void>();
  #adapter: ChatAdapter | undefined;
  #inFlight: Promise<ChatAdapter | undefined> | undefined;
  #loop: Promise<void> | undefined;
  #stopped = false;

  constructor(options: SupervisorOptions) {
    this.#options = options;
  }

  get platform(): string {
    return this.#options.launcher.platform;
  }

  /** Starts trying; returns at once. */
  start(): void {
    this.#set({ state: "starting", failures: 0, since: new Date() });
    this.#loop = this.#run();
  }

  /** Resolves once the first try has ended, whatever its outcome. */
  firstAttempt(): Promise<void> {
    return this.#firstAttempt.promise;
  }

  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#abort.abort();
    const inFlight = this.#inFlight;
    if (inFlight) {
      // A launch that hangs (a homeserver that accepts and never answers) does not hold the stop.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        inFlight.catch(() => undefined),
        new Promise((resolve) => {
          timer = setTimeout(resolve, STOP_WAIT_MS);
        }),
      ]);
      clearTimeout(timer);
    }
    await this.#loop;
    const adapter = this.#adapter;
    this.#adapter = undefined;
    if (adapter) await this.#stopAdapter(adapter);
    this.#set({ state: "stopped", failures: 0, since: new Date() });
  }

  async #run(): Promise<void> {
    const { launcher, logger } = this.#options;
    const backoff = this.#options.backoff ?? DEFAULT_BACKOFF;
    let failures = 0;
    while (!this.#stopped) {
      const attempt = this.#launch();
      this.#inFlight = attempt;
      try {
        const adapter = await attempt;
        this.#inFlight = undefined;
        if (this.#stopped) {
          await this.#stopAdapter(adapter);
          break;
        }
        this.#adapter = adapter;
        this.#set({ state: "connected", failures: 0, since: new Date() });
        logger.info(
          { platform: launcher.platform, self: adapter.selfId, afterFailures: failures },
          failures > 0
            ? `${launcher.platform}: connected after ${failures} failed tries`
            : "chat adapter started",
        );
        this.#firstAttempt.resolve();
        await this.#options
          .onConnected(adapter)
          .catch((error: unknown) =>
            logger.error(
              { err: error, platform: launcher.platform },
              "chat adapter: catching up after connecting failed",
            ),
          );
        return;
      } catch (error) {
        this.#inFlight = undefined;
        if (this.#stopped) break;
        failures++;
        const failure = launcher.diagnose(error);
        const cap = failure.state === "refused" ? backoff.refusedMaxMs : backoff.unreachableMaxMs;
        const waitMs = backoffDelay(backoff.baseMs, failures, cap);
        const previous = this.#options.board.get(launcher.platform);
        const status: AdapterStatus = {
          ...failure,
          failures,
          since:
            previous?.state === failure.state && previous.cause === failure.cause
              ? previous.since
              : new Date(),
          nextAttemptAt: new Date(Date.now() + waitMs),
        };
        this.#set(status);
        const changed = previous?.state !== failure.state || previous.cause !== failure.cause;
        const line = `${launcher.platform} ${failure.state === "refused" ? "refused oikos" : "cannot be reached"} (${failure.cause}): ${failure.advice} Trying again with backoff; everything else keeps serving.`;
        const fields = { platform: launcher.platform, cause: failure.cause, failures, retryInMs: waitMs };
        if (!changed) logger.debug({ ...fields, err: error }, line);
        else if (failure.state === "refused") logger.error(fields, line);
        else logger.warn(fields, line);
        this.#firstAttempt.resolve();
        await abortableSleep(waitMs, this.#abort.signal);
      }
    }
    this.#firstAttempt.resolve();
  }

  async #launch(): Promise<ChatAdapter> {
    const adapter = await this.#options.launcher.create();
    this.#options.onStarting(adapter);
    try {
      await adapter.start(this.#options.sink);
    } catch (error) {
      this.#options.onDisconnected(adapter);
      await adapter.stop().catch(() => {});
      throw error;
    }
    return adapter;
  }

  async #stopAdapter(adapter: ChatAdapter): Promise<void> {
    this.#options.onDisconnected(adapter);
    try {
      await adapter.stop();
    } catch (error) {
      this.#options.logger.warn({ err: error, platform: adapter.platform }, "chat adapter failed to stop");
    }
  }

  #set(status: AdapterStatus): void {
    this.#options.board.set(this.#options.launcher.platform, status);
  }
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
