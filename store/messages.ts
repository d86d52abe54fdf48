import { type Kysely, sql } from "kysely";
import type { Executor } from "./audit.ts";
import type { Database } from "./schema.ts";

import type { MessageRole } from "./statuses.ts";

export type { MessageRole } from "./statuses.ts";

/** One tool call as the model made it (OpenAI wire shape). */
export interface StoredToolCall {
  id: string;
  name: string;
  /** The raw argument string the model sent (may be malformed JSON). */
  arguments: string;
}

export interface StoredMessage {
  id: string;
  sessionId: string;
  role: MessageRole;
  content: string;
  toolCalls: StoredToolCall[] | null;
  toolCallId: string | null;
  name: string | null;
  author: string | null;
  createdAt: Date;
}

export interface NewMessage {
  sessionId: string;
  role: MessageRole;
  content?: string;
  toolCalls?: StoredToolCall[];
  toolCallId?: string;
  /** Tool name for tool results; a marker for system notes (e.g. `execution:<id>`). */
  name?: string;
  /** Platform user id for operator messages; "agent" / "oikos" otherwise. */
  author?: string;
  platformEventId?: string;
  /** A refused tool call's identity (policy/refusal-identity.ts refusalKey). */
  refusalKey?: string;
}

/**
 * Appends one message to the transcript (the full record; the model sees a window of it). An operator
 * message counts as activity for the idle sweep and clears its nudge.
 */
export async function appendMessage(
  db: Executor,
  message: NewMessage,
  now = new Date(),
): Promise<StoredMessage> {
  const inserted = await db
    .insertInto("messages")
    .values({
      session_id: message.sessionId,
      role: message.role,
      content: message.content ?? "",
      tool_calls: message.toolCalls ? JSON.stringify(message.toolCalls) : null,
      tool_call_id: message.toolCallId ?? null,
      name: message.name ?? null,
      author: message.author ?? null,
      platform_event_id: message.platformEventId ?? null,
      refusal_key: message.refusalKey ?? null,
      created_at: now,
    })
    .onConflict((oc) =>
      oc.columns(["session_id", "platform_event_id"]).where("platform_event_id", "is not", null).doNothing(),
    )
    .returningAll()
    .executeTakeFirst();
  // A redelivered chat event: the message is already stored, once.
  if (!inserted) {
    const existing = await db
      .selectFrom("messages")
      .selectAll()
      .where("session_id", "=", message.sessionId)
      .where("platform_event_id", "=", message.platformEventId ?? "")
      .executeTakeFirstOrThrow();
    return toStored(existing);
  }
  const row = inserted;
  if (message.role === "user") {
    await db
      .updateTable("sessions")
      .set({ last_activity_at: now, nudged_at: null, updated_at: now })
      .where("id", "=", message.sessionId)
      .execute();
  }
  return toStored(row);
}

export interface MessageWindow {
  messages: StoredMessage[];
  /** How many older messages exist beyond the window. */
  omitted: number;
}

/** The last `limit` messages in order, plus how many older ones were left out. */
export async function recentMessages(
  db: Kysely<Database>,
  sessionId: string,
  limit: number,
): Promise<MessageWindow> {
  // The window and the session's total in one statement: a window function counts the rows the
  // WHERE keeps, before the LIMIT.
  const rows = await db
    .selectFrom("messages")
    .selectAll()
    .select(sql<string>`count(*) over ()`.as("session_total"))
    .where("session_id", "=", sessionId)
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  const total = rows.length > 0 ? Number(rows[0]!.session_total) : 0;
  return {
    messages: rows.reverse().map(({ session_total: _total, ...row }) => toStored(row)),
    omitted: Math.max(0, total - rows.length),
  };
}

export async function listMessages(db: Kysely<Database>, sessionId: string): Promise<StoredMessage[]> {
  const rows = await db
    .selectFrom("messages")
    .selectAll()
    .where("session_id", "=", sessionId)
    .orderBy("id", "asc")
    .execute();
  return rows.map(toStored);
}

/** The most recent operator message, if any. */
export async function lastOperatorMessage(
  db: Kysely<Database>,
  sessionId: string,
): Promise<StoredMessage | undefined> {
  const row = await db
    .selectFrom("messages")
    .selectAll()
    .where("session_id", "=", sessionId)
    .where("role", "=", "user")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? toStored(row) : undefined;
}

/** Whether a system note with this marker (`name`) exists, so a redelivered job does not add it twice. */
export async function hasNote(db: Kysely<Database>, sessionId: string, marker: string): Promise<boolean> {
  const row = await db
    .selectFrom("messages")
    .select("id")
    .where("session_id", "=", sessionId)
    .where("role", "=", "system")
    .where("name", "=", marker)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The identities of the calls refused since the operator last spoke (their newest message), oldest
 * first: what the agent loop counts as "already refused" (agent/turn.ts).
 */
export async function refusalKeysSinceOperator(db: Kysely<Database>, sessionId: string): Promise<string[]> {
  // The operator's newest message and what was refused after it, in one statement.
  const rows = await db
    .selectFrom("messages")
    .select("refusal_key")
    .where("session_id", "=", sessionId)
    .where("refusal_key", "is not", null)
    .where(({ eb, selectFrom }) =>
      eb(
        "id",
        ">",
        selectFrom("messages as operator")
          .select(sql<string>`coalesce(max(operator.id), 0)`.as("id"))
          .where("operator.session_id", "=", sessionId)
          .where("operator.role", "=", "user"),
      ),
    )
    .orderBy("id", "asc")
    .execute();
  return rows.flatMap((row) => (row.refusal_key === null ? [] : [row.refusal_key]));
}

/**
 * Whether the session holds input for the model newer than `afterId`: an operator message, or a
 * continuation (`execution:…`) or decision (`decision:…`) note — not its own output or fault notes.
 */
export async function hasInputAfter(
  db: Kysely<Database>,
  sessionId: string,
  afterId: bigint,
): Promise<boolean> {
  const row = await db
    .selectFrom("messages")
    .select("id")
    .where("session_id", "=", sessionId)
    .where("id", ">", afterId.toString())
    .where((eb) =>
      eb.or([
        eb("role", "=", "user"),
        eb.and([
          eb("role", "=", "system"),
          eb.or([eb("name", "like", "execution:%"), eb("name", "like", "decision:%")]),
        ]),
      ]),
    )
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether a system note with one of these markers was stored after the operator's newest message. */
export async function noteSinceOperator(
  db: Kysely<Database>,
  sessionId: string,
  markers: readonly string[],
): Promise<boolean> {
  const note = await db
    .selectFrom("messages")
    .select((eb) => eb.fn.max("id").as("id"))
    .where("session_id", "=", sessionId)
    .where("role", "=", "system")
    .where("name", "in", markers)
    .executeTakeFirst();
  if (!note?.id) return false;
  const operator = await lastOperatorMessage(db, sessionId);
  return operator === undefined || BigInt(operator.id) < BigInt(note.id);
}

type Row = {
  id: string;
  session_id: string;
  role: string;
  content: string;
  tool_calls: unknown;
  tool_call_id: string | null;
  name: string | null;
  author: string | null;
  created_at: Date;
};

function toStored(row: Row): StoredMessage {
  return {
    id: row.id,
    sessionId: row.session_id,
    role: row.role as MessageRole,
    content: row.content,
    toolCalls: (row.tool_calls as StoredToolCall[] | null) ?? null,
    toolCallId: row.tool_call_id,
    name: row.name,
    author: row.author,
    createdAt: row.created_at,
  };
}

/** The tool results of a session since `since` whose text names `text` (e.g. an execution id). */
export async function toolResultsNaming(
  db: Kysely<Database>,
  sessionId: string,
  text: string,
  since: Date,
): Promise<string[]> {
  const rows = await db
    .selectFrom("messages")
    .select("content")
    .where("session_id", "=", sessionId)
    .where("role", "=", "tool")
    .where("created_at", ">=", since)
    .where("content", "like", `%${text}%`)
    .execute();
  return rows.map((row) => row.content);
}

/** The agent's last non-empty reply in a session. */
export async function lastAgentReply(db: Kysely<Database>, sessionId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom("messages")
    .select("content")
    .where("session_id", "=", sessionId)
    .where("role", "=", "assistant")
    .where("content", "!=", "")
    .orderBy("id", "desc")
    .executeTakeFirst();
  return row?.content;
}

/** Whether a message from this platform event was stored in the session already. */
export async function hasPlatformEvent(
  db: Kysely<Database>,
  sessionId: string,
  eventId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom("messages")
    .select("id")
    .where("session_id", "=", sessionId)
    .where("platform_event_id", "=", eventId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Everything the agent said in a session, in order (non-empty replies). */
export async function agentReplies(db: Kysely<Database>, sessionId: string): Promise<string[]> {
  const rows = await db
    .selectFrom("messages")
    .select("content")
    .where("session_id", "=", sessionId)
    .where("role", "=", "assistant")
    .where("content", "!=", "")
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.map((row) => row.content);
}
