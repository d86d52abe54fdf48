import type { Kysely } from "kysely";
import { executeStatements } from "./statements.ts";

// A session belongs to the principal that created it (policy/principal.ts). Every session before
// this one was created for chat, alerts or schedules, which the agent serves: 'agent'.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(db, DDL);
}

const DDL = `
    ALTER TABLE sessions ADD COLUMN principal text NOT NULL DEFAULT 'agent';
`;
