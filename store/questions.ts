import { randomUUID } from "node:crypto";
import type { Executor } from "./audit.ts";

export interface QuestionRow {
  id: string;
  sessionId: string;
  prompt: string;
  why: string | null;
  options: string[];
  status: string;
  answer: string | null;
  createdAt: Date;
}

type Row = {
  id: string;
  session_id: string;
  prompt: string;
  why: string | null;
  options: unknown;
  status: string;
  answer: string | null;
  created_at: Date;
};

function toRow(row: Row): QuestionRow {
  return {
    id: row.id,
    sessionId: row.session_id,
    prompt: row.prompt,
    why: row.why,
    options: (row.options as string[]) ?? [],
    status: row.status,
    answer: row.answer,
    createdAt: row.created_at,
  };
}

/** Records a question; an older open question of the session is closed as superseded (one at a time). */
export async function askQuestion(
  db: Executor,
  input: { sessionId: string; prompt: string; why?: string; options?: string[] },
  now = new Date(),
): Promise<QuestionRow> {
  await db
    .updateTable("questions")
    .set({ status: "superseded", answered_at: now })
    .where("session_id", "=", input.sessionId)
    .where("status", "=", "open")
    .execute();
  const row = await db
    .insertInto("questions")
    .values({
      id: `q-${randomUUID()}`,
      session_id: input.sessionId,
      prompt: input.prompt,
      why: input.why ?? null,
      options: JSON.stringify(input.options ?? []),
      answer: null,
      answered_by: null,
      card_ref: null,
      created_at: now,
      answered_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toRow(row);
}

export async function openQuestion(db: Executor, sessionId: string): Promise<QuestionRow | undefined> {
  const row = await db
    .selectFrom("questions")
    .selectAll()
    .where("session_id", "=", sessionId)
    .where("status", "=", "open")
    .orderBy("created_at", "desc")
    .executeTakeFirst();
  return row ? toRow(row) : undefined;
}

/**
 * Answers the session's open question (the bot calls this with the operator's next message or option
 * pick; the agent turn does it too when a message arrived and the question is still open).
 */
export async function answerOpenQuestion(
  db: Executor,
  input: { sessionId: string; answer: string; by: string },
  now = new Date(),
): Promise<QuestionRow | undefined> {
  const row = await db
    .updateTable("questions")
    .set({ status: "answered", answer: input.answer, answered_by: input.by, answered_at: now })
    .where("session_id", "=", input.sessionId)
    .where("status", "=", "open")
    .returningAll()
    .executeTakeFirst();
  return row ? toRow(row) : undefined;
}

/** One question row by id, whatever its status. */
export async function getQuestion(db: Executor, id: string) {
  return db.selectFrom("questions").selectAll().where("id", "=", id).executeTakeFirst();
}
