import type { Kysely } from "kysely";
import { executeStatements } from "./statements.ts";

// Executions: a running command can be asked to stop (the worker's heartbeat sees the request),
// and the sweeps look rows up by state and heartbeat / expiry.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(db, DDL);
}

const DDL = `
    ALTER TABLE executions ADD COLUMN cancel_requested_at timestamptz;
    ALTER TABLE executions ADD COLUMN cancel_requested_by text;
    CREATE INDEX executions_status_heartbeat ON executions (status, heartbeat_at);
    CREATE INDEX approvals_status_expiry ON approvals (status, expires_at);
    CREATE INDEX classifications_session ON classifications (session_id, created_at);
`;
