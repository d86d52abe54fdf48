import type { Kysely } from "kysely";
import { executeStatements } from "./statements.ts";

// complete_task's verification and what was left open, as columns of the session: the summary
// card reads them from here instead of parsing them back out of the knowledge text oikos wrote.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(db, DDL);
}

const DDL = `
    ALTER TABLE sessions ADD COLUMN verification text;
    ALTER TABLE sessions ADD COLUMN left_open text;
`;
