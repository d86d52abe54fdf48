import type { Kysely } from "kysely";
import { executeStatements } from "./statements.ts";

// Plan previews (issue #15): every preview an operator was shown on an approval card ('shown') and
// every one computed again when they approved ('recheck', with what the gate decided), so the audit
// shows exactly what was seen; after the run, the comparison of the outcome with the preview.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(db, DDL);
}

const DDL = `
    CREATE TABLE previews (
      id bigserial PRIMARY KEY,
      session_id text NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      execution_id text NOT NULL REFERENCES executions (id) ON DELETE CASCADE,
      approval_id text REFERENCES approvals (id) ON DELETE CASCADE,
      purpose text NOT NULL CHECK (purpose IN ('shown', 'recheck')),
      status text NOT NULL CHECK (status IN ('available', 'unavailable', 'failed')),
      preview jsonb NOT NULL,
      computed_at timestamptz NOT NULL,
      decision text,
      outcome jsonb,
      outcome_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX previews_approval ON previews (approval_id, id);
    CREATE INDEX previews_execution ON previews (execution_id, id);
`;
