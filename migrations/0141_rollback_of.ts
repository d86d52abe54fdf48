import type { Kysely } from "kysely";
import { executeStatements } from "./statements.ts";

// A rollback is an execution of its own (destructive, typed confirmation) that names the execution
// whose snapshot it restores; when it completes, that execution's snapshot is marked rolled back.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(db, DDL);
}

const DDL = `
    ALTER TABLE executions ADD COLUMN rollback_of text REFERENCES executions (id);
    CREATE INDEX executions_rollback_of ON executions (rollback_of) WHERE rollback_of IS NOT NULL;
`;
