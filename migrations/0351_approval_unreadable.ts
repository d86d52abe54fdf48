import type { Kysely } from "kysely";
import { executeStatements } from "./statements.ts";

// Why oikos cannot tell what an approval's command changes (policy/unreadable.ts UnreadableKind,
// issue #32): carried from the run gate's classification to the approval, so its card says so in
// words ("cannot tell what this does"). Null: oikos read it, or a row from before.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(db, DDL);
}

const DDL = `
    ALTER TABLE approvals ADD COLUMN unreadable text;
`;
