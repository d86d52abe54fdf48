import type { Kysely } from "kysely";
import { executeStatements } from "./statements.ts";

// Agent turns: a lease on the session row so only one turn runs per session across processes
// (turn_pending merges requests that arrive meanwhile), and the moment a finished session was reopened
// (propose_plan after a reopen needs a set_goal newer than it), and the newest message the model has seen
// (a message stored while a model call was in flight is still new input afterwards).
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(db, DDL);
}

const DDL = `
    ALTER TABLE sessions ADD COLUMN turn_owner text;
    ALTER TABLE sessions ADD COLUMN turn_expires_at timestamptz;
    ALTER TABLE sessions ADD COLUMN turn_pending boolean NOT NULL DEFAULT false;
    ALTER TABLE sessions ADD COLUMN reopened_at timestamptz;
    ALTER TABLE sessions ADD COLUMN seen_message_id bigint;
    CREATE INDEX plan_steps_execution ON plan_steps (execution_id) WHERE execution_id IS NOT NULL;
    CREATE INDEX feedback_created ON feedback (created_at);
    CREATE INDEX token_usage_session ON token_usage (session_id, created_at);
`;
