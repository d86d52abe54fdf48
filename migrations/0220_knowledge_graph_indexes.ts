import type { Kysely } from "kysely";
import { executeStatements } from "./statements.ts";

// Indexes for a big knowledge graph (10,000 entities, 50,000 documents): search_knowledge's title
// substring fallback (`title ILIKE '%…%'`) read every row of knowledge — a trigram GIN index lets
// it join the full-text match as a BitmapOr of two index scans. PGlite loads pg_trgm in
// store/connect.ts; on Postgres pg_trgm is a trusted extension (a database owner may create it).
// Entity hints look up the latest finished execution per target: index it instead of scanning
// the execution history.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(db, DDL);
}

const DDL = `
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
    CREATE INDEX knowledge_title_trgm ON knowledge USING gin (title gin_trgm_ops);
    CREATE INDEX executions_target_finished ON executions (target, finished_at);
`;
