import { executionView } from "../jobs/execution/execution-view.ts";
import { redact } from "../policy/redact.ts";
import { firstRunSince } from "../store/executions.ts";
import { appendMessage, recentMessages, type StoredMessage, type StoredToolCall } from "../store/messages.ts";
import { type AgentDeps, clockOf } from "./agent-deps.ts";
import { oweResults } from "./owed-results.ts";

/**
 * Before a turn: the last round's tool calls that have no recorded result (the process stopped or
 * died mid-call) get one, so no call is issued twice. A `run` whose execution row exists is
 * re-attached to it (its state now, never a second execution); any other call is recorded as not
 * finished, and the model decides whether to call it again.
 */
export async function settleDanglingCalls(deps: AgentDeps, sessionId: string): Promise<number> {
  // The last round is at the end of the transcript: a window is enough.
  const { messages } = await recentMessages(deps.db, sessionId, 50);
  const round = [...messages].reverse().find((m) => m.role === "assistant" && (m.toolCalls?.length ?? 0) > 0);
  if (!round) return 0;
  const answered = new Set(
    messages.filter((m) => m.role === "tool" && BigInt(m.id) > BigInt(round.id)).map((m) => m.toolCallId),
  );
  let settled = 0;
  for (const call of round.toolCalls ?? []) {
    if (answered.has(call.id)) continue;
    const text = call.name === "run" ? await reattachRun(deps, sessionId, round, call) : notFinished(call);
    await appendMessage(
      deps.db,
      { sessionId, role: "tool", content: redact(text), toolCallId: call.id, name: call.name, author: "mcp" },
      clockOf(deps),
    );
    settled++;
  }
  return settled;
}

async function reattachRun(
  deps: AgentDeps,
  sessionId: string,
  round: StoredMessage,
  call: StoredToolCall,
): Promise<string> {
  const args = parseArguments(call.arguments);
  if (typeof args.target !== "string" || typeof args.command !== "string") return notFinished(call);
  const row = await firstRunSince(deps.db, {
    sessionId,
    target: args.target,
    command: args.command,
    since: round.createdAt,
  });
  if (!row) return notFinished(call);
  const view = executionView(row);
  // Still running: its result arrives by a continuation, whether or not a plan is approved.
  if (!view.finished) await oweResults(deps, sessionId, [row.id]);
  const note = view.finished
    ? "oikos restarted while this run was in progress; this is its recorded result. It is not run again."
    : "oikos restarted while this run was in progress; it is still open, and its result arrives as a note when it ends. Do not run it again.";
  return JSON.stringify({ kind: "reattached", note, ...view });
}

function notFinished(call: StoredToolCall): string {
  return `No result: oikos stopped before ${call.name} finished. Call it again if it is still needed.`;
}

function parseArguments(text: string): Record<string, unknown> {
  try {
    const value: unknown = text.trim() ? JSON.parse(text) : {};
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
