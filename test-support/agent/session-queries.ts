import assert from "node:assert/strict";
import { approvePlan, type ConsentVia } from "../../store/consent.ts";
import { executionFinished } from "../../store/domain-events.ts";
import type { AgentHarness } from "./agent-harness.ts";
import { waitFor } from "./wait-for.ts";

/** Read-backs of one session's rows, so a test states what it expects rather than how to query it. */

export function sessionRow(h: AgentHarness, sessionId: string) {
  return h.store.db.selectFrom("sessions").selectAll().where("id", "=", sessionId).executeTakeFirstOrThrow();
}

export function planSteps(h: AgentHarness, sessionId: string) {
  return h.store.db
    .selectFrom("plan_steps")
    .selectAll()
    .where("session_id", "=", sessionId)
    .orderBy("seq")
    .execute();
}

export function planStep(h: AgentHarness, sessionId: string, seq: number) {
  return h.store.db
    .selectFrom("plan_steps")
    .selectAll()
    .where("session_id", "=", sessionId)
    .where("seq", "=", seq)
    .executeTakeFirstOrThrow();
}

export function sessionExecutions(h: AgentHarness, sessionId: string) {
  return h.store.db.selectFrom("executions").selectAll().where("session_id", "=", sessionId).execute();
}

export function sessionFeedback(h: AgentHarness, sessionId: string) {
  return h.store.db.selectFrom("feedback").selectAll().where("session_id", "=", sessionId).execute();
}

/** Every result `tool` returned in this session, oldest first. */
export async function toolResults(h: AgentHarness, sessionId: string, tool: string): Promise<string[]> {
  const rows = await h.store.db
    .selectFrom("messages")
    .select("content")
    .where("session_id", "=", sessionId)
    .where("role", "=", "tool")
    .where("name", "=", tool)
    .orderBy("id")
    .execute();
  return rows.map((r) => r.content);
}

/** The latest result `tool` returned in this session; throws when it never ran. */
export async function lastToolResult(h: AgentHarness, sessionId: string, tool: string): Promise<string> {
  const last = (await toolResults(h, sessionId, tool)).at(-1);
  assert.ok(last !== undefined, `no ${tool} result in session ${sessionId}`);
  return last;
}

/** Waits until no turn holds the session (a queued turn or continuation finished). */
export async function turnReleased(h: AgentHarness, sessionId: string): Promise<void> {
  await waitFor(async () => (await sessionRow(h, sessionId)).turn_owner === null);
}

/** The operator approves plan `generation` (by reaction unless `via` says otherwise); asserts it was accepted. */
export async function approvePlanAsOperator(
  h: AgentHarness,
  sessionId: string,
  options: { generation?: number; by?: string; via?: ConsentVia } = {},
): Promise<void> {
  const decided = await approvePlan(h.store.db, {
    sessionId,
    generation: options.generation ?? 1,
    by: options.by ?? "operator",
    via: options.via ?? "reaction",
  });
  assert.equal(decided.ok, true, `plan ${options.generation ?? 1} of ${sessionId} was not approved`);
}

/** An execution of `sessionId` on lxc:gitea as a worker would leave it (tests that move its state by hand). */
export async function insertExecution(
  h: AgentHarness,
  sessionId: string,
  row: { command: string; status: "running" | "completed" },
): Promise<string> {
  const id = `ex-${sessionId.slice(0, 8)}`;
  await h.store.db
    .insertInto("executions")
    .values({
      id,
      session_id: sessionId,
      target: "lxc:gitea",
      command: row.command,
      command_key: "k",
      risk: "read_only",
      status: row.status,
      requested_by: "agent",
      timeout_ms: 60_000,
      ...(row.status === "completed" ? { finished_at: new Date() } : {}),
    })
    .execute();
  return id;
}

/** The execution completes with `stdout`, and execution.finished is published as the worker does. */
export async function completeExecution(h: AgentHarness, executionId: string, stdout: string): Promise<void> {
  const row = await h.store.db
    .updateTable("executions")
    .set({ status: "completed", exit_code: 0, stdout, finished_at: new Date() })
    .where("id", "=", executionId)
    .returningAll()
    .executeTakeFirstOrThrow();
  await h.events.publish(executionFinished(row, "completed"));
}
