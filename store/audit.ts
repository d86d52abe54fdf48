import type { Kysely, Transaction } from "kysely";
import type { Database, JsonObject } from "./schema.ts";

export type Executor = Kysely<Database> | Transaction<Database>;

/** Who performed a write: the actor (agent, operator, importer) and the oikos session, when there is one. */
export interface WriteContext {
  by: string;
  sessionId?: string | null;
}

export interface AuditRecord {
  action: string;
  subject: string | null;
  details?: JsonObject;
}

/** Appends one row to audit_log; call it inside the transaction of the write it describes. */
export async function recordAudit(db: Executor, context: WriteContext, record: AuditRecord): Promise<void> {
  await db
    .insertInto("audit_log")
    .values({
      actor: context.by,
      session_id: context.sessionId ?? null,
      action: record.action,
      subject: record.subject,
      details: JSON.stringify(record.details ?? {}),
    })
    .execute();
}
