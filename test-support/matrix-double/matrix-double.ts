import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { z } from "zod";
import { redactionRequestSchema, schemaFor, typingRequestSchema } from "./event-schemas.ts";
import { type DoubleEvent, HomeserverState, wire } from "./homeserver-state.ts";
import { isEmpty, readJson, send } from "./http-json.ts";

export interface Violation {
  method: string;
  path: string;
  eventType: string;
  issues: string[];
  content: unknown;
}

export type FailingRoute = "join" | "send";

export interface SentRecord {
  event: DoubleEvent;
  txnId: string;
}

const INJECTED = { errcode: "M_UNKNOWN", error: "injected failure (failNext)" };

/**
 * A small Matrix Client-Server API homeserver on 127.0.0.1 for tests (a shared protocol double,
 * not a mock): whoami, versions, filters, /sync long-poll with since tokens (timeline limits, `limited` + prev_batch), /messages back-pagination, send (idempotent by
 * transaction id), redact, relations, join/leave (a room joined since the client's token comes with its
 * recent history and full state, as from Synapse), room state (one event, or all of it), typing,
 * 429 M_LIMIT_EXCEEDED and 500
 * failures on demand. Every event a client sends is validated against the spec
 * schemas in event-schemas.ts; an invalid one is refused with 400 M_BAD_JSON and recorded in
 * `violations`. Tests act as other users through the methods below (message, react, invite).
 */
export class MatrixDouble {
  readonly state: HomeserverState;
  readonly violations: Violation[] = [];
  readonly sent: SentRecord[] = [];
  readonly typing: { room: string; user: string; typing: boolean }[] = [];
  readonly rateLimited: string[] = [];
  /** Caps every sync timeline (besides the client's filter): a busy gap then comes back `limited`. */
  timelineLimit: number | undefined;
  /** Calls answered with an injected failure (see failNext). */
  readonly failed: { route: FailingRoute; room: string }[] = [];
  readonly #tokens = new Map<string, string>();
  readonly #passwords = new Map<string, string>();
  readonly #txns = new Map<string, string>();
  readonly #server: Server;
  readonly #abort = new AbortController();
  #rateLimit = { remaining: 0, retryAfterMs: 0 };
  readonly #failures: { route: FailingRoute; room: string | undefined; remaining: number }[] = [];
  #url = "";

  private constructor(serverName: string) {
    this.state = new HomeserverState(serverName);
    this.#server = createServer((req, res) => {
      this.#handle(req, res).catch((error: unknown) => {
        const e = error as { status?: number; errcode?: string; message?: string };
        send(res, e.status ?? 500, { errcode: e.errcode ?? "M_UNKNOWN", error: e.message ?? String(error) });
      });
    });
  }

  static async start(options: { serverName?: string } = {}): Promise<MatrixDouble> {
    const double = new MatrixDouble(options.serverName ?? "double.test");
    await new Promise<void>((resolve) => double.#server.listen(0, "127.0.0.1", resolve));
    const { port } = double.#server.address() as AddressInfo;
    double.#url = `http://127.0.0.1:${port}`;
    return double;
  }

  get url(): string {
    return this.#url;
  }

  /** A user who can call the API with the returned access token. */
  registerUser(userId: string, token = `tok_${userId.replace(/\W/g, "_")}`, password?: string): string {
    this.#tokens.set(token, userId);
    if (password !== undefined) this.#passwords.set(userId, password);
    return token;
  }

  /** Access tokens currently valid for `userId` (a logout removes its token). */
  tokensOf(userId: string): string[] {
    return [...this.#tokens].filter(([, user]) => user === userId).map(([token]) => token);
  }

  createRoom(input: Parameters<HomeserverState["createRoom"]>[0]): string {
    return this.state.createRoom(input);
  }

  invite(roomId: string, inviter: string, invitee: string): void {
    this.state.setMembership(roomId, inviter, invitee, "invite");
  }

  /** Posts as `sender` (an operator or a stranger); in a thread when `thread` is given. */
  message(sender: string, roomId: string, body: string, options: { thread?: string } = {}): string {
    const content: Record<string, unknown> = { msgtype: "m.text", body };
    if (options.thread) {
      content["m.relates_to"] = {
        rel_type: "m.thread",
        event_id: options.thread,
        is_falling_back: true,
        "m.in_reply_to": { event_id: options.thread },
      };
    }
    return this.state.append(roomId, sender, "m.room.message", content).event_id;
  }

  react(sender: string, roomId: string, target: string, key: string): string {
    const content = { "m.relates_to": { rel_type: "m.annotation", event_id: target, key } };
    return this.state.append(roomId, sender, "m.reaction", content).event_id;
  }

  setEncrypted(roomId: string, by: string): void {
    this.state.append(roomId, by, "m.room.encryption", { algorithm: "m.megolm.v1.aes-sha2" }, "");
  }

  /** The next `count` sends answer 429 M_LIMIT_EXCEEDED with retry_after_ms. */
  rateLimitNext(count: number, retryAfterMs: number): void {
    this.#rateLimit = { remaining: count, retryAfterMs };
  }

  /**
   * The next `count` calls of `route` (into `room`, or any room) answer 500 M_UNKNOWN: a homeserver
   * hiccup, which unlike a 429 carries no advice to retry.
   */
  failNext(route: FailingRoute, options: { room?: string; count?: number } = {}): void {
    this.#failures.push({ route, room: options.room, remaining: options.count ?? 1 });
  }

  /** Events `sender` sent through the API, oldest first. */
  sentBy(sender: string): DoubleEvent[] {
    return this.sent.filter((s) => s.event.sender === sender).map((s) => s.event);
  }

  /** The events of a room that relate to `eventId` (thread replies, edits, reactions). */
  relations(eventId: string, relType?: string): DoubleEvent[] {
    return this.state.events.filter((e) => {
      const rel = e.content["m.relates_to"] as { event_id?: string; rel_type?: string } | undefined;
      return rel?.event_id === eventId && (relType === undefined || rel.rel_type === relType);
    });
  }

  /** The homeserver goes down: connections are refused (ECONNREFUSED) until `listenAgain`, its state kept. */
  async stopListening(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  /** Back up on the same address. */
  async listenAgain(): Promise<void> {
    const port = Number(new URL(this.#url).port);
    await new Promise<void>((resolve) => this.#server.listen(port, "127.0.0.1", resolve));
  }

  async close(): Promise<void> {
    this.#abort.abort();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", this.#url);
    const parts = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
    const method = req.method ?? "GET";
    if (parts[0] !== "_matrix" || parts[1] !== "client")
      return send(res, 404, { errcode: "M_UNRECOGNIZED", error: "not a client API path" });
    if (parts[2] === "versions")
      return send(res, 200, { versions: ["v1.11", "v1.12", "v1.13"], unstable_features: {} });
    const [, , version, ...rest] = parts;
    if (version !== "v3" && version !== "r0")
      return send(res, 404, { errcode: "M_UNRECOGNIZED", error: `unsupported version ${version}` });
    if (method === "POST" && rest[0] === "login") return this.#login(res, await readJson(req));
    const user = this.#auth(req, url);
    if (!user)
      return send(res, 401, { errcode: "M_UNKNOWN_TOKEN", error: "unknown or missing access token" });
    const body = method === "GET" ? {} : await readJson(req);
    if (method === "GET" && rest[0] === "account" && rest[1] === "whoami") {
      return send(res, 200, { user_id: user, device_id: "DOUBLE" });
    }
    if (method === "POST" && rest[0] === "user" && rest[2] === "filter")
      return send(res, 200, { filter_id: "1" });
    if (method === "POST" && rest[0] === "logout") {
      const token = req.headers.authorization?.slice(7) ?? "";
      this.#tokens.delete(token);
      return send(res, 200, {});
    }
    if (method === "GET" && rest[0] === "sync") return this.#sync(res, user, url);
    if (method === "POST" && rest[0] === "join") return this.#join(res, user, rest[1]!);
    if (rest[0] === "rooms") return this.#room(req, res, method, user, rest.slice(1), body, url);
    return send(res, 404, { errcode: "M_UNRECOGNIZED", error: `no route ${method} ${url.pathname}` });
  }

  #login(res: ServerResponse, body: unknown) {
    const b = body as { type?: string; identifier?: { type?: string; user?: string }; password?: string };
    if (b.type !== "m.login.password" || b.identifier?.type !== "m.id.user" || !b.identifier.user) {
      return send(res, 400, {
        errcode: "M_UNKNOWN",
        error: "only m.login.password with an m.id.user identifier",
      });
    }
    const name = b.identifier.user;
    const userId = name.startsWith("@") ? name : `@${name}:${this.state.serverName}`;
    if (this.#passwords.get(userId) === undefined || this.#passwords.get(userId) !== b.password) {
      return send(res, 403, { errcode: "M_FORBIDDEN", error: "Invalid username or password" });
    }
    const token = `tok_login_${Math.random().toString(36).slice(2)}`;
    this.#tokens.set(token, userId);
    return send(res, 200, { user_id: userId, access_token: token, device_id: "LOGIN" });
  }

  #auth(req: IncomingMessage, url: URL): string | undefined {
    const header = req.headers.authorization;
    const token = header?.startsWith("Bearer ") ? header.slice(7) : url.searchParams.get("access_token");
    return token ? this.#tokens.get(token) : undefined;
  }

  async #sync(res: ServerResponse, user: string, url: URL): Promise<void> {
    const sinceRaw = url.searchParams.get("since");
    const since = sinceRaw ? Number(sinceRaw.replace(/^s/, "")) : undefined;
    if (sinceRaw && !Number.isInteger(since))
      return send(res, 400, { errcode: "M_INVALID_PARAM", error: "bad since token" });
    const timeout = Math.min(Number(url.searchParams.get("timeout") ?? 0), 30_000);
    const limit = Math.min(filterTimelineLimit(url), this.timelineLimit ?? Number.POSITIVE_INFINITY);
    let response = this.state.syncFor(user, since, limit);
    if (since !== undefined && isEmpty(response) && timeout > 0) {
      await this.state.waitForEvent(timeout, this.#abort.signal);
      response = this.state.syncFor(user, since, limit);
    }
    send(res, 200, response);
  }

  #join(res: ServerResponse, user: string, roomId: string) {
    if (this.#injectedFailure("join", roomId)) return send(res, 500, INJECTED);
    const room = this.state.room(roomId);
    if (room.members.get(user) !== "invite" && room.members.get(user) !== "join") {
      return send(res, 403, { errcode: "M_FORBIDDEN", error: "You are not invited to this room." });
    }
    if (room.members.get(user) !== "join") this.state.setMembership(roomId, user, user, "join");
    send(res, 200, { room_id: roomId });
  }

  async #room(
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    user: string,
    parts: string[],
    body: unknown,
    url: URL,
  ): Promise<void> {
    const [roomId, action, ...args] = parts as [string, string, ...string[]];
    const room = this.state.room(roomId);
    if (action === "join" && method === "POST") return this.#join(res, user, roomId);
    if (action === "leave" && method === "POST") {
      this.state.setMembership(roomId, user, user, "leave");
      return send(res, 200, {});
    }
    if (room.members.get(user) !== "join")
      return send(res, 403, { errcode: "M_FORBIDDEN", error: `${user} is not in ${roomId}` });
    if (action === "state" && method === "GET" && args.length === 0) {
      return send(res, 200, [...room.state.values()].map(wire));
    }
    if (action === "state" && method === "GET") {
      const event = room.state.get(`${args[0]}\u0000${args[1] ?? ""}`);
      return event
        ? send(res, 200, event.content)
        : send(res, 404, { errcode: "M_NOT_FOUND", error: "Event not found." });
    }
    if (action === "send" && method === "PUT")
      return this.#send(res, user, roomId, args[0]!, args[1]!, body, req, url);
    if (action === "redact" && method === "PUT") {
      if (!this.#valid(req, url, "m.room.redaction", redactionRequestSchema, body))
        return send(res, 400, { errcode: "M_BAD_JSON", error: "invalid redaction" });
      const event = this.state.append(roomId, user, "m.room.redaction", {
        redacts: args[0],
        ...(body as object),
      });
      return send(res, 200, { event_id: event.event_id });
    }
    if (action === "typing" && method === "PUT") {
      if (!this.#valid(req, url, "m.typing", typingRequestSchema, body))
        return send(res, 400, { errcode: "M_BAD_JSON", error: "invalid typing" });
      this.typing.push({ room: roomId, user, typing: (body as { typing: boolean }).typing });
      return send(res, 200, {});
    }
    if (action === "messages" && method === "GET") {
      const from = Number((url.searchParams.get("from") ?? "").replace(/^p/, ""));
      const limit = Number(url.searchParams.get("limit") ?? 10);
      if (url.searchParams.get("dir") !== "b" || !Number.isInteger(from) || !(limit > 0))
        return send(res, 400, {
          errcode: "M_INVALID_PARAM",
          error: "the double pages dir=b from a prev_batch",
        });
      return send(res, 200, this.state.messagesBefore(roomId, from, Math.min(limit, 1000)));
    }
    if (action === "relations" && method === "GET") {
      return send(res, 200, { chunk: this.relations(args[0]!, args[1]).map(({ pos: _p, ...e }) => e) });
    }
    if (action === "joined_members" && method === "GET") {
      const joined = Object.fromEntries(
        [...room.members].filter(([, m]) => m === "join").map(([u]) => [u, {}]),
      );
      return send(res, 200, { joined });
    }
    send(res, 404, { errcode: "M_UNRECOGNIZED", error: `no room route ${method} ${action}` });
  }

  #send(
    res: ServerResponse,
    user: string,
    roomId: string,
    eventType: string,
    txnId: string,
    body: unknown,
    req: IncomingMessage,
    url: URL,
  ) {
    if (this.#injectedFailure("send", roomId)) return send(res, 500, INJECTED);
    if (this.#rateLimit.remaining > 0) {
      this.#rateLimit.remaining--;
      this.rateLimited.push(txnId);
      res.setHeader("Retry-After", String(Math.ceil(this.#rateLimit.retryAfterMs / 1000)));
      return send(res, 429, {
        errcode: "M_LIMIT_EXCEEDED",
        error: "Too Many Requests",
        retry_after_ms: this.#rateLimit.retryAfterMs,
      });
    }
    const key = `${user}\u0000${txnId}`;
    const seen = this.#txns.get(key);
    if (seen) return send(res, 200, { event_id: seen });
    const schema = schemaFor(eventType);
    if (!schema) {
      this.violations.push({
        method: "PUT",
        path: url.pathname,
        eventType,
        issues: ["the bot has no reason to send this event type"],
        content: body,
      });
      return send(res, 400, { errcode: "M_BAD_JSON", error: `unexpected event type ${eventType}` });
    }
    if (!this.#valid(req, url, eventType, schema, body))
      return send(res, 400, { errcode: "M_BAD_JSON", error: "content does not match the spec schema" });
    const relation = (body as { "m.relates_to"?: { event_id?: string } })["m.relates_to"];
    if (relation?.event_id && !this.state.event(relation.event_id)) {
      this.violations.push({
        method: "PUT",
        path: url.pathname,
        eventType,
        issues: [`relates to unknown event ${relation.event_id}`],
        content: body,
      });
      return send(res, 400, { errcode: "M_BAD_JSON", error: "relation to an unknown event" });
    }
    const event = this.state.append(roomId, user, eventType, body as Record<string, unknown>);
    this.#txns.set(key, event.event_id);
    this.sent.push({ event, txnId });
    send(res, 200, { event_id: event.event_id });
  }

  #injectedFailure(route: FailingRoute, roomId: string): boolean {
    const failure = this.#failures.find(
      (f) => f.route === route && f.remaining > 0 && (f.room === undefined || f.room === roomId),
    );
    if (!failure) return false;
    failure.remaining--;
    this.failed.push({ route, room: roomId });
    return true;
  }

  #valid(req: IncomingMessage, url: URL, eventType: string, schema: z.ZodType, body: unknown): boolean {
    const result = schema.safeParse(body);
    if (result.success) return true;
    this.violations.push({
      method: req.method ?? "?",
      path: url.pathname,
      eventType,
      issues: result.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`),
      content: body,
    });
    return false;
  }
}

/** room.timeline.limit of an inline JSON sync filter, if the client sent one. */
function filterTimelineLimit(url: URL): number {
  try {
    const filter = JSON.parse(url.searchParams.get("filter") ?? "{}") as {
      room?: { timeline?: { limit?: number } };
    };
    return filter.room?.timeline?.limit ?? Number.POSITIVE_INFINITY;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}
