import type { DomainEvent } from "../jobs/events/types.ts";
import type { QueuePort } from "../jobs/queue/port.ts";
import { DEFAULT_TURN_BUDGET } from "../policy/turn-budget.ts";
import type { Db } from "../store/db.ts";
import { DEFAULT_RETRY, type RetryPolicy } from "./model-call.ts";
import type { ModelPort } from "./model-port.ts";
import type { ToolGateway } from "./tool-gateway.ts";
import type { TurnSlots } from "./turn-slots.ts";

export interface AgentLogger {
  info(object: object, message?: string): void;
  warn(object: object, message?: string): void;
  error(object: object, message?: string): void;
}

export interface AgentOptions {
  /** Tool-call rounds per turn before the forced no-tools status report. Default 12. */
  maxIterations: number;
  /** Tool calls per turn (policy/turn-budget.ts). Default 40. */
  maxToolCallsPerTurn: number;
  /** Refused tool calls per turn before oikos stops it and asks the operator. Default 6. */
  maxRefusalsPerTurn: number;
  /** Messages replayed to the model. Default 30. */
  historyLimit: number;
  retry: RetryPolicy;
  /** Lease on the session's turn, renewed every quarter of it while the turn runs: a dead holder is found out within it. Default 20 s. */
  leaseMs: number;
}

export const DEFAULT_AGENT_OPTIONS: AgentOptions = {
  maxIterations: DEFAULT_TURN_BUDGET.modelCalls,
  maxToolCallsPerTurn: DEFAULT_TURN_BUDGET.toolCalls,
  maxRefusalsPerTurn: DEFAULT_TURN_BUDGET.refusals,
  historyLimit: 30,
  retry: DEFAULT_RETRY,
  leaseMs: 20_000,
};

/** Everything one agent turn needs; the composition root (agent/capability.ts) builds it from the runtime. */
export interface AgentDeps {
  db: Db;
  events: { publish(event: DomainEvent): Promise<void> };
  model: ModelPort;
  tools: ToolGateway;
  soul: string;
  options: AgentOptions;
  clock?: () => Date;
  sleep?: (ms: number) => Promise<void>;
  logger?: AgentLogger;
  /** Where a turn enqueues the continuation of a result it is owed (agent/owed-results.ts); set by registerAgentJobs. */
  queue?: Pick<QueuePort, "enqueue">;
  /** The process's turn slots (model.concurrentTurns); unset: no limit. */
  turnSlots?: TurnSlots;
}

export function clockOf(deps: Pick<AgentDeps, "clock">): Date {
  return deps.clock ? deps.clock() : new Date();
}

export const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
