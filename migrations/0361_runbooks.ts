import type { Kysely } from "kysely";
import { executeStatements } from "./statements.ts";

// Runbooks linked to entities and symptoms (issue #33). The learning job records, per pattern, the
// entities its tasks touched and the symptom their goals share; an adopted runbook keeps the
// symptom (its `about` links are the entities), and every task it is offered to is counted once,
// so its use and how those tasks ended can be read back.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(db, DDL);
}

const DDL = `
    ALTER TABLE patterns ADD COLUMN entity_slugs jsonb NOT NULL DEFAULT '[]'::jsonb;
    ALTER TABLE patterns ADD COLUMN symptom jsonb NOT NULL DEFAULT '[]'::jsonb;
    ALTER TABLE knowledge ADD COLUMN symptom jsonb;
    CREATE TABLE runbook_offers (
      knowledge_id bigint NOT NULL REFERENCES knowledge(id) ON DELETE CASCADE,
      session_id text NOT NULL,
      entity_slug text NOT NULL,
      offered_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (knowledge_id, session_id)
    );
    CREATE INDEX runbook_offers_session ON runbook_offers (session_id);
`;
