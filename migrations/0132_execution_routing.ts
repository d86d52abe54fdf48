import type { Kysely } from "kysely";
import { executeStatements } from "./statements.ts";

// The routing an execution was approved for (the resolved target: transport, endpoint, owning host,
// guest id). The worker refuses to run it elsewhere. Rows from before this migration have none.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(db, DDL);
}

const DDL = `
    ALTER TABLE executions ADD COLUMN routing jsonb;
`;
