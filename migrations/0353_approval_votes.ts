import type { Kysely } from "kysely";
import { executeStatements } from "./statements.ts";

// Quorum (issue #32): each person's approval of an execution that needs more than one
// (approvals.rules), one row per person, and the quorum the approval was judged against
// (policy/quorum.ts Quorum with the requester), so its card shows "1 of 2 approvals — waiting for …".
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(db, DDL);
}

const DDL = `
    CREATE TABLE approval_votes (
      approval_id text NOT NULL,
      voter text NOT NULL,
      via text NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (approval_id, voter)
    );
    ALTER TABLE approvals ADD COLUMN quorum jsonb;
`;
