import type { Kysely } from "kysely";
import { executeStatements } from "./statements.ts";

// The chat bot's own state. chat_cards maps a posted card (platform message id) back to what it
// shows, so a reaction or button click is resolved from the database, never from memory.
// chat_refusals remembers when a stranger was last told "no", for one refusal per user per hour.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(db, DDL);
}

const DDL = `
    CREATE TABLE chat_cards (
      platform text NOT NULL,
      message_id text NOT NULL,
      room text NOT NULL,
      thread text,
      kind text NOT NULL,
      session_id text REFERENCES sessions(id) ON DELETE CASCADE,
      subject_id text NOT NULL,
      decision_note text,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (platform, message_id)
    );
    CREATE UNIQUE INDEX chat_cards_subject ON chat_cards (platform, kind, subject_id);

    CREATE TABLE chat_refusals (
      platform text NOT NULL,
      user_id text NOT NULL,
      refused_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (platform, user_id)
    );
`;
