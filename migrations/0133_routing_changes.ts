import type { Kysely } from "kysely";
import { executeStatements } from "./statements.ts";

// A routing change the agent asked for (change_routing): an approval with subject 'routing' whose
// card shows old → new; applied only when an operator approves it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(db, DDL);
}

const DDL = `
    CREATE TABLE routing_changes (
      approval_id text PRIMARY KEY REFERENCES approvals (id),
      entity_slug text NOT NULL,
      patch jsonb NOT NULL,
      before jsonb NOT NULL,
      after jsonb NOT NULL,
      reason text NOT NULL,
      requested_by text NOT NULL,
      applied_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
`;
