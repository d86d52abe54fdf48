import type { Kysely } from "kysely";
import { executeStatements } from "./statements.ts";

// The in-process queue journal keeps each job's retry backoff so a restart honours it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(db, DDL);
}

const DDL = `
    ALTER TABLE queue_jobs ADD COLUMN backoff_ms integer NOT NULL DEFAULT 1000;
`;
