import { redact } from "../policy/redact.ts";
import {
  type RefusalIdentity,
  RefusalLedger,
  type RefusalShown,
  refusalIdentityOf,
  refusalKey,
  refusalsOf,
} from "../policy/refusal-identity.ts";
import { operatorNoteOf, outcomeEndsTurn } from "../policy/tool-outcome.ts";
import {
  BUDGET_CONFIG_KEYS,
  type BudgetSpent,
  budgetSpent,
  NOTHING_SPENT,
  type TurnBudget,
  type TurnSpending,
} from "../policy/turn-budget.ts";
import { agentMessage } from "../store/domain-events.ts";
import {
  appendMessage,
  recentMessages,
  refusalKeysSinceOperator,
  type StoredToolCall,
} from "../store/messages.ts";
import { getSession, markMessageSeen } from "../store/sessions.ts";
import { recordTokenUsage } from "../store/token-usage.ts";
import { type AgentDeps, clockOf, realSleep } from "./agent-deps.ts";
import { endOnSpentBudget } from "./budget-spent.ts";
import { settleDanglingCalls } from "./dangling-calls.ts";
import { TurnGrants } from "./grants-in-play.ts";
import { toChatMessages } from "./history.ts";
import { callModel } from "./model-call.ts";
import type { ModelReply, ToolSpec } from "./model-port.ts";
import { oweResults, unfinishedExecutions } from "./owed-results.ts";
import { systemPrompt } from "./prompt.ts";
import { endOnRepeatedRefusal } from "./repeated-refusal.ts";
import type { ToolCallResult } from "./tool-gateway.ts";

export type TurnEnd =
  | "answered" // the model replied with text and no tool calls
  | "stopped" // a tool ended the turn (plan or execution awaiting approval, question, completion)
  | "repeated_refusal" // a call refused earlier in the turn was sent again and refused the same way
  | "exhausted" // model calls (iterations) used up; a status report was produced
  | "budget_spent" // the turn's tool calls or refusals used up; oikos told the operator (policy/turn-budget.ts)
  | "model_failed" // every attempt failed; the session stays resumable
  | "lease_lost";

/**
 * The process is stopping: the turn ended at a checkpoint (every result so far is stored) or its
 * model call was aborted. The session owes a turn; the next start resumes it.
 */
export class TurnInterrupted extends Error {
  override name = "TurnInterrupted";
}

export interface TurnSignals {
  /** Aborted when the process begins to stop: no new model call starts. */
  stopping?: AbortSignal;
  /** Aborted when the grace period is over: the model call in flight is abandoned. */
  abort?: AbortSignal;
}

/** The result of a tool call a stop kept from starting; the model reads it after the restart. */
export const NOT_STARTED_STOPPING =
  "Not started: oikos was stopping when this call came up, so nothing ran. Call it again if it is still needed.";

/**
 * One agent turn: the model is called with SOUL.md + session state + the history window and the
 * session's tools, tool calls go to the MCP server, and every call, result and text is persisted as it
 * happens. Text reaches chat only as `agent.message` events.
 */
export async function runTurn(
  deps: AgentDeps,
  sessionId: string,
  options: { renew?: () => Promise<boolean> } & TurnSignals = {},
): Promise<TurnEnd> {
  const tools = await deps.tools.tools(sessionId);
  await settleDanglingCalls(deps, sessionId);
  // Refused calls count from the operator's last word: a repeat in a later turn (a continuation) is one too.
  const refusals = new RefusalLedger(await refusalKeysSinceOperator(deps.db, sessionId));
  const budget = turnBudgetOf(deps.options);
  const spent: TurnSpending = { ...NOTHING_SPENT };
  const refused: RefusalShown[] = [];
  // The live standing grants the prompt shows, read once per turn (again only if the entities in play change).
  const grants = new TurnGrants();
  for (;;) {
    const over = budgetSpent(spent, budget);
    if (over === "modelCalls") break;
    if (over) {
      await endOnSpentBudget(deps, sessionId, over, budget, refused);
      return "budget_spent";
    }
    // The checkpoint: every tool result of the last round is stored, so another process can go on from here.
    if (options.stopping?.aborted) throw new TurnInterrupted("oikos is stopping");
    if (options.renew && !(await options.renew())) return "lease_lost";
    const replied = await withTurnSlot(deps, options, () =>
      modelRound(deps, sessionId, tools, grants, options),
    );
    spent.modelCalls += 1;
    if (!replied) return "model_failed";
    const { calls } = replied;
    if (calls.length === 0) return "answered";
    let notRun: string | null = null;
    let end: TurnEnd | null = null;
    for (const call of calls) {
      const overNow: BudgetSpent | null = notRun ? null : budgetSpent(spent, budget);
      if (overNow === "toolCalls" || overNow === "refusals") {
        notRun = `Not run: this turn's budget (${BUDGET_CONFIG_KEYS[overNow]}) is spent.`;
      }
      // Once a stop begins no new call starts (a command least of all): recorded as not started, the
      // turn ends at the checkpoint below and the resumed turn decides again.
      if (!notRun && options.stopping?.aborted) notRun = NOT_STARTED_STOPPING;
      if (notRun) {
        await persistToolResult(deps, sessionId, call, notRun);
        continue;
      }
      spent.toolCalls += 1;
      const { args, result } = await executeCall(deps, sessionId, call);
      const identity = args ? refusalIdentityOf(call.name, args, result.structured) : null;
      await persistToolResult(deps, sessionId, call, result.text, identity);
      // Told "still running": the result comes back by a continuation, not by waiting here.
      await oweResults(deps, sessionId, unfinishedExecutions(result.structured));
      if (identity) {
        spent.refusals += 1;
        refused.push(...refusalsOf(result.structured));
      }
      // The same call refused the same way a second time: the model did not act on the refusal, and
      // asking it again would not change that. The typed identity decides, never the wording.
      if (identity && refusals.record(identity) === "repeated") {
        notRun = `Not run: the turn ended after ${call.name}.`;
        end = "repeated_refusal";
        await endOnRepeatedRefusal(
          deps,
          sessionId,
          call.name,
          refusalsOf(result.structured),
          result.structured,
        );
        continue;
      }
      // The structure, not the prompt, makes the model stop: a result that waits for the operator
      // (approval requested, plan awaiting approval, question, completion) or a refusal whose code
      // says so (policy/tool-outcome.ts). The wording is never read.
      if (outcomeEndsTurn(result.structured)) {
        notRun = `Not run: the turn ended after ${call.name}.`;
        end = "stopped";
        const note = operatorNoteOf(result.structured);
        if (note) await deps.events.publish(agentMessage({ sessionId, text: note, final: true }));
      }
    }
    if (end) return end;
  }
  await withTurnSlot(deps, options, () => statusReport(deps, sessionId, grants));
  return "exhausted";
}

/**
 * One model round, inside a turn slot: the context, the model's reply and the stored assistant
 * message. Null when the model gave no usable answer.
 */
async function modelRound(
  deps: AgentDeps,
  sessionId: string,
  tools: ToolSpec[],
  grants: TurnGrants,
  options: TurnSignals,
): Promise<{ calls: StoredToolCall[] } | null> {
  const messages = await buildMessages(deps, sessionId, grants);
  // A stop abandons the call at once: its reply would not be acted on, and the resumed turn repeats it.
  const abandon = [options.stopping, options.abort].filter((signal) => signal !== undefined);
  const reply = await modelReply(
    deps,
    sessionId,
    messages,
    tools,
    abandon.length > 0 ? AbortSignal.any(abandon) : undefined,
  );
  if (!reply) return null;
  // A reply that arrives while stopping is not acted on: the resumed turn repeats the call.
  if (options.stopping?.aborted) throw new TurnInterrupted("oikos is stopping");
  const calls: StoredToolCall[] = reply.toolCalls.map((c) => ({
    id: c.id,
    name: c.name,
    arguments: c.arguments,
  }));
  const text = (reply.content ?? "").trim();
  await appendMessage(
    deps.db,
    {
      sessionId,
      role: "assistant",
      content: text,
      ...(calls.length > 0 ? { toolCalls: calls } : {}),
      author: "agent",
    },
    clockOf(deps),
  );
  if (text) await deps.events.publish(agentMessage({ sessionId, text, final: calls.length === 0 }));
  return { calls };
}

/**
 * Runs `work` holding one of the process's turn slots (model.concurrentTurns). Tool calls run outside
 * it: a turn waiting on an execution holds no slot. A stop while waiting for a slot is a checkpoint.
 */
async function withTurnSlot<T>(deps: AgentDeps, options: TurnSignals, work: () => Promise<T>): Promise<T> {
  if (!deps.turnSlots) return work();
  const release = await deps.turnSlots.acquire(options.stopping);
  if (!release) throw new TurnInterrupted("oikos is stopping");
  try {
    return await work();
  } finally {
    release();
  }
}

async function buildMessages(deps: AgentDeps, sessionId: string, grants: TurnGrants) {
  const session = await getSession(deps.db, sessionId);
  if (!session) throw new Error(`session ${sessionId} vanished during its turn`);
  const window = await recentMessages(deps.db, sessionId, deps.options.historyLimit);
  const newest = window.messages.at(-1)?.id;
  if (newest) await markSeen(deps, sessionId, newest);
  return [
    {
      role: "system" as const,
      content: await systemPrompt(deps.db, deps.soul, session, clockOf(deps), grants),
    },
    ...toChatMessages(window.messages, window.omitted),
  ];
}

async function modelReply(
  deps: AgentDeps,
  sessionId: string,
  messages: Awaited<ReturnType<typeof buildMessages>>,
  tools: ToolSpec[] | undefined,
  abort?: AbortSignal,
): Promise<ModelReply | null> {
  const result = await callModel(
    deps.model,
    { messages, ...(tools ? { tools } : {}), ...(abort ? { signal: abort } : {}) },
    {
      retry: deps.options.retry,
      sleep: deps.sleep ?? realSleep,
      onAttempt: async (reply) => {
        if (!reply.usage) return;
        await recordTokenUsage(deps.db, {
          sessionId,
          model: deps.model.model,
          promptTokens: reply.usage.promptTokens,
          completionTokens: reply.usage.completionTokens,
          totalTokens: reply.usage.totalTokens,
        });
      },
    },
  );
  if (result.ok) return result.reply;
  if (abort?.aborted) throw new TurnInterrupted("the model call was abandoned: oikos is stopping");
  deps.logger?.warn({ sessionId, fault: result.fault.kind, err: result.fault.message }, "model call failed");
  const note =
    `The model gave no usable answer after ${result.attempts} attempt(s): ${result.fault.message}. ` +
    'The task is paused, not failed: reply "continue" to resume where it stopped.';
  await appendMessage(
    deps.db,
    { sessionId, role: "system", content: note, name: "model-fault", author: "oikos" },
    clockOf(deps),
  );
  await deps.events.publish(agentMessage({ sessionId, text: note, final: true }));
  return null;
}

/** A tool call as made: its arguments (null when they were not a JSON object) and its result. */
async function executeCall(
  deps: AgentDeps,
  sessionId: string,
  call: StoredToolCall,
): Promise<{ args: Record<string, unknown> | null; result: ToolCallResult }> {
  let args: unknown;
  try {
    args = call.arguments.trim() ? JSON.parse(call.arguments) : {};
  } catch (error) {
    return {
      args: null,
      result: {
        isError: true,
        text:
          `Your arguments for ${call.name} were not valid JSON (${error instanceof Error ? error.message : String(error)}). ` +
          "Send the call again with a JSON object matching the tool's schema.",
      },
    };
  }
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    return {
      args: null,
      result: {
        isError: true,
        text: `Arguments for ${call.name} must be a JSON object. Send the call again.`,
      },
    };
  }
  const object = args as Record<string, unknown>;
  return { args: object, result: await deps.tools.call(sessionId, call.name, object) };
}

/** Tool results are stored redacted: the transcript is replayed to the model on every later turn. */
async function persistToolResult(
  deps: AgentDeps,
  sessionId: string,
  call: StoredToolCall,
  text: string,
  refused: RefusalIdentity | null = null,
) {
  await appendMessage(
    deps.db,
    {
      sessionId,
      role: "tool",
      content: redact(text),
      toolCallId: call.id,
      name: call.name,
      author: "mcp",
      ...(refused ? { refusalKey: refusalKey(refused) } : {}),
    },
    clockOf(deps),
  );
}

function turnBudgetOf(options: AgentDeps["options"]): TurnBudget {
  return {
    modelCalls: options.maxIterations,
    toolCalls: options.maxToolCallsPerTurn,
    refusals: options.maxRefusalsPerTurn,
  };
}

/** Iterations used up: one no-tools call so the turn never ends silently. */
async function statusReport(deps: AgentDeps, sessionId: string, grants: TurnGrants): Promise<void> {
  const messages = await buildMessages(deps, sessionId, grants);
  messages.push({
    role: "system",
    content:
      `You used all ${deps.options.maxIterations} tool rounds of this turn. Without calling tools, tell the operator in a ` +
      "few lines what is done, what is next, and whether you need anything from them.",
  });
  const reply = await modelReply(deps, sessionId, messages, undefined);
  if (!reply) return;
  const text = (reply.content ?? "").trim() || 'I ran out of steps for this turn; reply "continue" to go on.';
  await appendMessage(
    deps.db,
    { sessionId, role: "assistant", content: text, author: "agent" },
    clockOf(deps),
  );
  // The model's own words, then oikos's: why the turn stopped and what the operator can do.
  const why =
    `(oikos stopped this turn after ${deps.options.maxIterations} rounds of tool calls, the most one turn may ` +
    `make: ${BUDGET_CONFIG_KEYS.modelCalls}. Reply "continue" to let it go on.)`;
  await deps.events.publish(agentMessage({ sessionId, text: `${text}\n\n${why}`, final: true }));
}

/** Remembers the newest message the model was shown, so input stored during the call still counts as new. */
async function markSeen(deps: AgentDeps, sessionId: string, messageId: string): Promise<void> {
  await markMessageSeen(deps.db, sessionId, messageId);
}
