import type { Kysely } from "kysely";
import type { Classification } from "../../policy/risk.ts";
import { createExecutionApproval, DEFAULT_APPROVAL_TTL_MS } from "../../store/approvals.ts";
import { QUEUE_WAIT_MS } from "../../store/consent.ts";
import { findEntity, listEntitySlugs } from "../../store/entities.ts";
import { createExecution, newExecutionId } from "../../store/executions.ts";
import type { Database, Entity, Execution, Session } from "../../store/schema.ts";
import type { EventBus } from "../events/port.ts";
import type { QueuePort } from "../queue/port.ts";
import type { Target } from "../ssh/target.ts";
import { type ExecutionView, executionView } from "./execution-view.ts";
import { gateFacts, loadSessionFacts } from "./run-facts.ts";
import type { RunGateFacts, RunPolicy } from "./run-policy.ts";
import { disruptsSelf, selfTargetsFrom } from "./self-protection.ts";
import { resolveTarget } from "./target-resolver.ts";
import { waitForResult, watchExecution } from "./wait-for-result.ts";

export interface RunServiceOptions {
  db: Kysely<Database>;
  events: EventBus;
  queue: QueuePort;
  policy: RunPolicy;
  /** How long `run` waits for a result before answering with the execution id (config execution.waitMs). */
  waitMs: number;
  /** Default command timeout (config execution.timeoutMs). */
  timeoutMs: number;
  /** Slugs that run oikos itself (config self.targets). */
  selfTargets: readonly string[];
  sshUser: string;
  approvalTtlMs?: number;
  /** Close matches for a mistyped slug (mcp-server/suggest.ts closeMatches). */
  suggest?: (wanted: string, known: readonly string[]) => string[];
  clock?: () => Date;
}

export interface RunRequest {
  sessionId: string | null;
  target: string;
  command: string;
  purpose: string;
  stepSeq?: number;
  requestedBy: string;
  timeoutMs?: number;
}

export type RunOutcome =
  | { kind: "finished"; execution: ExecutionView }
  | { kind: "pending"; execution: ExecutionView }
  | {
      kind: "approval_requested";
      executionId: string;
      approvalId: string;
      risk: string;
      reason: string;
      phrase: string | null;
    }
  | { kind: "refused"; code: string; reason: string; nextStep: string };

type Gated =
  | { ok: false; refusal: Extract<RunOutcome, { kind: "refused" }> }
  | {
      ok: true;
      session: Session;
      entity: Entity;
      target: Target;
      classification: Classification;
      commandKey: string;
      facts: RunGateFacts;
    };

/**
 * The gated `run`: every check of ARCHITECTURE.md "Gates", in order, on facts from the store; then
 * an execution row + `execute` job (allowed), or one pending approval (gated), or a refusal that
 * says what to do next. Refusals are data, never exceptions.
 */
export class RunService {
  readonly #o: RunServiceOptions;

  constructor(options: RunServiceOptions) {
    this.#o = options;
  }

  get options(): RunServiceOptions {
    return this.#o;
  }

  now(): Date {
    return this.#o.clock ? this.#o.clock() : new Date();
  }

  async run(request: RunRequest): Promise<RunOutcome> {
    const gated = await this.gate(request);
    if (!gated.ok) return gated.refusal;
    const decision = this.#o.policy.decide(gated.facts);
    const record = this.#recordClassification(
      request,
      gated,
      decision.kind === "refuse" ? `refused:${decision.code}` : decision.kind,
    );
    if (decision.kind === "allow") {
      // Subscribed before the job exists, so the result cannot finish unseen; the classification
      // row and the execution row are independent and written at once.
      const id = newExecutionId();
      const watch = watchExecution(this.#o.db, this.#o.events, id);
      try {
        await Promise.all([this.enqueue(request, gated, id), record]);
      } catch (error) {
        watch.cancel();
        throw error;
      }
      if (gated.facts.risk === "read_only" && gated.facts.plan === null) {
        await this.countPreplanRead(gated.session.id);
      }
      const row = await watch.result(this.#o.waitMs);
      if (!row) throw new Error(`execution ${id} vanished`);
      const view = executionView(row);
      return view.finished ? { kind: "finished", execution: view } : { kind: "pending", execution: view };
    }
    await record;
    if (decision.kind === "refuse") return refused(decision.code, decision.reason, decision.nextStep);
    return this.#requestApproval(
      request,
      gated,
      decision.reason,
      decision.kind === "needs_typed_confirmation" ? decision.phrase : null,
    );
  }

  /** Gates 1–6 plus the facts for the risk gate; shared by run and run_many. */
  async gate(request: RunRequest): Promise<Gated> {
    const { db, policy } = this.#o;
    if (!request.sessionId) {
      return fail(
        "no_session",
        "this call carries no oikos session id, so nothing may run",
        "run commands only from inside an oikos session",
      );
    }
    const commandKey = policy.commandKey(request.target, request.command);
    const [sessionFacts, resolved, selfEntities] = await Promise.all([
      loadSessionFacts(db, {
        sessionId: request.sessionId,
        targetSlug: request.target,
        commandKey,
        now: this.now(),
      }),
      resolveTarget(db, request.target, { sshUser: this.#o.sshUser }),
      this.#selfEntities(),
    ]);
    const session = sessionFacts?.session;
    if (!sessionFacts || !session) {
      return fail(
        "unknown_session",
        `session ${request.sessionId} is unknown`,
        "run commands only from inside an oikos session",
      );
    }
    if (session.status === "done" || session.status === "failed") {
      return fail(
        "session_closed",
        `session ${session.id} is closed (${session.status})`,
        "start a new task to run more commands",
      );
    }
    if (!resolved.ok) {
      if (resolved.reason.startsWith("there is no entity")) {
        const known = await listEntitySlugs(db);
        const close = this.#o.suggest?.(request.target, known) ?? [];
        return fail(
          "unknown_target",
          `unknown target "${request.target}"${close.length ? `; did you mean ${close.join(", ")}?` : ""}`,
          "use an entity slug from list_entities (e.g. host:name, lxc:name)",
        );
      }
      return fail(
        "target_not_runnable",
        resolved.reason,
        "pick a runnable target (see get_entity for its transport) or run on its host",
      );
    }
    const lint = policy.lint(request.command);
    if (!lint.ok) {
      return fail(
        "lint",
        lint.problems.map((p) => p.message).join("; "),
        "rewrite the command as one plain shell line and call run again",
      );
    }
    const classification = policy.classify(request.command, resolved.entity.type);
    const earlyRefusal = async (code: string, reason: string, nextStep: string): Promise<Gated> => {
      await this.#recordClassification(request, { session, classification, commandKey }, `refused:${code}`);
      return fail(code, reason, nextStep);
    };
    if (classification.risk === "reject") {
      return earlyRefusal(
        "command_rejected",
        `this command is refused: ${classification.reasons.join("; ")}`,
        "use a safer form of the command",
      );
    }
    const targetCheck = await this.#checkTarget(classification, resolved.entity);
    if (!targetCheck.ok) return earlyRefusal("wrong_target", targetCheck.reason, targetCheck.nextStep);
    const self = selfTargetsFrom(this.#o.selfTargets, selfEntities);
    const facts = gateFacts(sessionFacts, {
      risk: classification.risk,
      targetSlug: request.target,
      targetType: resolved.entity.type,
      selfTargetDisruption:
        classification.risk !== "read_only" && disruptsSelf(self, request.target, request.command),
      reasons: classification.reasons,
      command: request.command,
    });
    return {
      ok: true,
      session,
      entity: resolved.entity,
      target: resolved.target,
      classification,
      commandKey,
      facts,
    };
  }

  /** An allowed command: execution row (queued) + `execute` job. */
  async enqueue(request: RunRequest, gated: Extract<Gated, { ok: true }>, id?: string): Promise<Execution> {
    const now = this.now();
    const timeoutMs = request.timeoutMs ?? this.#o.timeoutMs;
    const execution = await createExecution(
      this.#o.db,
      {
        ...(id ? { id } : {}),
        sessionId: gated.session.id,
        planGeneration: gated.facts.plan?.generation ?? null,
        stepSeq: request.stepSeq ?? null,
        target: request.target,
        command: request.command,
        commandKey: gated.commandKey,
        risk: gated.classification.risk,
        purpose: request.purpose,
        requestedBy: request.requestedBy,
        status: "queued",
        timeoutMs,
        deadlineAt: new Date(now.getTime() + QUEUE_WAIT_MS + timeoutMs),
      },
      now,
    );
    // A fresh id needs no dedupe key (one round trip less on BullMQ); the worker's claim is the guard.
    await this.#o.queue.enqueue("execute", { executionId: execution.id });
    // Renderers react to this; `run` must not wait for them.
    void this.#o.events
      .publish({ type: "execution.queued", sessionId: gated.session.id, executionId: execution.id })
      .catch(() => {});
    return execution;
  }

  async awaitResult(executionId: string, waitMs = this.#o.waitMs): Promise<RunOutcome> {
    const row = await waitForResult(this.#o.db, this.#o.events, executionId, waitMs);
    if (!row) throw new Error(`execution ${executionId} vanished`);
    const view = executionView(row);
    return view.finished ? { kind: "finished", execution: view } : { kind: "pending", execution: view };
  }

  async #requestApproval(
    request: RunRequest,
    gated: Extract<Gated, { ok: true }>,
    reason: string,
    phrase: string | null,
  ): Promise<RunOutcome> {
    const { db } = this.#o;
    const pendingRefusal = (executionId: string | null) =>
      refused(
        "approval_pending",
        `another command of this session is waiting for approval${executionId ? ` (execution ${executionId})` : ""}`,
        `wait for the operator to decide on execution ${executionId ?? "(pending)"}: end your turn now; you are resumed when they decide`,
      );
    if (gated.facts.pendingApproval) return pendingRefusal(gated.facts.pendingApproval.executionId);
    const now = this.now();
    const expiresAt = new Date(now.getTime() + (this.#o.approvalTtlMs ?? DEFAULT_APPROVAL_TTL_MS));
    const outcome = await db
      .transaction()
      .execute(async (tx) => {
        const execution = await createExecution(
          tx,
          {
            sessionId: gated.session.id,
            planGeneration: gated.facts.plan?.generation ?? null,
            stepSeq: request.stepSeq ?? null,
            target: request.target,
            command: request.command,
            commandKey: gated.commandKey,
            risk: gated.classification.risk,
            purpose: request.purpose,
            requestedBy: request.requestedBy,
            status: "pending_approval",
            timeoutMs: request.timeoutMs ?? this.#o.timeoutMs,
            deadlineAt: expiresAt,
          },
          now,
        );
        const approval = await createExecutionApproval(
          tx,
          {
            sessionId: gated.session.id,
            executionId: execution.id,
            commandKey: gated.commandKey,
            target: request.target,
            risk: gated.classification.risk,
            requiredPhrase: phrase,
            expiresAt,
          },
          now,
        );
        if (!approval.created) throw new LostApprovalRace(approval.pending?.execution_id ?? null);
        await tx
          .updateTable("executions")
          .set({ approval_id: approval.approval.id })
          .where("id", "=", execution.id)
          .execute();
        return { executionId: execution.id, approvalId: approval.approval.id };
      })
      .catch((error: unknown) => {
        if (error instanceof LostApprovalRace) return error;
        throw error;
      });
    if (outcome instanceof LostApprovalRace) return pendingRefusal(outcome.executionId);
    await this.#o.events.publish({
      type: "approval.requested",
      sessionId: gated.session.id,
      approvalId: outcome.approvalId,
      executionId: outcome.executionId,
    });
    return { kind: "approval_requested", ...outcome, risk: gated.classification.risk, reason, phrase };
  }

  async #recordClassification(
    request: RunRequest,
    gated: { session: Session; classification: Classification; commandKey: string },
    decision: string,
  ): Promise<void> {
    await this.#o.db
      .insertInto("classifications")
      .values({
        session_id: gated.session.id,
        target: request.target,
        command: request.command,
        command_key: gated.commandKey,
        risk: gated.classification.risk,
        reasons: JSON.stringify(gated.classification.reasons),
        decision,
      })
      .execute();
  }

  /** Read-only research before any plan is capped; each run (or fan-out) counts once. */
  async countPreplanRead(sessionId: string): Promise<void> {
    await this.#o.db
      .updateTable("sessions")
      .set((eb) => ({ preplan_read_only_calls: eb("preplan_read_only_calls", "+", 1) }))
      .where("id", "=", sessionId)
      .execute();
  }

  /** policy checkTarget; on a refusal asked again with the owning host as a candidate to suggest. */
  async #checkTarget(classification: Classification, entity: Entity) {
    const facts = (e: Entity) => ({
      slug: e.slug,
      type: e.type,
      attributes: e.attributes,
      ...(e.parent_slug ? { parentSlug: e.parent_slug } : {}),
    });
    const first = this.#o.policy.checkTarget(classification, facts(entity), []);
    if (first.ok || !entity.parent_slug) return first;
    const parent = await findEntity(this.#o.db, entity.parent_slug);
    return parent ? this.#o.policy.checkTarget(classification, facts(entity), [facts(parent)]) : first;
  }

  async #selfEntities(): Promise<Entity[]> {
    if (this.#o.selfTargets.length === 0) return [];
    return this.#o.db
      .selectFrom("entities")
      .selectAll()
      .where("slug", "in", [...this.#o.selfTargets])
      .execute();
  }
}

class LostApprovalRace {
  readonly executionId: string | null;
  constructor(executionId: string | null) {
    this.executionId = executionId;
  }
}

export function refused(
  code: string,
  reason: string,
  nextStep: string,
): Extract<RunOutcome, { kind: "refused" }> {
  return { kind: "refused", code, reason, nextStep };
}

function fail(code: string, reason: string, nextStep: string): Gated {
  return { ok: false, refusal: refused(code, reason, nextStep) };
}
