import { agentMessage, agentTyping, questionAnswered, sessionStatus } from "../store/domain-events.ts";
import { appendMessage, hasInputAfter, hasNote, lastOperatorMessage } from "../store/messages.ts";
import { currentPlan, nextOpenStep } from "../store/plans.ts";
import { answerOpenQuestion, openQuestion } from "../store/questions.ts";
import { markAnswered, markPlanDecided, reopenSession } from "../store/session-lifecycle.ts";
import { getSession, type Session, touchSession } from "../store/sessions.ts";
import {
  acquireTurn,
  dropTurn,
  releaseTurn,
  renewTurn,
  takeOwedTurn,
  turnOwner,
} from "../store/turn-lease.ts";
import { type AgentDeps, clockOf } from "./agent-deps.ts";
import { heldForOperator } from "./operator-hold.ts";
import { runTurn, type TurnEnd, TurnInterrupted, type TurnSignals } from "./turn.ts";
import { isDeadOwner, newTurnOwner } from "./turn-owner.ts";

export type TurnReason = "message" | "answer" | "consent" | "nudge" | "resume" | "continue";
/** A round the lease holder runs for requests merged into its turn; their reasons are not known. */
type TurnRound = TurnReason | "merged";

export type TurnRequestResult =
  | { status: "ran"; turns: TurnEnd[] }
  | { status: "merged" } // another process/job holds the session's turn; it runs one more turn for this request
  | { status: "busy" } // another turn holds the session and this request asked not to merge
  | { status: "idle" } // nothing new to answer
  | { status: "missing" };

/**
 * Runs the session's turn unless one is running: then the request merges into it (the holder runs one
 * more turn when it finishes). Never two model calls for one session at once, across processes.
 */
export async function requestTurn(
  deps: AgentDeps,
  sessionId: string,
  reason: TurnReason,
  options: {
    acquire?: () => Promise<"acquired" | "merged" | "busy" | "missing">;
    owner?: string;
  } & TurnSignals = {},
): Promise<TurnRequestResult> {
  const owner = options.owner ?? newTurnOwner();
  let first: TurnRound = reason;
  let acquired: Awaited<ReturnType<typeof acquireTurn>> | "idle";
  if (options.acquire) acquired = await options.acquire();
  else if (reason === "resume") acquired = await takeOwed(deps, sessionId, owner);
  else {
    // A turn owed by a dead holder (or a stop) is taken as that turn, resumed: a request with no new
    // input would otherwise take the lease and find nothing to answer, and the owed turn would be lost.
    acquired = await takeOwed(deps, sessionId, owner);
    if (acquired === "acquired") first = "resume";
    else acquired = await acquireTurn(deps.db, sessionId, owner, deps.options.leaseMs, clockOf(deps));
  }
  if (acquired === "idle") return { status: "idle" };
  if (acquired !== "acquired") return { status: acquired };
  const turns: TurnEnd[] = [];
  // The lease is short so a dead holder is found out fast; a live one renews it while the turn runs.
  const heartbeat = setInterval(
    () => void renewTurn(deps.db, sessionId, owner, deps.options.leaseMs, clockOf(deps)).catch(() => {}),
    Math.max(250, Math.floor(deps.options.leaseMs / 4)),
  );
  heartbeat.unref();
  try {
    let current: TurnRound = first;
    for (;;) {
      if (await prepareSession(deps, sessionId, current)) {
        if (current === "resume") await announceResume(deps, sessionId);
        await deps.events.publish(agentTyping({ sessionId, active: true }));
        try {
          turns.push(
            await runTurn(deps, sessionId, {
              renew: () => renewTurn(deps.db, sessionId, owner, deps.options.leaseMs, clockOf(deps)),
              ...signalsOf(options),
            }),
          );
        } finally {
          await deps.events.publish(agentTyping({ sessionId, active: false }));
        }
      }
      if ((await releaseTurn(deps.db, sessionId, owner)) === "released") break;
      if (options.stopping?.aborted) throw new TurnInterrupted("oikos is stopping");
      current = "merged";
    }
  } catch (error) {
    // An interrupted turn is owed: turn_pending tells the next start to resume it.
    await dropTurn(deps.db, sessionId, owner, error instanceof TurnInterrupted);
    throw error;
  } finally {
    clearInterval(heartbeat);
  }
  return turns.length > 0 ? { status: "ran", turns } : { status: "idle" };
}

/** The owed turn of a session (interrupted by a stop, or its holder died), taken once across processes. */
async function takeOwed(deps: AgentDeps, sessionId: string, owner: string): Promise<"acquired" | "idle"> {
  const holder = await turnOwner(deps.db, sessionId);
  const dead = holder && isDeadOwner(holder) ? [holder] : [];
  const taken = await takeOwedTurn(deps.db, sessionId, owner, deps.options.leaseMs, clockOf(deps), dead);
  return taken ? "acquired" : "idle";
}

/** Said once per interrupted turn, in its thread, before the work goes on. */
async function announceResume(deps: AgentDeps, sessionId: string): Promise<void> {
  const session = await getSession(deps.db, sessionId);
  if (!session) return;
  const task = session.goal ? `"${session.goal}"` : "this task";
  await deps.events.publish(
    agentMessage({ sessionId, text: `oikos restarted; resuming ${task} where it stopped.`, final: false }),
  );
}

function signalsOf(options: TurnSignals): TurnSignals {
  return {
    ...(options.stopping ? { stopping: options.stopping } : {}),
    ...(options.abort ? { abort: options.abort } : {}),
  };
}

/**
 * Brings the session up to date before a turn (reopen, answered question, decided plan) and says
 * whether there is anything for the model to respond to.
 */
async function prepareSession(deps: AgentDeps, sessionId: string, reason: TurnRound): Promise<boolean> {
  const now = clockOf(deps);
  let session = await getSession(deps.db, sessionId);
  if (!session) return false;
  const lastUser = await lastOperatorMessage(deps.db, sessionId);
  if (session.status === "done" || session.status === "failed") {
    if (!lastUser || !session.closed_at || lastUser.createdAt <= session.closed_at) return false;
    await reopenSession(deps.db, sessionId, now);
    await deps.events.publish(sessionStatus(sessionId, "planning"));
    session = (await getSession(deps.db, sessionId))!;
  }
  const question = await openQuestion(deps.db, sessionId);
  const answered =
    question !== undefined && lastUser !== undefined && lastUser.createdAt >= question.createdAt;
  if (answered) {
    await answerOpenQuestion(
      deps.db,
      { sessionId, answer: lastUser.content, by: lastUser.author ?? "operator" },
      now,
    );
    await deps.events.publish(questionAnswered({ sessionId, questionId: question.id }));
  }
  const answeredBefore = session.status === "awaiting_input" && !question;
  await syncStatusWithPlan(deps, session, answered || answeredBefore);
  if (reason === "nudge") {
    // The sweep saw an idle executing session; if anything moved it on since, there is nothing to nudge.
    if (session.status !== "executing") return false;
    await addNudgeNote(deps, sessionId);
    return true;
  }
  // A merged round may carry a consent (a plan decided while the turn ran): the note is once per plan anyway.
  // A resumed turn may be the consent turn a stop interrupted before its note.
  if (reason === "consent" || reason === "merged" || reason === "resume")
    await addDecisionNote(deps, sessionId);
  await touchSession(deps.db, sessionId, now);
  if (reason === "resume") {
    // A turn was owed (interrupted by a stop, or its process died): the model call is simply repeated.
    const status = (await getSession(deps.db, sessionId))?.status;
    return status === "planning" || status === "executing";
  }
  // A turn ended on a repeated refusal or a spent budget waits for the operator: results arriving
  // meanwhile are kept in the transcript, but only the operator's next message (or decision) calls the model.
  if ((reason === "continue" || reason === "merged") && (await heldForOperator(deps, sessionId)))
    return false;
  // What the model must respond to: operator messages, continuation and decision notes (not its own
  // output or fault notes) the model has not been shown yet.
  const seen = session.seen_message_id === null ? 0n : BigInt(session.seen_message_id);
  return hasInputAfter(deps.db, sessionId, seen);
}

async function syncStatusWithPlan(deps: AgentDeps, session: Session, answered: boolean): Promise<void> {
  const plan = await currentPlan(deps.db, session.id);
  const approved = plan?.plan.status === "approved";
  if (session.status === "awaiting_approval" && plan?.plan.status === "approved") {
    await markPlanDecided(deps.db, session.id, true, clockOf(deps));
  } else if (session.status === "awaiting_approval" && plan?.plan.status === "denied") {
    await markPlanDecided(deps.db, session.id, false, clockOf(deps));
  } else if (session.status === "awaiting_input" && answered) {
    await markAnswered(deps.db, session.id, approved, clockOf(deps));
  }
}

async function addNudgeNote(deps: AgentDeps, sessionId: string): Promise<void> {
  const plan = await currentPlan(deps.db, sessionId);
  const next = plan ? nextOpenStep(plan.steps) : undefined;
  const content =
    "Nudge: this task has had no activity for a while and is still open. If the work is done, verify the goal and " +
    "call complete_task. Otherwise " +
    (next ? `advance step ${next.seq} "${next.title}"` : "take the next step") +
    ", or ask_operator if you are stuck. If nothing happens, the task is closed as partial.";
  await appendMessage(
    deps.db,
    { sessionId, role: "system", content, name: "nudge", author: "oikos" },
    clockOf(deps),
  );
}

/**
 * A plan decided by reaction or button leaves no message in the transcript: one short note says what
 * was decided and what to do next (once per plan generation). Approval by phrase adds it too; the
 * operator's words are in the history anyway.
 */
async function addDecisionNote(deps: AgentDeps, sessionId: string): Promise<void> {
  const plan = await currentPlan(deps.db, sessionId);
  if (!plan || !["approved", "denied"].includes(plan.plan.status) || !plan.plan.needsApproval) return;
  const changes = plan.plan.changesRequested;
  const marker = `decision:plan:${plan.plan.generation}${changes ? ":changes" : ""}`;
  if (await hasNote(deps.db, sessionId, marker)) return;
  const next = nextOpenStep(plan.steps);
  const content = changes
    ? `The operator ${changes.by} requested changes to plan ${plan.plan.generation}: "${changes.reason}". ` +
      "Nothing of that plan runs any more. Propose a revised plan (propose_plan, a new generation) that does what they asked, then wait for its approval."
    : plan.plan.status === "approved"
      ? `The operator approved plan ${plan.plan.generation}. ` +
        (next
          ? `Advance: update_plan_step(${next.seq}, running), then run it; step by step in order.`
          : "Every step is closed: verify the goal, then complete_task.")
      : `The operator denied plan ${plan.plan.generation}. Do not run its mutations; ask what they want instead ` +
        "(ask_operator) or propose a revised plan.";
  await appendMessage(
    deps.db,
    { sessionId, role: "system", content, name: marker, author: "oikos" },
    clockOf(deps),
  );
}
