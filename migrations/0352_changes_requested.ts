import type { Kysely } from "kysely";
import { executeStatements } from "./statements.ts";

// "Request changes" (issue #32): an operator answers a plan or an approval with what to do instead.
// The plan (or approval) is decided — it never runs — and carries the request: who, how, the reason
// and when ({by, via, reason, at}), which its card shows and the agent is given to revise its plan.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(db, DDL);
}

const DDL = `
    ALTER TABLE plans ADD COLUMN changes_requested jsonb;
    ALTER TABLE approvals ADD COLUMN changes_requested jsonb;
`;
