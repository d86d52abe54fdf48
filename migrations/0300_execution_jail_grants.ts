import type { Kysely } from "kysely";
import { executeStatements } from "./statements.ts";

// The read-only jail, contained by default (issue #27): the grants a read-only execution runs with
// (policy/jail-grant.ts, from its proof; [] = fully contained), the engine that held it, and what the
// jail hid from it that it seems to have needed (policy/jail-hidden.ts). Null on rows from before.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(db, DDL);
}

const DDL = `
    ALTER TABLE executions ADD COLUMN jail_grants jsonb;
    ALTER TABLE executions ADD COLUMN jail_engine text;
    ALTER TABLE executions ADD COLUMN jail_hidden jsonb;
`;
