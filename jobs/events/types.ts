import { z } from "zod";

// Domain events: what happened, for whoever renders or reacts (bot cards, continuations).
// Events carry ids, never secrets or command output; readers load details from the store.

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
    decision: z.enum(["approved", "denied", "cancelled", "expired"]),
    ...decider,
  }),
  z.object({ type: z.literal("execution.queued"), sessionId: nullableSessionId, executionId: id }),
  z.object({ type: z.literal("execution.started"), sessionId: nullableSessionId, executionId: id }),
  z.object({
    type: z.literal("execution.finished"),
    sessionId: nullableSessionId,
    executionId: id,
    status: z.string().min(1),
    /** The plan step the execution was run for, when the agent named one. */
    stepSeq: z.number().int().optional(),
  }),
  z.object({ type: z.literal("question.raised"), sessionId: id, questionId: id }),
  z.object({ type: z.literal("question.answered"), sessionId: id, questionId: id }),
  z.object({ type: z.literal("agent.message"), sessionId: id, text: z.string(), final: z.boolean() }),
  z.object({ type: z.literal("agent.typing"), sessionId: id, active: z.boolean() }),
  z.object({ type: z.literal("task.completed"), sessionId: id, outcome: z.string().min(1) }),
  z.object({ type: z.literal("session.status"), sessionId: id, status: z.string().min(1) }),
]);

export type DomainEvent = z.infer<typeof domainEventSchema>;
export type DomainEventType = DomainEvent["type"];
export type DomainEventOf<T extends DomainEventType> = Extract<DomainEvent, { type: T }>;
