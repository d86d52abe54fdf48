import type { Client, ConnectConfig } from "ssh2";
import { KeyedSemaphore } from "../keyed-semaphore.ts";
import { ChannelOpenError, runOnChannel } from "./channel-exec.ts";
import { SshConnectionFailedError, SshPoolClosedError } from "./errors.ts";
import {
  cancelledBeforeStart,
  type ExecOptions,
  type ExecResult,
  resolveExecOptions,
} from "./exec-result.ts";
import type { HostKeyStore } from "./host-key-store.ts";
import { DEFAULT_MAX_CONNECTIONS } from "./pool-limits.ts";
import type { SshAuth } from "./ssh-auth.ts";
import { connectSsh } from "./ssh-connect.ts";
import { endpointKey, hostPort, type SshEndpoint } from "./target.ts";

export interface SshPoolOptions {
  /** Credentials, for every endpoint or chosen per endpoint. Never logged. */
  auth: SshAuth | ((endpoint: SshEndpoint) => SshAuth);
  hostKeys: HostKeyStore;
  /** Accept and remember a host key seen for the first time. Default true. */
  trustOnFirstUse?: boolean;
  /** Open connections across all targets; the least recently used idle one is closed to make room. Default 128. */
  maxConnections?: number;
  /** Commands running at once on one target; more wait in line. OpenSSH allows 10 per connection (MaxSessions). Default 8. */
  maxChannelsPerTarget?: number;
  /** A connection without a running command is closed after this long. Default 5 min. */
  idleTimeoutMs?: number;
  /** SSH-level keepalive, so a dead peer is noticed while idle. Default 15 s, 3 misses. */
  keepaliveIntervalMs?: number;
  keepaliveCountMax?: number;
  /** Handshake + authentication limit. Default 10 s. */
  readyTimeoutMs?: number;
  /** ssh2 algorithm overrides; the defaults are already the fast ones. */
  algorithms?: ConnectConfig["algorithms"];
}

export interface SshPoolStats {
  /** Connections established since the pool was created. */
  connectionsOpened: number;
  /** Commands that ran on a connection that was already open. */
  connectionsReused: number;
  connectionsClosed: number;
  /** Commands retried on a fresh connection because the pooled one had died. */
  reconnects: number;
  openConnections: number;
  activeChannels: number;
  waitingForChannel: number;
  targets: Array<{ key: string; connected: boolean; activeChannels: number; waiting: number }>;
}

interface Slot {
  key: string;
  endpoint: SshEndpoint;
  connection: Live | null;
  connecting: Promise<Live> | null;
}

interface Live {
  client: Client;
  slot: Slot;
  lastUsed: number;
  idleTimer: NodeJS.Timeout | null;
  closed: boolean;
  closedPromise: Promise<void>;
}

/**
 * SSH connections kept open per user@host:port and shared by the commands sent there. Commands on
 * one target run on channels of one connection (bounded), a dead connection is replaced on next
 * use, idle ones are closed. `run` sends the command string as is: transports add the wrapping.
 */
export class SshPool {
  readonly #options: Required<Omit<SshPoolOptions, "algorithms">> & Pick<SshPoolOptions, "algorithms">;
  readonly #slots = new Map<string, Slot>();
  /** Channels in use per slot: at most maxChannelsPerTarget; the rest wait in arrival order. */
  readonly #channels: KeyedSemaphore;
  readonly #capacityWaiters: Array<() => void> = [];
  #openCount = 0;
  #closed = false;
  #opened = 0;
  #reused = 0;
  #closedCount = 0;
  #reconnects = 0;

  constructor(options: SshPoolOptions) {
    this.#options = {
      trustOnFirstUse: true,
      maxConnections: DEFAULT_MAX_CONNECTIONS,
      maxChannelsPerTarget: 8,
      idleTimeoutMs: 5 * 60_000,
      keepaliveIntervalMs: 15_000,
      keepaliveCountMax: 3,
      readyTimeoutMs: 10_000,
      ...options,
    };
    if (this.#options.maxConnections < 1 || this.#options.maxChannelsPerTarget < 1) {
      throw new RangeError("maxConnections and maxChannelsPerTarget must be at least 1");
    }
    this.#channels = new KeyedSemaphore(this.#options.maxChannelsPerTarget, {
      onIdle: (key) => this.#slotIdle(key),
    });
  }

  /** Run `command` verbatim on `endpoint` (user's login shell interprets it). */
  async run(endpoint: SshEndpoint, command: string, options: ExecOptions = {}): Promise<ExecResult> {
    if (this.#closed) throw new SshPoolClosedError();
    const resolved = resolveExecOptions(options);
    const slot = this.#slot(endpoint);
    const releaseChannel = await this.#channels.acquire(slot.key, resolved.signal);
    if (!releaseChannel) return cancelledBeforeStart();
    try {
      const where = hostPort(endpoint);
      const first = await this.#connection(slot);
      try {
        return await runOnChannel(first.live.client, command, resolved, where);
      } catch (error) {
        if (!(error instanceof ChannelOpenError)) throw error;
        if (!first.live.closed && this.#channels.held(slot.key) > 1) {
          // a live connection busy with other commands refused one more session: leave it alone
          throw new SshConnectionFailedError(
            where,
            "the server refused another session on a working connection (is its sshd MaxSessions below " +
              `oikos's maxChannelsPerTarget of ${this.#options.maxChannelsPerTarget}?)`,
            { cause: error },
          );
        }
        // The command never started; a pooled connection that died under us is replaced once.
        this.#discard(first.live);
        if (!first.reused) throw new SshConnectionFailedError(where, error.message, { cause: error });
        this.#reconnects++;
        const second = await this.#connection(slot);
        try {
          return await runOnChannel(second.live.client, command, resolved, where);
        } catch (retryError) {
          if (!(retryError instanceof ChannelOpenError)) throw retryError;
          this.#discard(second.live);
          throw new SshConnectionFailedError(where, retryError.message, { cause: retryError });
        }
      }
    } finally {
      releaseChannel();
    }
  }

  stats(): SshPoolStats {
    const targets = [...this.#slots.values()].map((slot) => ({
      key: slot.key,
      connected: slot.connection !== null,
      activeChannels: this.#channels.held(slot.key),
      waiting: this.#channels.waiting(slot.key),
    }));
    return {
      connectionsOpened: this.#opened,
      connectionsReused: this.#reused,
      connectionsClosed: this.#closedCount,
      reconnects: this.#reconnects,
      openConnections: this.#openCount,
      activeChannels: targets.reduce((sum, target) => sum + target.activeChannels, 0),
      waitingForChannel: targets.reduce((sum, target) => sum + target.waiting, 0),
      targets,
    };
  }

  /** Close every connection (running commands end with a connection error) and refuse new work. */
  async close(): Promise<void> {
    this.#closed = true;
    const closing: Promise<void>[] = [];
    for (const slot of this.#slots.values()) {
      if (slot.connecting !== null)
        closing.push(slot.connecting.then((live) => this.#end(live)).catch(() => {}));
      if (slot.connection !== null) closing.push(this.#end(slot.connection));
    }
    for (const wake of this.#capacityWaiters.splice(0)) wake();
    await Promise.all(closing);
  }

  #slot(endpoint: SshEndpoint): Slot {
    const key = endpointKey(endpoint);
    let slot = this.#slots.get(key);
    if (slot === undefined) {
      slot = { key, endpoint, connection: null, connecting: null };
      this.#slots.set(key, slot);
    }
    return slot;
  }

  /** The last command on a slot ended: its connection starts idling and frees capacity. */
  #slotIdle(key: string): void {
    const live = this.#slots.get(key)?.connection ?? null;
    if (live === null) return;
    live.lastUsed = Date.now();
    this.#armIdleTimer(live);
    this.#wakeCapacityWaiter();
  }

  async #connection(slot: Slot): Promise<{ live: Live; reused: boolean }> {
    const existing = slot.connection;
    if (existing !== null && !existing.closed) {
      this.#reused++;
      this.#disarmIdleTimer(existing);
      return { live: existing, reused: true };
    }
    slot.connecting ??= this.#open(slot).finally(() => {
      slot.connecting = null;
    });
    const live = await slot.connecting;
    this.#disarmIdleTimer(live);
    return { live, reused: false };
  }

  async #open(slot: Slot): Promise<Live> {
    await this.#reserveCapacity(slot);
    let client: Client;
    try {
      const auth =
        typeof this.#options.auth === "function" ? this.#options.auth(slot.endpoint) : this.#options.auth;
      client = await connectSsh(slot.endpoint, {
        auth,
        hostKeys: this.#options.hostKeys,
        trustOnFirstUse: this.#options.trustOnFirstUse,
        readyTimeoutMs: this.#options.readyTimeoutMs,
        keepaliveIntervalMs: this.#options.keepaliveIntervalMs,
        keepaliveCountMax: this.#options.keepaliveCountMax,
        ...(this.#options.algorithms === undefined ? {} : { algorithms: this.#options.algorithms }),
      });
    } catch (error) {
      this.#openCount--;
      this.#wakeCapacityWaiter();
      throw error;
    }
    this.#opened++;
    // one close listener per running command plus ours; the default cap of 10 would warn
    client.setMaxListeners(0);
    let markClosed = (): void => {};
    const live: Live = {
      client,
      slot,
      lastUsed: Date.now(),
      idleTimer: null,
      closed: false,
      closedPromise: new Promise<void>((resolve) => {
        markClosed = resolve;
      }),
    };
    client.once("close", () => {
      this.#forget(live);
      markClosed();
    });
    if (this.#closed) {
      await this.#end(live);
      throw new SshPoolClosedError();
    }
    slot.connection = live;
    return live;
  }

  async #reserveCapacity(slot: Slot): Promise<void> {
    while (this.#openCount >= this.#options.maxConnections) {
      if (this.#closed) throw new SshPoolClosedError();
      const victim = this.#leastRecentlyUsedIdle(slot);
      if (victim !== null) {
        this.#forget(victim); // frees the place now, not when the close event arrives
        victim.client.end();
        continue;
      }
      await new Promise<void>((resolve) => this.#capacityWaiters.push(resolve));
    }
    this.#openCount++;
  }

  #leastRecentlyUsedIdle(except: Slot): Live | null {
    let victim: Live | null = null;
    for (const slot of this.#slots.values()) {
      const live = slot.connection;
      if (slot === except || live === null || this.#channels.held(slot.key) > 0) continue;
      if (victim === null || live.lastUsed < victim.lastUsed) victim = live;
    }
    return victim;
  }

  #wakeCapacityWaiter(): void {
    this.#capacityWaiters.shift()?.();
  }

  /** Drop a connection from the books once; safe to call again from its close event. */
  #forget(live: Live): void {
    if (live.closed) return;
    live.closed = true;
    this.#disarmIdleTimer(live);
    if (live.slot.connection === live) live.slot.connection = null;
    this.#openCount--;
    this.#closedCount++;
    this.#wakeCapacityWaiter();
  }

  #discard(live: Live): void {
    this.#forget(live);
    live.client.end();
  }

  async #end(live: Live): Promise<void> {
    this.#forget(live);
    live.client.end();
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, 2_000).unref());
    await Promise.race([live.closedPromise, timeout]);
    live.client.destroy();
  }

  #armIdleTimer(live: Live): void {
    this.#disarmIdleTimer(live);
    live.idleTimer = setTimeout(() => {
      if (this.#channels.held(live.slot.key) === 0) this.#discard(live);
    }, this.#options.idleTimeoutMs);
    live.idleTimer.unref();
  }

  #disarmIdleTimer(live: Live): void {
    if (live.idleTimer !== null) clearTimeout(live.idleTimer);
    live.idleTimer = null;
  }
}
