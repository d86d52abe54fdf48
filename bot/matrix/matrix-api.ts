import { createHash, randomBytes } from "node:crypto";
import type { IStorageProvider } from "matrix-bot-sdk";
import { LogService, MatrixAuth, MatrixClient } from "matrix-bot-sdk";
import { OikosError } from "../../base/errors.ts";
import type { Logger } from "../../base/logger.ts";
import {
  type MessagesPage,
  messagesPageSchema,
  type RoomEvent,
  roomStateSchema,
  type SyncResponse,
  syncResponseSchema,
} from "./sync-schema.ts";

/**
 * The part of the Client-Server API the bot uses, as a small port (tests of the adapter run it
 * against test-support/matrix-double). Requests go through matrix-bot-sdk's MatrixClient; the
 * /sync long-poll goes through fetch so that stopping the bot aborts it at once.
 */
export interface MatrixApi {
  whoami(): Promise<string>;
  sync(since: string | null, timeoutMs: number, signal: AbortSignal): Promise<SyncResponse>;
  /** GET /rooms/{id}/messages?dir=b: events before `from` (a prev_batch or a page's `end`), newest first. */
  messagesBefore(room: string, from: string, limit: number): Promise<MessagesPage>;
  /** PUT send with our own transaction id: a retried send is the same event, never a duplicate. */
  send(room: string, eventType: string, content: Record<string, unknown>, txnId?: string): Promise<string>;
  stateEvent(room: string, eventType: string, stateKey: string): Promise<Record<string, unknown> | undefined>;
  /** GET /rooms/{id}/state: the room's current state events, whole (with origin_server_ts). */
  roomState(room: string): Promise<RoomEvent[]>;
  join(room: string): Promise<void>;
  leave(room: string): Promise<void>;
  typing(room: string, user: string, typing: boolean, timeoutMs: number): Promise<void>;
  /** Ends this access token's session (used when oikos logged in with a password). */
  logout(): Promise<void>;
}

/**
 * An inline sync filter: up to 100 timeline events per room (servers default to ~10, and a
 * restart after a busy hour must not skip a gap), no presence, no ephemeral noise.
 */
const SYNC_FILTER = JSON.stringify({
  presence: { not_types: ["*"] },
  account_data: { not_types: ["*"] },
  room: { timeline: { limit: 100 }, ephemeral: { not_types: ["*"] }, account_data: { not_types: ["*"] } },
});

/**
 * The transaction id of a post named by a key (Card.postKey): the same key always sends with the
 * same id, and the homeserver answers a repeated transaction with the event it already made.
 */
export function postTxnId(key: string): string {
  return `oikos.post.${createHash("sha256").update(key).digest("hex").slice(0, 32)}`;
}

export function newTxnId(): string {
  return `oikos.${Date.now().toString(36)}.${randomBytes(6).toString("hex")}`;
}

export class MatrixSyncError extends OikosError {
  /** The homeserver's answer, when it answered with an error. */
  readonly statusCode: number | undefined;
  readonly errcode: string | undefined;

  constructor(message: string, logMessage: string, answer: { statusCode?: number; errcode?: string } = {}) {
    super("matrix_sync_failed", message, { logMessage });
    this.name = "MatrixSyncError";
    this.statusCode = answer.statusCode;
    this.errcode = answer.errcode;
  }
}

export class SdkMatrixApi implements MatrixApi {
  readonly #client: MatrixClient;
  readonly #homeserverUrl: string;
  readonly #accessToken: string;

  constructor(options: {
    homeserverUrl: string;
    accessToken: string;
    storage: IStorageProvider;
    logger: Logger;
  }) {
    this.#homeserverUrl = options.homeserverUrl.replace(/\/$/, "");
    this.#accessToken = options.accessToken;
    this.#client = new MatrixClient(this.#homeserverUrl, options.accessToken, options.storage);
    routeSdkLogs(options.logger);
  }

  whoami(): Promise<string> {
    return this.#client.getUserId();
  }

  async sync(since: string | null, timeoutMs: number, signal: AbortSignal): Promise<SyncResponse> {
    const url = new URL(`${this.#homeserverUrl}/_matrix/client/v3/sync`);
    url.searchParams.set("timeout", String(timeoutMs));
    url.searchParams.set("filter", SYNC_FILTER);
    if (since) url.searchParams.set("since", since);
    const response = await fetch(url, { headers: { authorization: `Bearer ${this.#accessToken}` }, signal });
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (!response.ok) {
      throw new MatrixSyncError(
        "The Matrix homeserver refused to sync; check MATRIX_ACCESS_TOKEN.",
        `sync ${response.status}: ${JSON.stringify(body).slice(0, 300)}`,
        {
          statusCode: response.status,
          ...(typeof body.errcode === "string" ? { errcode: body.errcode } : {}),
        },
      );
    }
    const parsed = syncResponseSchema.safeParse(body);
    if (!parsed.success) {
      throw new MatrixSyncError(
        "The Matrix homeserver sent a sync response oikos cannot read.",
        parsed.error.message,
      );
    }
    return parsed.data;
  }

  async messagesBefore(room: string, from: string, limit: number): Promise<MessagesPage> {
    const path = `/_matrix/client/v3/rooms/${encodeURIComponent(room)}/messages`;
    const body = await this.#client.doRequest("GET", path, { dir: "b", from, limit });
    const parsed = messagesPageSchema.safeParse(body);
    if (!parsed.success) {
      throw new MatrixSyncError(
        "The Matrix homeserver sent a page of room history oikos cannot read.",
        parsed.error.message,
      );
    }
    return parsed.data;
  }

  async send(
    room: string,
    eventType: string,
    content: Record<string, unknown>,
    txnId = newTxnId(),
  ): Promise<string> {
    const path = `/_matrix/client/v3/rooms/${encodeURIComponent(room)}/send/${encodeURIComponent(eventType)}/${encodeURIComponent(txnId)}`;
    const result = (await this.#client.doRequest("PUT", path, null, content)) as { event_id: string };
    return result.event_id;
  }

  async stateEvent(
    room: string,
    eventType: string,
    stateKey: string,
  ): Promise<Record<string, unknown> | undefined> {
    try {
      return (await this.#client.getRoomStateEvent(room, eventType, stateKey)) as Record<string, unknown>;
    } catch (error) {
      if ((error as { errcode?: string }).errcode === "M_NOT_FOUND") return undefined;
      throw error;
    }
  }

  async roomState(room: string): Promise<RoomEvent[]> {
    const path = `/_matrix/client/v3/rooms/${encodeURIComponent(room)}/state`;
    const parsed = roomStateSchema.safeParse(await this.#client.doRequest("GET", path));
    if (!parsed.success) {
      throw new MatrixSyncError(
        "The Matrix homeserver sent room state oikos cannot read.",
        parsed.error.message,
      );
    }
    return parsed.data;
  }

  async join(room: string): Promise<void> {
    await this.#client.joinRoom(room);
  }

  async leave(room: string): Promise<void> {
    await this.#client.leaveRoom(room);
  }

  async logout(): Promise<void> {
    await this.#client.doRequest("POST", "/_matrix/client/v3/logout", null, {});
  }

  async typing(room: string, user: string, typing: boolean, timeoutMs: number): Promise<void> {
    const path = `/_matrix/client/v3/rooms/${encodeURIComponent(room)}/typing/${encodeURIComponent(user)}`;
    await this.#client.doRequest("PUT", path, null, typing ? { typing, timeout: timeoutMs } : { typing });
  }
}

/** Password login through the SDK: a fresh device each start, logged out again at stop. */
export async function loginWithPassword(
  homeserverUrl: string,
  userId: string,
  password: string,
): Promise<string> {
  const client = await new MatrixAuth(homeserverUrl.replace(/\/$/, "")).passwordLogin(
    userId,
    password,
    "oikos",
  );
  return client.accessToken;
}

let routed = false;
/**
 * matrix-bot-sdk logs through a global LogService; send it to our logger, warnings and up. Its HTTP
 * client logs every non-2xx answer as an error, though most are expected (404 for a state probe, 403
 * before an invite, 429): the error is thrown to our caller, which decides and logs; the SDK's line is debug.
 */
function routeSdkLogs(logger: Logger): void {
  if (routed) return;
  routed = true;
  const log =
    (level: "warn" | "error" | "debug") =>
    (module: string, ...args: unknown[]) =>
      logger[level === "error" && module === "MatrixHttpClient" ? "debug" : level](
        { sdk: module },
        args
          .map((a) => (a instanceof Error ? a.message : typeof a === "string" ? a : JSON.stringify(a)))
          .join(" ")
          .slice(0, 500),
      );
  LogService.setLogger({
    info: log("debug"),
    warn: log("warn"),
    error: log("error"),
    debug: log("debug"),
    trace: log("debug"),
  });
}
