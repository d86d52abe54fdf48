import type { ChatHarness } from "./chat-harness.ts";

/** The audit log rows with this action (and actor, when given), oldest first. */
export function auditEntries(h: ChatHarness, filter: { action: string; actor?: string }) {
  let query = h.store.db.selectFrom("audit_log").selectAll().where("action", "=", filter.action);
  if (filter.actor !== undefined) query = query.where("actor", "=", filter.actor);
  return query.orderBy("id").execute();
}
