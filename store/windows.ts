import type { Executor } from "./audit.ts";

/**
 * Consent windows. `assent`: the session's approved plan lets config_mutation run (target '').
 * `destructive`: one target of one session, opened only by a typed confirmation or the explicit
 * approval of a destructive execution. A window is always looked up by session: none leaks.
 */
import type { WindowKind } from "./statuses.ts";

export type { WindowKind } from "./statuses.ts";

export const DEFAULT_ASSENT_WINDOW_MS = 2 * 60 * 60_000;
export const DESTRUCTIVE_WINDOW_MS = 15 * 60_000;

export interface OpenWindow {
  sessionId: string;
  kind: WindowKind;
  target?: string;
  openedBy: string;
  channel: string;
  expiresAt: Date;
}

/** Opens (or renews) the window; one row per session + kind + target. */
export async function openWindow(db: Executor, input: OpenWindow, now = new Date()): Promise<void> {
  const target = input.kind === "assent" ? "" : (input.target ?? "");
  if (input.kind === "destructive" && target === "") throw new Error("a destructive window needs a target");
  await db
    .insertInto("windows")
    .values({
      session_id: input.sessionId,
      kind: input.kind,
      target,
      opened_by: input.openedBy,
      channel: input.channel,
      opened_at: now,
      expires_at: input.expiresAt,
    })
    .onConflict((oc) =>
      oc.columns(["session_id", "kind", "target"]).doUpdateSet({
        opened_by: input.openedBy,
        channel: input.channel,
        opened_at: now,
        expires_at: input.expiresAt,
      }),
    )
    .execute();
}

/** Whether the session has an unexpired window of this kind (for this target, if destructive). */
export async function hasOpenWindow(
  db: Executor,
  query: { sessionId: string | null; kind: WindowKind; target?: string },
  now = new Date(),
): Promise<boolean> {
  if (!query.sessionId) return false; // missing session id: no window, ever
  const row = await db
    .selectFrom("windows")
    .select("id")
    .where("session_id", "=", query.sessionId)
    .where("kind", "=", query.kind)
    .where("target", "=", query.kind === "assent" ? "" : (query.target ?? ""))
    .where("expires_at", ">", now)
    .executeTakeFirst();
  return row !== undefined;
}

/** Closes every window of a session (task completed, plan superseded); returns how many. */
export async function closeWindows(db: Executor, sessionId: string, kind?: WindowKind): Promise<number> {
  let query = db.deleteFrom("windows").where("session_id", "=", sessionId);
  if (kind) query = query.where("kind", "=", kind);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}
