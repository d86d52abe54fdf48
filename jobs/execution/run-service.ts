import type { Kysely } from "kysely";
import { redact } from "../../policy/redact.ts";
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
import type { RunGateDecision, RunGateFacts, RunPolicy } from "./run-policy.ts";
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

export type Gated =
  | { ok: false; refusal: Extract<RunOutcome, { kind: "refused" }> }
  | {
      ok: true;
      session: Session;
      entity: Entity;
      target: Target;
      classification: Classification;
      commandKey: string;
      facts: RunGateFacts;
      /** What the risk gate decided; refusals come back as `ok: false`. */
      decision: Exclude<RunGateDecision, { kind: "refuse" }>;
      /** The classification row being written; await it with the next write. */
      recorded: Promise<void>;
    };

export interface GateOptions {
  /** run_many / inspect_path: anything but read-only is refused per target. */
  readOnlyOnly?: boolean;
  /** Takes the pre-plan research slot this call counts against (default: one per call). */
  preplanSlot?: () => Promise<boolean>;
}

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
    const { decision } = gated;
    if (decision.kind === "allow") {
      // Subscribed before the job exists, so the result cannot finish unseen; the classification
      // row and the execution row are independent and written at once.
      const id = newExecutionId();
      const watch = watchExecution(this.#o.db, this.#o.events, id);
      try {
        await Promise.all([this.enqueue(request, gated, id), gated.recorded]);
      } catch (error) {
        watch.cancel();
        throw error;
      }
      const row = await watch.result(this.#o.waitMs);
      if (!row) throw new Error(`execution ${id} vanished`);
      const view = executionView(row);
      return view.finished ? { kind: "finished", execution: view } : { kind: "pending", execution: view };
    }
    await gated.recorded;
    return this.#requestApproval(
      request,
      gated,
      decision.reason,
      decision.kind === "needs_typed_confirmation" ? decision.phrase : null,
    );
  }

  /**
   * Every gate of ARCHITECTURE.md "Gates" and the risk decision, shared by run, run_many and
   * inspect_path: each classification is recorded here, whatever the outcome. An allowed read-only
   * run before any plan takes one slot of the pre-plan research budget atomically (`preplanSlot`:
   * a fan-out passes one shared slot so it counts once).
   */
  async gate(request: RunRequest, options: GateOptions = {}): Promise<Gated> {
    const { db, policy } = this.#o;
    if (!request.sessionId) {
      return fail(
        "no_session",
        "this tool call carries no oikos session id, so nothing may run",
        wiringFault("no"),
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
        `this tool call carries session id ${request.sessionId}, which oikos does not know`,
        wiringFault("an unknown"),
      );
    }
    if (session.status === "done" || session.status === "failed") {
      return fail(
        "session_closed",
        `the task of this session is closed (${session.status})`,
        "the task is closed; answer the operator and end your turn; their next message reopens it (then set_goal and propose_plan)",
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
    const record = (decision: string) =>
      this.#recordClassification(request, { session, classification, commandKey }, decision);
    const refuseRecorded = async (code: string, reason: string, nextStep: string): Promise<Gated> => {
      await record(`refused:${code}`);
      return fail(code, reason, nextStep);
    };
    const self = selfTargetsFrom(this.#o.selfTargets, selfEntities);
    const facts = gateFacts(sessionFacts, {
      risk: classification.risk,
      targetSlug: request.target,
      targetType: resolved.entity.type,
      selfTargetDisruption:
        classification.risk !== "read_only" &&
        classification.risk !== "reject" &&
        disruptsSelf(self, request.target, request.command),
      reasons: classification.reasons,
      command: request.command,
    });
    if (classification.risk === "reject") {
      const rejected = rejectedRefusal(policy.decide(facts), classification);
      return refuseRecorded("command_rejected", rejected.reason, rejected.nextStep);
    }
    const targetCheck = await this.#checkTarget(classification, resolved.entity);
    if (!targetCheck.ok) return refuseRecorded("wrong_target", targetCheck.reason, targetCheck.nextStep);
    if (options.readOnlyOnly && classification.risk !== "read_only") {
      return refuseRecorded(
        "not_read_only",
        `on ${request.target} this command is ${classification.risk}: ${classification.reasons.join("; ")}`,
        "run_many and inspect_path run read-only commands only; use run for each target (it goes through approval)",
      );
    }
    let decision = policy.decide(facts);
    if (decision.kind === "allow" && facts.risk === "read_only" && !planOpen(facts.plan)) {
      const slot = options.preplanSlot ?? (() => this.takePreplanSlot(session.id));
      if (!(await slot())) {
        // Parallel calls took the last slots since the facts were read: decide on the spent budget.
        decision = policy.decide({ ...facts, preplanReadOnlyCalls: policy.preplanReadOnlyCap });
      }
    }
    if (decision.kind === "refuse") return refuseRecorded(decision.code, decision.reason, decision.nextStep);
    const recorded = record(decision.kind);
    // Awaited by the caller together with its next write; never left to reject unobserved.
    recorded.catch(() => {});
    return {
      ok: true,
      session,
      entity: resolved.entity,
      target: resolved.target,
      classification,
      commandKey,
      facts,
      decision,
      recorded,
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
        ...executionFields(request, gated, timeoutMs),
        status: "queued",
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
            ...executionFields(request, gated, request.timeoutMs ?? this.#o.timeoutMs),
            status: "pending_approval",
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
    return {
      kind: "approval_requested",
      ...outcome,
      risk: gated.classification.risk,
      reason: redact(reason),
      phrase,
    };
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

  /**
   * Read-only research before any plan is capped; each run (or fan-out) takes one slot. Check and
   * count are one conditional UPDATE, so parallel calls cannot overshoot the cap. False: no slot left.
   */
  async takePreplanSlot(sessionId: string): Promise<boolean> {
    const row = await this.#o.db
      .updateTable("sessions")
      .set((eb) => ({ preplan_read_only_calls: eb("preplan_read_only_calls", "+", 1) }))
      .where("id", "=", sessionId)
      .where("preplan_read_only_calls", "<", this.#o.policy.preplanReadOnlyCap)
      .returning("preplan_read_only_calls")
      .executeTakeFirst();
    return row !== undefined;
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
  // Reasons quote the command; what the model and chat see of it is redacted.
  return { kind: "refused", code, reason: redact(reason), nextStep: redact(nextStep) };
}

function fail(code: string, reason: string, nextStep: string): Gated {
  return { ok: false, refusal: refused(code, reason, nextStep) };
}

function wiringFault(which: "no" | "an unknown"): string {
  return `this is a wiring fault, not yours: tell the operator the tool call carried ${which} session id, and end your turn`;
}

/** A proposed or approved plan lifts the pre-plan research cap (policy/decide-run.ts planOpen). */
function planOpen(plan: RunGateFacts["plan"]): boolean {
  return plan?.status === "proposed" || plan?.status === "approved";
}

/** policy's command_rejected refusal, with the offending segment and what the classifier says to do. */
function rejectedRefusal(
  decision: RunGateDecision,
  classification: Classification,
): { reason: string; nextStep: string } {
  const offending = classification.segments.filter((segment) => segment.risk === "reject");
  const fixes = (offending.length > 0 ? offending.flatMap((s) => s.reasons) : classification.reasons).join(
    "; ",
  );
  const policyNext = decision.kind === "refuse" ? decision.nextStep : "";
  return {
    reason:
      decision.kind === "refuse"
        ? decision.reason
        : `this command is refused: ${classification.reasons.join("; ")}`,
    nextStep: `fix the offending part (${fixes}), then call run again with the rewritten command${policyNext ? `; ${policyNext}` : ""}`,
  };
}

/** The columns an execution row takes from the request and its gate, whatever its first status. */
function executionFields(request: RunRequest, gated: Extract<Gated, { ok: true }>, timeoutMs: number) {
  return {
    sessionId: gated.session.id,
    planGeneration: gated.facts.plan?.generation ?? null,
    stepSeq: request.stepSeq ?? null,
    target: request.target,
    command: request.command,
    commandKey: gated.commandKey,
    risk: gated.classification.risk,
    purpose: request.purpose,
    requestedBy: request.requestedBy,
    timeoutMs,
  };
}
