import type { Kysely } from "kysely";
import { executeStatements } from "./statements.ts";

// A chat event redelivered after a crash (between storing the operator's message and marking the
// event done) must not become a second message: one row per session and platform event id.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(db, DDL);
}

const DDL = `
    CREATE UNIQUE INDEX messages_session_platform_event
      ON messages (session_id, platform_event_id) WHERE platform_event_id IS NOT NULL;
`;
