import { z } from "zod";
import {
  APPROVAL_STATUSES,
  OUTCOMES,
  SESSION_STATUSES,
  type SessionStatus,
  TERMINAL_EXECUTION_STATUS_VALUES,
  type TerminalExecutionStatus,
  TOUCH_VIAS,
} from "./statuses.ts";

// Domain events: what happened, for whoever renders or reacts (bot cards, continuations). They
// describe changes to store rows, so store/ owns their shape and every layer builds them with the
// constructors below (the event bus lives in jobs/events/). Events carry ids, never secrets or
// command output; readers load details from the store.

const id = z.string().min(1);
const nullableSessionId = id.nullable();
/** Who decided (an operator's platform user id) and how (reaction, button, phrase, slash, sweep). */
const decider = { by: z.string().min(1), via: z.string().min(1) };

export const domainEventSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("plan.proposed"), sessionId: id, generation: z.number().int() }),
  z.object({
    type: z.literal("plan.decided"),
    sessionId: id,
    generation: z.number().int(),
    decision: z.enum(["approved", "denied"]),
    ...decider,
  }),
  z.object({
    type: z.literal("approval.requested"),
    sessionId: id,
    approvalId: id,
    executionId: id.optional(),
  }),
  z.object({
    type: z.literal("approval.decided"),
    sessionId: id,
    approvalId: id,
    decision: z.enum(APPROVAL_STATUSES).exclude(["pending"]),
    ...decider,
  }),
  /** Half an approval's time to live passed and nobody decided: the bot calls the approvers again. */
  z.object({ type: z.literal("approval.reminder"), sessionId: id, approvalId: id }),
  z.object({ type: z.literal("execution.queued"), sessionId: nullableSessionId, executionId: id }),
  z.object({ type: z.literal("execution.started"), sessionId: nullableSessionId, executionId: id }),
  z.object({
    type: z.literal("execution.finished"),
    sessionId: nullableSessionId,
    executionId: id,
    status: z.enum(TERMINAL_EXECUTION_STATUS_VALUES),
    /** The plan step the execution was run for, when the agent named one. */
    stepSeq: z.number().int().optional(),
  }),
  z.object({ type: z.literal("question.raised"), sessionId: id, questionId: id }),
  z.object({ type: z.literal("question.answered"), sessionId: id, questionId: id }),
  z.object({ type: z.literal("agent.message"), sessionId: id, text: z.string(), final: z.boolean() }),
  z.object({ type: z.literal("agent.typing"), sessionId: id, active: z.boolean() }),
  z.object({ type: z.literal("task.completed"), sessionId: id, outcome: z.enum(OUTCOMES) }),
  z.object({ type: z.literal("session.status"), sessionId: id, status: z.enum(SESSION_STATUSES) }),
  /** A task touched an entity for the first time: its `involves` edge was written (store/task-graph.ts). */
  z.object({
    type: z.literal("entity.touched"),
    sessionId: id,
    entitySlug: id,
    via: z.enum(TOUCH_VIAS),
  }),
]);

export type DomainEvent = z.infer<typeof domainEventSchema>;
export type DomainEventType = DomainEvent["type"];
export type DomainEventOf<T extends DomainEventType> = Extract<DomainEvent, { type: T }>;

/** The fields of one event type, without its `type`. */
type Fields<T extends DomainEventType> = Omit<DomainEventOf<T>, "type">;

/** The execution columns its events are built from. */
interface ExecutionIds {
  id: string;
  session_id: string | null;
}

export function planProposed(fields: Fields<"plan.proposed">): DomainEventOf<"plan.proposed"> {
  return { type: "plan.proposed", ...fields };
}

export function planDecided(fields: Fields<"plan.decided">): DomainEventOf<"plan.decided"> {
  return { type: "plan.decided", ...fields };
}

export function approvalRequested(fields: Fields<"approval.requested">): DomainEventOf<"approval.requested"> {
  return { type: "approval.requested", ...fields };
}

export function approvalDecided(fields: Fields<"approval.decided">): DomainEventOf<"approval.decided"> {
  return { type: "approval.decided", ...fields };
}

export function approvalReminder(fields: Fields<"approval.reminder">): DomainEventOf<"approval.reminder"> {
  return { type: "approval.reminder", ...fields };
}

export function executionQueued(execution: ExecutionIds): DomainEventOf<"execution.queued"> {
  return { type: "execution.queued", sessionId: execution.session_id, executionId: execution.id };
}

export function executionStarted(execution: ExecutionIds): DomainEventOf<"execution.started"> {
  return { type: "execution.started", sessionId: execution.session_id, executionId: execution.id };
}

/**
 * An execution ended with `status`. Built from the row so the plan step always travels with it
 * (the continuation closes that step).
 */
export function executionFinished(
  execution: ExecutionIds & { step_seq: number | null },
  status: TerminalExecutionStatus,
): DomainEventOf<"execution.finished"> {
  return {
    type: "execution.finished",
    sessionId: execution.session_id,
    executionId: execution.id,
    status,
    ...(execution.step_seq !== null ? { stepSeq: execution.step_seq } : {}),
  };
}

export function questionRaised(fields: Fields<"question.raised">): DomainEventOf<"question.raised"> {
  return { type: "question.raised", ...fields };
}

export function questionAnswered(fields: Fields<"question.answered">): DomainEventOf<"question.answered"> {
  return { type: "question.answered", ...fields };
}

export function agentMessage(fields: Fields<"agent.message">): DomainEventOf<"agent.message"> {
  return { type: "agent.message", ...fields };
}

export function agentTyping(fields: Fields<"agent.typing">): DomainEventOf<"agent.typing"> {
  return { type: "agent.typing", ...fields };
}

export function taskCompleted(fields: Fields<"task.completed">): DomainEventOf<"task.completed"> {
  return { type: "task.completed", ...fields };
}

export function sessionStatus(sessionId: string, status: SessionStatus): DomainEventOf<"session.status"> {
  return { type: "session.status", sessionId, status };
}

export function entityTouched(fields: Fields<"entity.touched">): DomainEventOf<"entity.touched"> {
  return { type: "entity.touched", ...fields };
}
