import { z } from "zod";
import { type OutcomeCheck, type PlanPreview, PlanPreviewSchema } from "../policy/preview/types.ts";
import type { Executor } from "./audit.ts";
import type { JsonObject } from "./schema.ts";
import type { PreviewPurpose } from "./statuses.ts";

/** The channel of an approval closed because its preview changed before it could go through. */
export const PREVIEW_CHANNEL = "preview";

/**
 * Plan previews as recorded (migrations/0150): what an approval card showed (`shown`), what was
 * computed again when the operator approved (`recheck`, with the gate's decision), and after the
 * run the comparison with the outcome. The audit reads exactly what the operator saw from here.
 */
export interface RecordedPreview {
  id: string;
  executionId: string;
  approvalId: string | null;
  preview: PlanPreview;
  outcome: OutcomeCheck[] | null;
}

export interface NewPreviewRow {
  sessionId: string;
  executionId: string;
  approvalId: string | null;
  purpose: PreviewPurpose;
  preview: PlanPreview;
  decision?: string;
}

export async function recordPreview(db: Executor, row: NewPreviewRow): Promise<string> {
  const inserted = await db
    .insertInto("previews")
    .values({
      session_id: row.sessionId,
      execution_id: row.executionId,
      approval_id: row.approvalId,
      purpose: row.purpose,
      status: row.preview.status,
      preview: JSON.stringify(row.preview),
      computed_at: row.preview.computedAt,
      decision: row.decision ?? null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return String(inserted.id);
}

/** The preview an approval card shows: the latest `shown` row of that approval, or none. */
export function shownPreviewOfApproval(
  db: Executor,
  approvalId: string,
): Promise<RecordedPreview | undefined> {
  return latestShown(db, "approval_id", approvalId);
}

/** The preview the operator approved an execution on: its latest `shown` row. */
export function shownPreviewOfExecution(
  db: Executor,
  executionId: string,
): Promise<RecordedPreview | undefined> {
  return latestShown(db, "execution_id", executionId);
}

async function latestShown(
  db: Executor,
  column: "approval_id" | "execution_id",
  id: string,
): Promise<RecordedPreview | undefined> {
  const row = await db
    .selectFrom("previews")
    .select(["id", "execution_id", "approval_id", "preview", "outcome"])
    .where(column, "=", id)
    .where("purpose", "=", "shown")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? readRow(row) : undefined;
}

/** An approval's shown preview with where it was asked (the console's `!preview <approval>`). */
export interface ConsolePreview {
  approvalId: string;
  command: string | null;
  target: string | null;
  platform: string;
  room: string;
  preview: RecordedPreview;
}

/** The preview an approval card showed, found by the approval's id or its first characters (8 at least). */
export async function shownPreviewForConsole(
  db: Executor,
  idOrPrefix: string,
): Promise<ConsolePreview | { ambiguous: string[] } | undefined> {
  if (idOrPrefix.length < 8 || !/^[0-9A-Za-z_-]+$/.test(idOrPrefix)) return undefined;
  const matches = await db
    .selectFrom("approvals")
    .innerJoin("sessions", "sessions.id", "approvals.session_id")
    .leftJoin("executions", "executions.id", "approvals.execution_id")
    .select(["approvals.id", "approvals.target", "executions.command", "sessions.platform", "sessions.room"])
    .where("approvals.id", "like", `${idOrPrefix}%`)
    .limit(5)
    .execute();
  if (matches.length > 1) return { ambiguous: matches.map((m) => m.id) };
  const [match] = matches;
  if (!match) return undefined;
  const preview = await shownPreviewOfApproval(db, match.id);
  if (!preview) return undefined;
  return {
    approvalId: match.id,
    command: match.command,
    target: match.target,
    platform: match.platform,
    room: match.room,
    preview,
  };
}

/** Whether an earlier approval of this execution was closed because its preview changed (asked again). */
export async function previewAskedAgainBefore(
  db: Executor,
  executionId: string,
  approvalId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom("approvals")
    .select("id")
    .where("execution_id", "=", executionId)
    .where("id", "!=", approvalId)
    .where("status", "=", "cancelled")
    .where("channel", "=", PREVIEW_CHANNEL)
    .executeTakeFirst();
  return row !== undefined;
}

/** Every after-run comparison recorded for a session's executions, oldest first (the summary card). */
export async function outcomeChecksOfSession(
  db: Executor,
  sessionId: string,
): Promise<{ executionId: string; checks: OutcomeCheck[] }[]> {
  const rows = await db
    .selectFrom("previews")
    .select(["execution_id", "outcome"])
    .where("session_id", "=", sessionId)
    .where("purpose", "=", "shown")
    .where("outcome", "is not", null)
    .orderBy("id")
    .execute();
  return rows.flatMap((row) => {
    const checks = readOutcome(row.outcome);
    return checks ? [{ executionId: row.execution_id, checks }] : [];
  });
}

/** The after-run comparison, once per preview row (a second check of the same run changes nothing). */
export async function recordOutcomeCheck(
  db: Executor,
  previewId: string,
  checks: OutcomeCheck[],
  now = new Date(),
): Promise<boolean> {
  const updated = await db
    .updateTable("previews")
    .set({ outcome: JSON.stringify(checks), outcome_at: now })
    .where("id", "=", previewId)
    .where("outcome", "is", null)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

function readRow(row: {
  id: string | number | bigint;
  execution_id: string;
  approval_id: string | null;
  preview: JsonObject;
  outcome: JsonObject[] | null;
}): RecordedPreview | undefined {
  // Read back through the schema (a boundary): a row that does not parse shows as no preview.
  const parsed = PlanPreviewSchema.safeParse(row.preview);
  if (!parsed.success) return undefined;
  return {
    id: String(row.id),
    executionId: row.execution_id,
    approvalId: row.approval_id,
    preview: parsed.data,
    outcome: row.outcome === null ? null : readOutcome(row.outcome),
  };
}

const OutcomeCheckSchema = z.object({
  status: z.enum(["matches", "differs", "unchecked"]),
  detail: z.string(),
});

/** The stored comparison, read back through its shape; one that does not parse reads as none. */
function readOutcome(value: unknown): OutcomeCheck[] | null {
  const parsed = z.array(OutcomeCheckSchema).safeParse(value);
  return parsed.success ? parsed.data : null;
}
