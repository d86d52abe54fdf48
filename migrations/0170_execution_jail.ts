import type { Kysely } from "kysely";
import { executeStatements } from "./statements.ts";

// The read-only jail (policy/jail.ts): how the gate meant an execution to run (jail_plan: prefer,
// require or off), whether it then ran inside the jail (null until it ran), and why not.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(db, DDL);
}

const DDL = `
    ALTER TABLE executions ADD COLUMN jail_plan text NOT NULL DEFAULT 'off';
    ALTER TABLE executions ADD COLUMN jailed boolean;
    ALTER TABLE executions ADD COLUMN jail_note text;
`;
