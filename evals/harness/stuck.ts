import type { Kysely } from "kysely";
import { z } from "zod";
import type { Database } from "../../store/schema.ts";
import { checkCount, count } from "./count.ts";

/**
 * `expect.stuck:` what is left non-terminal once the scenario settled, by kind, each with its state
 * and age in the failure, instead of a bare "timed out waiting for …":
 * - executions: approved, queued or running (the system owes an end);
 * - approvals: pending (the operator owes a decision);
 * - steps: plan steps still running;
 * - turns: sessions whose agent turn is still held.
 * `stuck: none` is all four at 0; otherwise a count per kind (`{ executions: 1 }` asserts one is left).
 */
const STUCK_KINDS = ["executions", "approvals", "steps", "turns"] as const;
type StuckKind = (typeof STUCK_KINDS)[number];

const perKind = z
  .object({ executions: count, approvals: count, steps: count, turns: count })
  .partial()
  .strict();
export const stuckSpec = z.preprocess(
  (value) => (value === "none" ? { executions: 0, approvals: 0, steps: 0, turns: 0 } : value),
  perKind,
);
export type StuckSpec = z.infer<typeof stuckSpec>;

const ageOf = (since: Date | string | null | undefined, now: number) =>
  since ? `${Math.round((now - new Date(since).getTime()) / 1000)} s` : "?";

/** Every non-terminal thing, as one readable line each, by kind. */
export async function readStuck(
  db: Kysely<Database>,
  now = Date.now(),
): Promise<Record<StuckKind, string[]>> {
  const executions = await db
    .selectFrom("executions")
    .select(["id", "status", "target", "command", "created_at", "started_at", "heartbeat_at"])
    .where("status", "in", ["approved", "queued", "running"])
    .execute();
  const approvals = await db
    .selectFrom("approvals")
    .select(["id", "execution_id", "created_at"])
    .where("status", "=", "pending")
    .execute();
  const steps = await db
    .selectFrom("plan_steps")
    .select(["seq", "title", "started_at"])
    .where("status", "=", "running")
    .execute();
  const turns = await db
    .selectFrom("sessions")
    .select(["id", "status", "turn_expires_at"])
    .where("turn_owner", "is not", null)
    .execute();
  return {
    executions: executions.map(
      (e) =>
        `execution ${e.id} \`${e.command}\` on ${e.target} ${e.status} for ${ageOf(e.started_at ?? e.created_at, now)}` +
        (e.heartbeat_at ? ` (last heartbeat ${ageOf(e.heartbeat_at, now)} ago)` : " (no heartbeat)"),
    ),
    approvals: approvals.map(
      (a) => `approval ${a.id} for ${a.execution_id ?? "?"} pending for ${ageOf(a.created_at, now)}`,
    ),
    steps: steps.map((s) => `plan step ${s.seq} "${s.title}" running for ${ageOf(s.started_at, now)}`),
    turns: turns.map((t) => `session ${t.id} (${t.status}) still holds its agent turn`),
  };
}

export function checkStuck(
  spec: StuckSpec | undefined,
  stuck: Record<StuckKind, string[]>,
  failures: string[],
): void {
  if (!spec) return;
  for (const kind of STUCK_KINDS) {
    const before = failures.length;
    checkCount(`${kind} left non-terminal`, stuck[kind].length, spec[kind], failures);
    if (failures.length > before) failures.push(...stuck[kind].map((line) => `  left: ${line}`));
  }
}

/** After a timed-out wait: what was left hanging, so the failure says more than what it waited for. */
export function stuckReport(stuck: Record<StuckKind, string[]>): string[] {
  return STUCK_KINDS.flatMap((kind) => stuck[kind].map((line) => `left non-terminal: ${line}`));
}
