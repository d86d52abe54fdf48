import type { Kysely } from "kysely";
import { executeStatements } from "./statements.ts";

// The agent was told this execution is still running (run / run_many / get_execution_status
// answered before it ended, or a restart re-attached a run in flight): its result is owed to the
// session, and execution.finished continues the session with it whether or not a plan is approved.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(db, DDL);
}

const DDL = `
    ALTER TABLE executions ADD COLUMN result_owed boolean NOT NULL DEFAULT false;
`;
