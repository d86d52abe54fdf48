import type { Kysely } from "kysely";
import { executeStatements } from "./statements.ts";

// Command output is bytes from the target: a stream that was mostly binary is stored as a printable
// preview, and these flags say so (the preview's text is never parsed for it).
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(db, DDL);
}

const DDL = `
    ALTER TABLE executions ADD COLUMN stdout_binary boolean NOT NULL DEFAULT false;
    ALTER TABLE executions ADD COLUMN stderr_binary boolean NOT NULL DEFAULT false;
`;
