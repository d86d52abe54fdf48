import type { SweepContext, SweepItem } from "../jobs/sweeps/registry.ts";
import { registerSweep, sweepItem } from "../jobs/sweeps/registry.ts";
import { AGENT_PRINCIPAL } from "../policy/principal.ts";
import { agentMessage } from "../store/domain-events.ts";
import { appendMessage, lastAgentReply } from "../store/messages.ts";
import { idleExecutingSessions, markNudged } from "../store/sessions.ts";
import { completeSessionTask } from "../store/task-completion.ts";
import { resumeOwedTurns } from "./resume.ts";
import { reportUnreportedCompletions } from "./unreported-completions.ts";

/** Idle this long → one nudge turn; idle this long again after the nudge → closed as partial. */
export const IDLE_MS = 2 * 60_000;

/**
 * The idle sweep: an `executing` session with no activity gets one nudge turn; still idle after that,
 * it is closed as partial (with the full complete_task cascade) and the operator sees why. Sessions
 * waiting for an approval, an answer or a running command are never touched, nor is one mid-turn.
 */
export async function sweepIdleSessions(
  ctx: Pick<SweepContext, "db" | "events" | "queue" | "now">,
  options: { idleMs?: number; skip?: readonly string[] } = {},
): Promise<SweepItem[]> {
  const idleMs = options.idleMs ?? IDLE_MS;
  const skip = new Set(options.skip ?? []);
  const cutoff = new Date(ctx.now.getTime() - idleMs);
  const candidates = await idleExecutingSessions(ctx.db, {
    // an outside client's session is its own to drive: the agent never nudges it
    principal: AGENT_PRINCIPAL.id,
    cutoff,
    now: ctx.now,
  });
  const items: SweepItem[] = [];
  for (const session of candidates) {
    if (skip.has(session.id)) continue;
    const item = await sweepItem(`session:${session.id}`, () =>
      session.nudged_at === null
        ? nudge(ctx, session.id)
        : session.nudged_at <= cutoff
          ? close(ctx, session.id, idleMs)
          : Promise.resolve(null),
    );
    if (item) items.push(item);
  }
  return items;
}

async function nudge(
  ctx: Pick<SweepContext, "db" | "queue" | "now">,
  sessionId: string,
): Promise<string | null> {
  if (!(await markNudged(ctx.db, sessionId, ctx.now))) return null;
  await ctx.queue.enqueue("agent-turn", { sessionId, reason: "nudge" });
  return "idle: nudge turn enqueued";
}

async function close(
  ctx: Pick<SweepContext, "db" | "events" | "now">,
  sessionId: string,
  idleMs: number,
): Promise<string | null> {
  const last = await lastAgentReply(ctx.db, sessionId);
  const minutes = Math.round((2 * idleMs) / 60_000);
  const summary =
    `Closed by the idle sweep after a nudge went unanswered (no activity for ${minutes}+ minutes). ` +
    `Last word from the agent: ${last?.slice(0, 500) ?? "(none)"}`;
  const result = await completeSessionTask(
    ctx.db,
    sessionId,
    {
      outcome: "partial",
      summary,
      left_open: "complete_task was never called; check that the goal was actually met",
    },
    { now: ctx.now },
  );
  if (!result.ok) return null;
  for (const event of result.events) await ctx.events.publish(event);
  const note =
    "I closed this task as partial: it sat idle after the work and never called complete_task, even after a nudge. " +
    "Reply in this thread to pick it up again.";
  await appendMessage(
    ctx.db,
    { sessionId, role: "system", content: note, name: "idle-close", author: "oikos" },
    ctx.now,
  );
  await ctx.events.publish(agentMessage({ sessionId, text: note, final: true }));
  return "idle: closed as partial";
}

/**
 * Turns owed by a process that is gone (its lease ran out: a dead remote worker, or a stop that left
 * the turn pending) are resumed from here too, not only when a process starts: a live process picks
 * them up within one sweep period. A consent turn counts as lost only after `idleMs`. Returns the
 * sessions resumed.
 */
export function resumeOwedTurnsFromSweep(
  ctx: Pick<SweepContext, "db" | "queue" | "now">,
  options: { idleMs?: number } = {},
): Promise<string[]> {
  const consentDecidedBefore = new Date(ctx.now.getTime() - (options.idleMs ?? IDLE_MS));
  return resumeOwedTurns(ctx, ctx.now, { consentDecidedBefore });
}

/** Adds the `idle` kind to the sweeps framework (the `sweep` queue, the start-up pass and `oikos sweep idle`). */
export function registerIdleSweep(): void {
  registerSweep("idle", async (ctx) => {
    const resumed = await resumeOwedTurnsFromSweep(ctx);
    const items = resumed.map(
      (sessionId): SweepItem => ({
        subject: `session:${sessionId}`,
        outcome: "changed",
        detail: "owed turn: resume enqueued",
      }),
    );
    const closedBefore = new Date(ctx.now.getTime() - IDLE_MS);
    for (const sessionId of await reportUnreportedCompletions(ctx, ctx.now, { closedBefore }))
      items.push({
        subject: `session:${sessionId}`,
        outcome: "changed",
        detail: "closed unannounced: reported",
      });
    // A session resumed now is not idle: its turn is on its way.
    return [...items, ...(await sweepIdleSessions(ctx, { skip: resumed }))];
  });
}
