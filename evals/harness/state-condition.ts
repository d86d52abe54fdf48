import type { Kysely } from "kysely";
import type { Database } from "../../store/schema.ts";
import type { CardKind } from "../../store/statuses.ts";
import type { Homelab } from "../lab/homelab.ts";
import type { StateCondition } from "./operator-schema.ts";
import { BOT, type EvalSystem } from "./system.ts";

/** Whether every key of a `when:` condition holds now, in the session of its thread. */
export async function conditionHolds(
  system: EvalSystem,
  homelab: Homelab,
  sessionId: string,
  condition: StateCondition,
): Promise<boolean> {
  const db = system.store.db;
  if (condition.card && !(await awaitsDecision(db, condition.card, sessionId))) return false;
  if (condition.status !== undefined) {
    const row = await db
      .selectFrom("sessions")
      .select("status")
      .where("id", "=", sessionId)
      .executeTakeFirst();
    if (!row || !new RegExp(`^(${condition.status})$`).test(row.status)) return false;
  }
  if (condition.execution !== undefined) {
    const pattern = new RegExp(`^(${condition.execution})$`);
    const rows = await db
      .selectFrom("executions")
      .select("status")
      .where("session_id", "=", sessionId)
      .execute();
    if (!rows.some((r) => pattern.test(r.status))) return false;
  }
  if (condition.posted !== undefined) {
    const wanted = condition.posted.toLowerCase();
    const posts = system.double.sentBy(BOT).map((e) => String(e.content.body ?? "").toLowerCase());
    if (!posts.some((p) => p.includes(wanted))) return false;
  }
  if (condition.phrase !== undefined) {
    const asking = await db
      .selectFrom("approvals")
      .select("id")
      .where("session_id", "=", sessionId)
      .where("status", "=", "pending")
      .where("required_phrase", "is not", null)
      .executeTakeFirst();
    if ((asking !== undefined) !== condition.phrase) return false;
  }
  for (const [host, vars] of Object.entries(condition.world ?? {})) {
    const actual = await homelab.vars(host);
    if (Object.entries(vars).some(([key, value]) => String(actual[key]) !== String(value))) return false;
  }
  return true;
}

/** Where a card kind's pending decision is stored, and the status that means "not decided yet". */
const UNDECIDED: Partial<Record<CardKind, { table: "plans" | "approvals" | "questions"; status: string }>> = {
  plan: { table: "plans", status: "proposed" },
  approval: { table: "approvals", status: "pending" },
  question: { table: "questions", status: "open" },
};

/** A card of this kind in the session still waits for the operator (other kinds only have to exist). */
async function awaitsDecision(db: Kysely<Database>, kind: CardKind, sessionId: string): Promise<boolean> {
  const undecided = UNDECIDED[kind];
  if (undecided) {
    const { table, status } = undecided;
    const pending = await db
      .selectFrom(table)
      .select("session_id")
      .where("session_id", "=", sessionId)
      .where("status", "=", status as never)
      .executeTakeFirst();
    if (!pending) return false;
  }
  const card = await db
    .selectFrom("chat_cards")
    .select("message_id")
    .where("session_id", "=", sessionId)
    .where("kind", "=", kind)
    .executeTakeFirst();
  return card !== undefined;
}
