import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { App, HTTPReceiver, LogLevel, type Receiver } from "@slack/bolt";
import { WebClient } from "@slack/web-api";
import type { Logger } from "../../base/logger.ts";
import { parseConsent } from "../../policy/consent.ts";
import type { ApproverGroup } from "../../policy/quorum.ts";
import type {
  AnswerVisibility,
  ChatAdapter,
  Inbound,
  InboundSink,
  MessageRef,
  Outbound,
} from "../core/chat-adapter.ts";
import type { EditedMessage, InboundContext } from "./inbound-events.ts";
import { refusingOutOfRange } from "./request-age.ts";
import { checkGrantedScopes } from "./scope-check.ts";
import { SlackCalls } from "./slack-calls.ts";
import { SlackCallError } from "./slack-errors.ts";
import { SlackOutbound } from "./slack-outbound.ts";
import { type Respond, registerSlackRoutes } from "./slack-routes.ts";
import { OikosSocketModeReceiver } from "./socket-mode-receiver.ts";

export interface SlackAdapterOptions {
  botToken: string;
  mode: "socket" | "http";
  /** Socket Mode: the app-level token (xapp-…). */
  appToken?: string;
  /** HTTP mode: requests are verified with it. */
  signingSecret?: string;
  /** HTTP mode: where Bolt listens (0 picks a free port). */
  port?: number;
  /** Channel ids the bot serves; empty = every channel it is in (never a direct message). */
  channels: readonly string[];
  /** Only messages that mention the bot start a task (thread replies continue one). */
  requireMention?: boolean;
  /** Operators or approvers come from a user group (chat config, approvals.rules): usergroups:read is then required. */
  usesUserGroups?: boolean;
  /** A Web API double in tests (`…/api/`). */
  slackApiUrl?: string;
  /** A custom Bolt receiver (tests, or an embedding HTTP server). */
  receiver?: Receiver;
  /** Longest a post waits out Slack's rate limits before it fails (default 2 minutes). */
  maxRateLimitWaitMs?: number;
  /** Socket Mode: how long the client waits for a pong (and, times failures, before reconnecting). */
  socketPingTimeoutMs?: number;
  /**
   * Since when this deployment serves Slack (epoch ms), given this start's time: stored at the
   * first start and read at later ones, so a message sent while oikos was down is still a request
   * while a redelivered event from before is history. Absent: this process's start.
   */
  servingSince?: (now: number) => Promise<number>;
  logger: Logger;
}

const GROUP_CACHE_MS = 60_000;

export const EDIT_NOT_READ =
  "An edited message does not count as an answer: oikos reads only new messages. Send your answer again as a new message (or use the card's buttons).";
/** A slash command's response_url works for 30 minutes (and 5 answers). */
const RESPONDER_TTL_MS = 30 * 60_000;

/**
 * Slack through Bolt: Socket Mode by default (no public URL), HTTP mode with signing-secret
 * verification. Inbound: every payload acknowledged at once and handled after (Slack's
 * 3-second deadline never waits for the database or the agent), text decoded from Slack's
 * format at this boundary (inbound-events.ts). Outbound: Markdown as mrkdwn, long content split
 * (slack-outbound.ts), Web API errors by name and rate limits per method and target
 * (slack-calls.ts). Slash commands are answered through their response_url, privately unless a
 * command says otherwise. Retried and redelivered payloads reach the core with the same event
 * id and are dropped there.
 */
export class SlackAdapter implements ChatAdapter {
  readonly platform = "slack";
  /** Slack shows buttons; the bot does not add reactions to its own cards. */
  readonly prefersButtons = true;
  readonly #options: SlackAdapterOptions;
  readonly #app: App;
  readonly #calls: SlackCalls;
  readonly #outbound: SlackOutbound;
  #selfId = "";
  #botId = "";
  #liveSince: number | undefined;
  #sink: InboundSink | undefined;
  #server: Server | undefined;
  #missingScopes: string[] = [];
  readonly #pending = new Set<Promise<void>>();
  /** Members per user group, looked up at most once a minute per group. */
  readonly #groupMembers = new Map<string, { at: number; users: Set<string> }>();
  /** Slash commands being handled: their way back (response_url), by event id. */
  readonly #responders = new Map<string, { respond: Respond; at: number }>();
  /** User-group lookups that failed, logged once per group and cause. */
  readonly #groupFailures = new Set<string>();

  constructor(options: SlackAdapterOptions) {
    this.#options = options;
    const clientOptions = {
      ...(options.slackApiUrl ? { slackApiUrl: options.slackApiUrl } : {}),
      // Rate limits are ours (SlackCalls): the SDK would pause every call behind one 429.
      rejectRateLimitedCalls: true,
      retryConfig: { retries: 2, factor: 2, minTimeout: 500, maxTimeout: 4_000 },
      timeout: 30_000,
    };
    // Bolt given a `token` calls auth.test in its constructor and awaits it nowhere: one failing
    // answer was an unhandled rejection that ended the process. Here Bolt gets an `authorize`
    // that answers from our own auth.test in start(), which the caller awaits and retries.
    const common = {
      authorize: async () => ({ botToken: options.botToken, botId: this.#botId, botUserId: this.#selfId }),
      logLevel: LogLevel.WARN,
      logger: boltLogger(options.logger),
      clientOptions,
    };
    if (options.receiver) this.#app = new App({ ...common, receiver: options.receiver });
    else if (options.mode === "socket") {
      const receiver = new OikosSocketModeReceiver({
        appToken: options.appToken ?? "",
        logger: options.logger,
        ...(options.slackApiUrl ? { slackApiUrl: options.slackApiUrl } : {}),
        ...(options.socketPingTimeoutMs ? { clientPingTimeoutMs: options.socketPingTimeoutMs } : {}),
      });
      this.#app = new App({ ...common, receiver });
    } else {
      const receiver = new HTTPReceiver({
        signingSecret: options.signingSecret ?? "",
        logger: boltLogger(options.logger),
        logLevel: LogLevel.WARN,
      });
      receiver.requestListener = refusingOutOfRange(receiver.requestListener, options.logger);
      this.#app = new App({ ...common, receiver });
    }
    const client = new WebClient(options.botToken, {
      ...clientOptions,
      // Its "http request failed" lines are the retries of one call: the call's own failure is what counts.
      logger: boltLogger(options.logger, "debug"),
    });
    this.#calls = new SlackCalls(client, {
      logger: options.logger,
      ...(options.maxRateLimitWaitMs !== undefined ? { maxWaitMs: options.maxRateLimitWaitMs } : {}),
    });
    this.#outbound = new SlackOutbound({ calls: this.#calls, logger: options.logger });
    registerSlackRoutes(this.#app, {
      logger: options.logger,
      context: () => this.#context(),
      deliver: (event) => this.#later(event),
      edited: (edit) => this.#onEdit(edit),
      command: (event, respond) => {
        this.#rememberResponder(event.eventId, respond);
        this.#later(event);
      },
    });
  }

  get selfId(): string {
    return this.#selfId;
  }

  /** HTTP mode: the port Bolt listens on (for tests that started it on port 0). */
  get port(): number | undefined {
    return (this.#server?.address() as AddressInfo | null)?.port;
  }

  /** Scopes this configuration needs that the bot token was not granted (checked at start). */
  get missingScopes(): readonly string[] {
    return this.#missingScopes;
  }

  /** Card updates waiting out a rate limit right now. */
  get delayedUpdates(): number {
    return this.#outbound.delayedUpdates;
  }

  async start(sink: InboundSink): Promise<void> {
    const now = Date.now();
    this.#liveSince = this.#options.servingSince ? await this.#options.servingSince(now) : now;
    this.#sink = sink;
    const auth = await this.#calls.call("auth.test", {});
    this.#selfId = String((auth as { user_id?: string }).user_id ?? "");
    this.#botId = String((auth as { bot_id?: string }).bot_id ?? "");
    this.#missingScopes = checkGrantedScopes(auth, {
      operatorGroup: this.#options.usesUserGroups ?? false,
      logger: this.#options.logger,
    });
    try {
      if (this.#options.receiver) await this.#app.start();
      else if (this.#options.mode === "http")
        this.#server = (await this.#app.start(this.#options.port ?? 3000)) as Server;
      else await this.#app.start();
    } catch (error) {
      throw receiverStartError(error, this.#options.mode);
    }
  }

  /** Resolves when the work started by deliveries so far has finished. */
  async idle(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }

  async stop(): Promise<void> {
    await this.#app.stop();
    await this.idle();
    this.#outbound.stop();
    this.#sink = undefined;
  }

  post(room: string, thread: string | null, message: Outbound): Promise<MessageRef> {
    return this.#outbound.post(room, thread, message);
  }

  edit(ref: MessageRef, message: Outbound): Promise<void> {
    return this.#outbound.edit(ref, message);
  }

  async react(ref: MessageRef, key: string): Promise<void> {
    const names: Record<string, string> = { "✅": "white_check_mark", "❌": "x", "👍": "+1" };
    await this.#outbound.react(ref, names[key] ?? key);
  }

  /**
   * A slash command's answer through its response_url: ephemeral unless `room`. When the
   * response_url is gone (expired, used up, a restart) a private answer falls back to
   * chat.postEphemeral and a room answer to a post.
   */
  async answer(
    command: Inbound & { kind: "command" },
    message: Outbound,
    visibility: AnswerVisibility,
  ): Promise<void> {
    const responder = this.#responders.get(command.eventId);
    if (responder && Date.now() - responder.at < RESPONDER_TTL_MS) {
      try {
        await this.#outbound.respond(
          responder.respond,
          message,
          visibility === "room" ? "in_channel" : "ephemeral",
        );
        return;
      } catch (error) {
        this.#options.logger.warn(
          { err: error },
          "slack: answering through response_url failed; posting instead",
        );
      }
    }
    if (visibility === "room") await this.post(command.room, command.thread, message);
    else await this.#outbound.postEphemeral(command.room, command.user, message);
  }

  /**
   * Membership of a user group (operators by group). Fails closed: when Slack cannot tell
   * (missing usergroups:read, an unknown group, Slack unreachable) the user is not counted as a
   * member, so the core refuses and audits as for any stranger; the cause is logged once.
   */
  async isInUserGroup(user: string, group: string): Promise<boolean> {
    return (await this.#membersOf(group))?.has(user) ?? false;
  }

  /** Approvers by user group (approvals.rules `{ userGroup: S… }`): its members, as `isInUserGroup` reads them. */
  async approverGroupMembers(_room: string, group: ApproverGroup): Promise<readonly string[] | undefined> {
    if (group.kind !== "slack_usergroup") return undefined;
    const members = await this.#membersOf(group.id);
    return members ? [...members].sort() : undefined;
  }

  /** A user group's members, kept GROUP_CACHE_MS; undefined (logged once per cause) when Slack cannot tell. */
  async #membersOf(group: string): Promise<ReadonlySet<string> | undefined> {
    let members = this.#groupMembers.get(group);
    if (!members || Date.now() - members.at > GROUP_CACHE_MS) {
      try {
        const result = await this.#calls.call("usergroups.users.list", { usergroup: group });
        const users = (result as { users?: string[] }).users ?? [];
        members = { at: Date.now(), users: new Set(users) };
        this.#groupMembers.set(group, members);
      } catch (error) {
        const kind = error instanceof SlackCallError ? error.kind : "request_failed";
        if (!this.#groupFailures.has(`${group}:${kind}`)) {
          this.#groupFailures.add(`${group}:${kind}`);
          this.#options.logger.error(
            { err: error, group },
            `slack: cannot read the members of user group ${group}; its members are not operators or approvers until this is fixed`,
          );
        }
        return undefined;
      }
    }
    return members.users;
  }

  #context(): InboundContext {
    const channels = this.#options.channels;
    return {
      selfId: this.#selfId,
      served: (channel) => channels.length === 0 || channels.includes(channel),
      requireMention: this.#options.requireMention ?? false,
      ...(this.#liveSince !== undefined ? { liveSince: this.#liveSince } : {}),
    };
  }

  #rememberResponder(eventId: string, respond: Respond): void {
    const now = Date.now();
    for (const [id, entry] of this.#responders)
      if (now - entry.at > RESPONDER_TTL_MS) this.#responders.delete(id);
    this.#responders.set(eventId, { respond, at: now });
  }

  /** An edit that reads as an answer: the person is told (only they see it) that it did not count. */
  #onEdit(edit: EditedMessage): void {
    if (parseConsent(edit.text).kind === "none") return;
    const told = this.#outbound
      .postEphemeral(edit.channel, edit.user, { text: EDIT_NOT_READ }, edit.thread)
      .catch((error: unknown) =>
        this.#options.logger.warn(
          { err: error },
          "slack: could not tell that an edited answer does not count",
        ),
      );
    this.#pending.add(told);
    void told.finally(() => this.#pending.delete(told));
  }

  /** Runs after the ack; the work is tracked so stop() can wait for it. */
  #later(event: Inbound): void {
    const sink = this.#sink;
    if (!sink) return;
    const run = sink(event).catch((error: unknown) =>
      this.#options.logger.error({ err: error }, "slack: handling failed"),
    );
    this.#pending.add(run);
    void run.finally(() => {
      this.#pending.delete(run);
      if (event.kind === "command") this.#responders.delete(event.eventId);
    });
  }
}

/** Socket Mode opens its connection with the app token (apps.connections.open): Slack's refusal by name. */
function receiverStartError(error: unknown, mode: "socket" | "http"): unknown {
  const slackError = (error as { data?: { error?: unknown } }).data?.error;
  if (mode !== "socket" || typeof slackError !== "string") return error;
  return new SlackCallError({ method: "apps.connections.open", slackError, cause: error });
}

function boltLogger(logger: Logger, ceiling?: "debug") {
  let level = LogLevel.WARN;
  const write =
    (fn: "debug" | "info" | "warn" | "error") =>
    (...msg: unknown[]) =>
      logger[ceiling ?? fn](
        { component: "slack-bolt" },
        msg.map((m) => (m instanceof Error ? m.message : String(m))).join(" "),
      );
  return {
    debug: write("debug"),
    info: write("info"),
    warn: write("warn"),
    error: write("error"),
    setLevel: (l: LogLevel) => {
      level = l;
    },
    getLevel: () => level,
    setName: () => {},
  };
}
