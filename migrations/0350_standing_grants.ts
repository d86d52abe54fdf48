import type { Kysely } from "kysely";
import { executeStatements } from "./statements.ts";

// Standing grants (issue #32): an operator approves one execution and lets the very same command
// run again on the same target, unasked, until the grant expires, is revoked, or the command's
// routing, proof or jail state changes. `basis` is policy/standing-grant.ts GrantBasis. An approval
// records the basis a grant of it would have (null: not grantable); each use is an approval row
// decided by the grant (`standing_grant_id`), linked to its execution like any other.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(db, DDL);
}

const DDL = `
    CREATE TABLE standing_grants (
      id text PRIMARY KEY,
      target text NOT NULL,
      command text NOT NULL,
      risk text NOT NULL,
      basis jsonb NOT NULL,
      granted_by text NOT NULL,
      granted_via text NOT NULL,
      approval_id text NOT NULL,
      session_id text NOT NULL,
      platform text NOT NULL,
      room text NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      ended_at timestamptz,
      ended_by text,
      end_reason text,
      uses integer NOT NULL DEFAULT 0,
      last_used_at timestamptz
    );
    CREATE INDEX standing_grants_command ON standing_grants (target, command) WHERE ended_at IS NULL;
    ALTER TABLE approvals ADD COLUMN grant_basis jsonb;
    ALTER TABLE approvals ADD COLUMN standing_grant_id text;
`;
