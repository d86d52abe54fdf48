import { type Logger, silentLogger } from "../../base/logger.ts";
import { RoomAccess, type RoomAccessConfig } from "../../bot/core/access.ts";
import {
  approvalsCommand,
  cancelCommand,
  grantsCommand,
  sweepCommand,
} from "../../bot/core/admin-commands.ts";
import { CommandRegistry } from "../../bot/core/bot-commands.ts";
import { CardRenderer } from "../../bot/core/card-renderer.ts";
import type { ChatAdapter } from "../../bot/core/chat-adapter.ts";
import { ChatCore } from "../../bot/core/chat-core.ts";
import { consoleCommands } from "../../bot/core/console/console-commands.ts";
import type { ChatCoreDeps } from "../../bot/core/core-deps.ts";
import { helpCommand } from "../../bot/core/help-command.ts";
import { rollbackAnswer, rollbackCommand } from "../../bot/core/rollback-command.ts";
import { routingCommand } from "../../bot/core/routing-command.ts";
import { createEventBus } from "../../jobs/events/create.ts";
import type { EventBus } from "../../jobs/events/port.ts";
import { type RollbackDeps, requestRollback } from "../../jobs/proxmox/rollback.ts";
import { createQueue } from "../../jobs/queue/create.ts";
import type { QueuePort } from "../../jobs/queue/port.ts";
import { parseConsent } from "../../policy/consent.ts";
import type { GrantBasis } from "../../policy/standing-grant.ts";
import type { UnreadableKind } from "../../policy/unreadable.ts";
import { createExecutionApproval } from "../../store/approvals.ts";
import {
  approvalRequested,
  executionFinished,
  executionStarted,
  planProposed,
} from "../../store/domain-events.ts";
import { createExecution, transitionExecution } from "../../store/executions.ts";
import { appendMessage } from "../../store/messages.ts";
import { insertPlanGeneration, type NewStep } from "../../store/plans.ts";
import { answerOpenQuestion } from "../../store/questions.ts";
import { KyselyJobJournal } from "../../store/queue-journal.ts";
import { createSession } from "../../store/sessions.ts";
import { recordGrantUse } from "../../store/standing-grants.ts";
import type { RunnableRisk } from "../../store/statuses.ts";
import { redisTestPrefix, redisTestUrl } from "../redis.ts";
import { createTestStore, type TestStore } from "../store.ts";

/**
 * The chat core wired to real parts (a fresh database, the in-process queue, the event bus) for
 * bot tests. The agent and the execution worker are not running: tests play their part by
 * writing plans/executions with their store functions and publishing the events they publish.
 */
export interface ChatHarness {
  store: TestStore;
  queue: QueuePort;
  events: EventBus;
  core: ChatCore;
  adapters: Map<string, ChatAdapter>;
  commands: CommandRegistry;
  close(): Promise<void>;
}

export async function createChatHarness(
  access: RoomAccessConfig,
  options: {
    modelConfigured?: boolean;
    /** The preview gate at approval (issue #15), as bot/capability.ts wires it from the run service. */
    previewAtApproval?: ChatCoreDeps["previewAtApproval"];
    /** Quorum and separation of duties (config approvals.rules). */
    approvalRules?: ChatCoreDeps["approvalRules"];
    /**
     * Another stack's store, queue and event bus (an execute worker on a fake Proxmox cluster): the
     * harness uses them and leaves closing them to their owner.
     */
    shared?: { store: TestStore; queue: QueuePort; events: EventBus };
    /** ⏪ and `!oikos rollback` as bot/capability.ts wires them, reading snapshots through `runner`. */
    rollback?: Pick<RollbackDeps, "runner" | "targets">;
    /** The core's logger (default silent). */
    logger?: Logger;
  } = {},
): Promise<ChatHarness> {
  const { shared } = options;
  const store = shared?.store ?? (await createTestStore());
  const db = store.db;
  const queue = shared?.queue ?? (await createQueue({ journal: new KyselyJobJournal(db) }));
  // The Redis event bus when REDIS_URL is set (a channel prefix of its own), else in-process.
  const redisUrl = redisTestUrl();
  const events =
    shared?.events ??
    (await createEventBus(redisUrl ? { redisUrl, prefix: redisTestPrefix(import.meta.url) } : {}));
  const rollbackDeps = options.rollback ? { db, events, ...options.rollback } : undefined;
  const commands = new CommandRegistry();
  commands.add(helpCommand(commands));
  const roomAccess = new RoomAccess(access);
  commands
    .add(sweepCommand(queue))
    .add(approvalsCommand(db))
    .add(grantsCommand(db))
    .add(cancelCommand(db))
    .add(routingCommand(db));
  for (const command of consoleCommands(db)) commands.add(command);
  if (rollbackDeps) commands.add(rollbackCommand(rollbackDeps));
  const logger = options.logger ?? silentLogger();
  const deps: ChatCoreDeps = {
    db,
    queue,
    events,
    logger,
    commands,
    access: roomAccess,
    modelConfigured: options.modelConfigured ?? true,
    parseConsent,
    recordMessage: async ({ sessionId, text, author, eventId }) =>
      (await appendMessage(db, { sessionId, role: "user", content: text, author, platformEventId: eventId }))
        .id,
    answerQuestion: async (input) => (await answerOpenQuestion(db, input)) !== undefined,
    ...(options.previewAtApproval ? { previewAtApproval: options.previewAtApproval } : {}),
    ...(options.approvalRules ? { approvalRules: options.approvalRules } : {}),
    ...(rollbackDeps
      ? {
          requestRollback: async (executionId: string, by: string) =>
            rollbackAnswer(await requestRollback(rollbackDeps, { executionId, by })),
        }
      : {}),
  };
  const adapters = new Map<string, ChatAdapter>();
  const core = new ChatCore(deps, adapters);
  const renderer = new CardRenderer({
    db,
    adapters,
    cards: core.cards,
    logger,
    mentions: (platform, room, self) => roomAccess.mentions(platform, room, self),
  });
  const unsubscribe = renderer.subscribe(events);
  return {
    store,
    queue,
    events,
    core,
    adapters,
    commands,
    async close() {
      unsubscribe();
      if (shared) return;
      await queue.close({ graceMs: 100 });
      await events.close();
      await store.dispose();
    },
  };
}

/** Plays the agent: writes a plan generation for the session and publishes plan.proposed. */
export async function proposePlan(
  h: ChatHarness,
  sessionId: string,
  steps: NewStep[],
  needsApproval = true,
): Promise<number> {
  const { generation } = await h.store.db
    .transaction()
    .execute((tx) => insertPlanGeneration(tx, sessionId, steps, { needsApproval, now: new Date() }));
  await h.events.publish(planProposed({ sessionId, generation }));
  return generation;
}

/** Plays the gate in `run`: an execution waiting for approval, its approval row, approval.requested. */
export async function requestExecutionApproval(
  h: ChatHarness,
  sessionId: string,
  input: {
    target: string;
    command: string;
    risk: RunnableRisk;
    purpose: string;
    requiredPhrase?: string;
    stepSeq?: number;
    generation?: number;
    /** What a standing grant of it would cover (the run service records it when the command may be granted). */
    grantBasis?: GrantBasis | null;
    /** Why oikos cannot read the command (the classification's `unreadable`), as the run service records it. */
    unreadable?: UnreadableKind;
    /** Runs before approval.requested, as the run service records the card's preview there. */
    beforeRequested?: (ids: { executionId: string; approvalId: string }) => Promise<unknown>;
  },
): Promise<{ executionId: string; approvalId: string }> {
  const now = new Date();
  const execution = await createExecution(h.store.db, {
    sessionId,
    target: input.target,
    command: input.command,
    commandKey: `${input.target}:${input.command}`,
    risk: input.risk,
    purpose: input.purpose,
    requestedBy: "agent",
    status: "pending_approval",
    timeoutMs: 60_000,
    deadlineAt: new Date(now.getTime() + 3_600_000),
    planGeneration: input.generation ?? null,
    stepSeq: input.stepSeq ?? null,
  });
  const created = await createExecutionApproval(h.store.db, {
    sessionId,
    executionId: execution.id,
    commandKey: execution.command_key,
    target: input.target,
    risk: input.risk,
    requiredPhrase: input.requiredPhrase ?? null,
    expiresAt: new Date(now.getTime() + 3_600_000),
    grantBasis: input.grantBasis ?? null,
    unreadable: input.unreadable ?? null,
  });
  if (!created.created) throw new Error("another approval is pending");
  await input.beforeRequested?.({ executionId: execution.id, approvalId: created.approval.id });
  await h.events.publish(
    approvalRequested({ sessionId, approvalId: created.approval.id, executionId: execution.id }),
  );
  return { executionId: execution.id, approvalId: created.approval.id };
}

/** The grant basis the run gate records for a grantable command (policy/standing-grant.ts). */
export function grantBasisFor(target: string, command: string): GrantBasis {
  return {
    target,
    command,
    risk: "config_mutation",
    routing: `{"slug":"${target}"}`,
    proof: "p",
    jail: "not_jailed",
  };
}

/** Plays the run service's use of a standing grant: the queued execution, its grant-decided approval, the card. */
export async function runUnderGrant(
  h: ChatHarness,
  sessionId: string,
  grantId: string,
  input: { target: string; command: string },
): Promise<{ executionId: string; approvalId: string }> {
  const now = new Date();
  const used = await recordGrantUse(
    h.store.db,
    {
      grantId,
      sessionId,
      commandKey: `${input.target}:${input.command}`,
      execution: {
        sessionId,
        target: input.target,
        command: input.command,
        commandKey: `${input.target}:${input.command}`,
        risk: "config_mutation",
        purpose: "daily restart",
        requestedBy: "agent",
        status: "queued",
        timeoutMs: 60_000,
        deadlineAt: new Date(now.getTime() + 3_600_000),
      },
    },
    now,
  );
  if (!used.used) throw new Error(`grant ${grantId} is not live`);
  await h.events.publish(
    approvalRequested({ sessionId, approvalId: used.approvalId, executionId: used.execution.id }),
  );
  return { executionId: used.execution.id, approvalId: used.approvalId };
}

/** Plays the execution worker: queued → running → completed with output, with its events. */
export async function finishExecution(
  h: ChatHarness,
  sessionId: string,
  executionId: string,
  result: { exitCode: number; stdout: string },
): Promise<void> {
  const db = h.store.db;
  const running = await transitionExecution(db, executionId, {
    from: "queued",
    to: "running",
    now: new Date(),
  });
  if (!running) throw new Error(`execution ${executionId} (session ${sessionId}) was not queued`);
  await h.events.publish(executionStarted(running));
  const status = result.exitCode === 0 ? "completed" : "failed";
  const finished = await transitionExecution(db, executionId, {
    from: "running",
    to: status,
    now: new Date(),
    set: { exit_code: result.exitCode, stdout: result.stdout, stderr: "", duration_ms: 1200 },
  });
  if (!finished) throw new Error(`execution ${executionId} was not running`);
  await h.events.publish(executionFinished(finished, status));
}

export async function sessionFor(
  h: ChatHarness,
  platform: string,
  room: string,
  thread: string,
  by: string,
): Promise<string> {
  return (await createSession(h.store.db, { platform, room, thread, createdBy: by })).id;
}

export async function queuedJobs(h: ChatHarness, queue: string): Promise<unknown[]> {
  const rows = await h.store.db
    .selectFrom("queue_jobs")
    .select(["data"])
    .where("queue", "=", queue)
    .execute();
  return rows.map((r) => r.data);
}
