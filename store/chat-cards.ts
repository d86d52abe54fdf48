import type { Kysely, Selectable } from "kysely";
import type { ChatCardsTable, Database } from "./schema.ts";
import type { CardKind } from "./statuses.ts";

export type { CardKind } from "./statuses.ts";

/** Where a posted message lives on its platform (the bot's MessageRef has this shape). */
export interface PostedMessageRef {
  platform: string;
  room: string;
  messageId: string;
  /** Thread root the message was posted in; null for a top-level message. */
  thread: string | null;
}

export interface CardRecord {
  ref: PostedMessageRef;
  kind: CardKind;
  sessionId: string | null;
  /** plan: `<sessionId>:<generation>`; approval: approval id; question: question id. */
  subjectId: string;
  decisionNote: string | null;
}

export function planSubject(sessionId: string, generation: number): string {
  return `${sessionId}:${generation}`;
}

/**
 * Where each card was posted, both ways: by message id (a reaction arrives → which card?) and
 * by subject (an execution finished → which card to edit?). The subject rows (plans,
 * approvals, questions) also get `card_ref`, so any reader can find the card after a restart.
 */
export class CardRefs {
  readonly #db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  async save(card: Omit<CardRecord, "decisionNote">): Promise<void> {
    const { ref } = card;
    await this.#db
      .insertInto("chat_cards")
      .values({
        platform: ref.platform,
        message_id: ref.messageId,
        room: ref.room,
        thread: ref.thread,
        kind: card.kind,
        session_id: card.sessionId,
        subject_id: card.subjectId,
      })
      .onConflict((oc) => oc.columns(["platform", "message_id"]).doNothing())
      .execute();
    const json = JSON.stringify(ref);
    if (card.kind === "plan") {
      const [sessionId, generation] = splitPlanSubject(card.subjectId);
      await this.#db
        .updateTable("plans")
        .set({ card_ref: json })
        .where("session_id", "=", sessionId)
        .where("generation", "=", generation)
        .execute();
    } else if (card.kind === "approval") {
      await this.#db
        .updateTable("approvals")
        .set({ card_ref: json })
        .where("id", "=", card.subjectId)
        .execute();
    } else if (card.kind === "question") {
      await this.#db
        .updateTable("questions")
        .set({ card_ref: json })
        .where("id", "=", card.subjectId)
        .execute();
    }
  }

  async byMessage(platform: string, messageId: string): Promise<CardRecord | undefined> {
    const row = await this.#db
      .selectFrom("chat_cards")
      .selectAll()
      .where("platform", "=", platform)
      .where("message_id", "=", messageId)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  async bySubject(platform: string, kind: CardKind, subjectId: string): Promise<CardRecord | undefined> {
    const row = await this.#db
      .selectFrom("chat_cards")
      .selectAll()
      .where("platform", "=", platform)
      .where("kind", "=", kind)
      .where("subject_id", "=", subjectId)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  async noteDecision(ref: PostedMessageRef, note: string): Promise<void> {
    await this.#db
      .updateTable("chat_cards")
      .set({ decision_note: note })
      .where("platform", "=", ref.platform)
      .where("message_id", "=", ref.messageId)
      .execute();
  }
}

export function splitPlanSubject(subject: string): [string, number] {
  const at = subject.lastIndexOf(":");
  return [subject.slice(0, at), Number(subject.slice(at + 1))];
}

function toRecord(row: Omit<Selectable<ChatCardsTable>, "created_at">): CardRecord {
  return {
    ref: { platform: row.platform, room: row.room, messageId: row.message_id, thread: row.thread },
    kind: row.kind,
    sessionId: row.session_id,
    subjectId: row.subject_id,
    decisionNote: row.decision_note,
  };
}

/** Whether a card of this kind was posted for the session (on any platform). */
export async function hasSessionCard(
  db: Kysely<Database>,
  sessionId: string,
  kind: CardKind,
): Promise<boolean> {
  const row = await db
    .selectFrom("chat_cards")
    .select("message_id")
    .where("session_id", "=", sessionId)
    .where("kind", "=", kind)
    .executeTakeFirst();
  return row !== undefined;
}
