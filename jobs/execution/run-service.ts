import type { Classifier } from "../../policy/classify.ts";
import { closeMatches } from "../../policy/close-matches.ts";
import { commandKey } from "../../policy/command-key.ts";
import {
  DEFAULT_PREPLAN_READ_ONLY_CAP,
  decideRun,
  grantBasisOfFacts,
  type RunDecision,
  type RunFacts,
  type RunnableRisk,
  type RunTargetFacts,
  UNCLASSIFIED_REFUSALS,
} from "../../policy/decide-run.ts";
import { recordedShell, shellDialect, shellJailReason } from "../../policy/guest-shell.ts";
import {
  grantsUnavailableOf,
  type JailFacts,
  type JailMode,
  jailAvailabilityOf,
  jailModeOf,
  jailPlanFor,
  unjailedAllowedOf,
} from "../../policy/jail.ts";
import { redact } from "../../policy/redact.ts";
import type { Refusal } from "../../policy/refusals.ts";
import type { Classification } from "../../policy/risk.ts";
import { findCoveringGrant, type GrantMiss } from "../../policy/standing-grant.ts";
import { checkTarget, type TargetFacts } from "../../policy/target-check.ts";
import { DEFAULT_APPROVAL_TTL_MS } from "../../store/approvals.ts";
import { recordClassification } from "../../store/classifications.ts";
import { QUEUE_WAIT_MS } from "../../store/consent.ts";
import type { Db } from "../../store/db.ts";
import { approvalRequested, executionQueued } from "../../store/domain-events.ts";
import { type Entity, findEntities, findEntity, listEntitySlugs } from "../../store/entities.ts";
import { createExecutionAwaitingApproval } from "../../store/execution-approval.ts";
import { createExecution, type Execution, newExecutionId } from "../../store/executions.ts";
import { loadSessionFacts } from "../../store/run-gate-facts.ts";
import { type Session, takePreplanSlot } from "../../store/sessions.ts";
import {
  endStandingGrant,
  type GrantEndReason,
  grantsNaming,
  recordGrantUse,
} from "../../store/standing-grants.ts";
import { touchEntities } from "../../store/task-graph.ts";
import type { EventBus } from "../events/port.ts";
import type { PlanPreviewer, PreviewTarget } from "../preview/previewer.ts";
import { QueueClosedError } from "../queue/errors.ts";
import type { QueuePort } from "../queue/port.ts";
import type { Target } from "../ssh/target.ts";
import { ApprovalPreviews, DEFAULT_PREVIEW_TIMEOUT_MS } from "./approval-preview.ts";
import { type ExecutionView, executionView } from "./execution-view.ts";
import { routingStamp } from "./routing-stamp.ts";
import { runSessionFacts } from "./run-facts.ts";
import { disruptsSelf, selfTargetsFrom } from "./self-protection.ts";
import { type ResolvedTarget, resolveTarget } from "./target-resolver.ts";
import { waitForResult, watchExecution } from "./wait-for-result.ts";

export interface RunServiceOptions {
  db: Db;
  events: EventBus;
  queue: QueuePort;
  /**
   * The bash grammar, loaded on the first command gated (policy/classify.ts loadClassifier, which
   * loads it once per process): its two wasm parsers are ~50 MB an idle process does not need.
   */
  classifier: () => Promise<Classifier>;
  /** How long `run` waits for a result before answering with the execution id (config execution.waitMs). */
  waitMs: number;
  /** The process begins to stop: `run` stops waiting for a result (the command will not start here). */
  stopping?: AbortSignal;
  /** Default command timeout (config execution.timeoutMs). */
  timeoutMs: number;
  /** Slugs that run oikos itself (config self.targets). */
  selfTargets: readonly string[];
  sshUser: string;
  /**
   * config execution.readOnlyJail (whose default is auto); an entity's `jail.mode` attribute
   * overrides it. Left out: off, for harnesses whose fake tools must write where a jail cannot.
   */
  readOnlyJail?: JailMode;
  approvalTtlMs?: number;
  clock?: () => Date;
  /**
   * Plan previews (issue #15): computed for every approval this service asks, and checked again
   * when the operator approves. Left out: approval cards show no preview section.
   */
  previews?: {
    previewer: PlanPreviewer;
    /** config execution.previewTimeoutMs */
    timeoutMs?: number;
    /** config execution.previewMaxAgeMs: a shown preview older than this is computed again at approval. */
    maxAgeMs?: number;
  };
  /**
   * First contact with a Proxmox guest whose shell no probe has confirmed (jobs/proxmox/guest-probe.ts
   * probeAtFirstContact): probes it and records what it found, before its first command is graded.
   * Left out: the shell discovery recorded (or bash) is used as it is.
   */
  firstContact?: (entity: Entity, target: Target) => Promise<void>;
  /** Releases what the service holds (the previews' SSH pool); called once when the process stops. */
  close?: () => Promise<void>;
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

/** What `run` ends in: policy's refusal exactly as decided, an approval request, or the execution. */
export type RunOutcome =
  | Refusal
  | { kind: "finished"; execution: ExecutionView }
  | { kind: "pending"; execution: ExecutionView }
  | {
      kind: "approval_requested";
      executionId: string;
      approvalId: string;
      risk: RunnableRisk;
      reason: string;
      phrase: string | null;
    };

/** A command that passed every gate: allowed, or waiting for the operator's approval. */
export interface GatePassed {
  kind: "passed";
  decision: Exclude<RunDecision, Refusal>;
  session: Session;
  entity: Entity;
  target: Target;
  classification: Classification;
  commandKey: string;
  facts: RunFacts;
  planGeneration: number | null;
  /** The classification row being written; await it with the next write. */
  recorded: Promise<void>;
}

export interface GateOptions {
  /** run_many / inspect_path: anything but read-only is refused per target. */
  readOnlyOnly?: boolean;
  /** Takes the pre-plan research slot this call counts against (default: one per call). */
  preplanSlot?: () => Promise<boolean>;
}

/**
 * The gated `run`: gathers the facts from the store, asks policy/decide-run.ts (the one statement
 * of the gates and their order), then writes an execution row + `execute` job (allowed), or one
 * pending approval (gated), or returns policy's refusal unchanged. Refusals are data, never exceptions.
 */
export class RunService {
  readonly #o: RunServiceOptions;
  /** Previews on approval cards; undefined when no previewer is configured. */
  readonly previews: ApprovalPreviews | undefined;

  constructor(options: RunServiceOptions) {
    this.#o = options;
    this.previews = options.previews
      ? new ApprovalPreviews({
          db: options.db,
          previewer: options.previews.previewer,
          previewTarget: (slug) => this.previewTarget(slug),
          timeoutMs: options.previews.timeoutMs ?? DEFAULT_PREVIEW_TIMEOUT_MS,
          maxAgeMs: options.previews.maxAgeMs ?? 0,
          approvalTtlMs: options.approvalTtlMs ?? DEFAULT_APPROVAL_TTL_MS,
          clock: () => this.now(),
        })
      : undefined;
  }

  async close(): Promise<void> {
    await this.#o.close?.();
  }

  /** Where a preview of a command on `slug` runs now: its route, type and jail facts (as a read-only run). */
  async previewTarget(slug: string): Promise<PreviewTarget | undefined> {
    const resolved = await resolveTarget(this.#o.db, slug, { sshUser: this.#o.sshUser });
    // a preview's probes are bash, run in the jail: a guest without bash gets none
    if (!resolved.ok || resolved.target.shell !== undefined) return undefined;
    return {
      target: resolved.target,
      targetType: resolved.entity.type,
      jail: this.#jailFacts(resolved.entity),
    };
  }

  get options(): RunServiceOptions {
    return this.#o;
  }

  now(): Date {
    return this.#o.clock ? this.#o.clock() : new Date();
  }

  async run(request: RunRequest): Promise<RunOutcome> {
    const gated = await this.gate(request);
    if (gated.kind === "refused") return gated;
    const { decision } = gated;
    if (decision.kind === "allow" && decision.via === "standing_grant" && decision.grant) {
      const ran = await this.#runUnderGrant(request, gated, decision.grant.id);
      if (ran) return ran;
      // The grant ended or expired since the gate read it: decide again without it.
      return this.run(request);
    }
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
      const row = await watch.result(this.#o.waitMs, this.#o.stopping);
      if (!row) throw new Error(`execution ${id} vanished`);
      return resultOf(row);
    }
    await gated.recorded;
    return this.#requestApproval(request, gated, decision);
  }

  /**
   * The facts of one call and policy's decision on them, shared by run, run_many and inspect_path.
   * The classification is recorded whatever the outcome once the command was classified. An
   * allowed read-only run before any plan takes one slot of the pre-plan research budget atomically
   * (`preplanSlot`: a fan-out passes one shared slot so it counts once).
   */
  async gate(request: RunRequest, options: GateOptions = {}): Promise<Refusal | GatePassed> {
    const { db } = this.#o;
    const key = commandKey(request.target, request.command);
    const [classifier, loaded, resolved, selfEntities, standingGrants] = await Promise.all([
      this.#o.classifier(),
      request.sessionId
        ? loadSessionFacts(db, {
            sessionId: request.sessionId,
            targetSlug: request.target,
            commandKey: key,
            now: this.now(),
          })
        : undefined,
      this.#resolveAfterFirstContact(request.target),
      this.#selfEntities(),
      options.readOnlyOnly ? [] : grantsNaming(db, request.target, request.command),
    ]);
    // One parse of the command serves both the classification and the lint.
    const { classification, lint } = classifier.inspect(
      request.command,
      resolved.ok ? resolved.entity.type : undefined,
      shellDialect(resolved.ok ? (resolved.target.shell ?? null) : null),
    );
    const self = selfTargetsFrom(this.#o.selfTargets, selfEntities);
    const facts: RunFacts = {
      command: request.command,
      targetSlug: request.target,
      session: runSessionFacts(request.sessionId, loaded),
      target: await this.#targetFacts(request.target, resolved, classification),
      lint,
      classification,
      readOnlyOnly: options.readOnlyOnly ?? false,
      affectsSelf:
        classification.risk !== "read_only" &&
        classification.risk !== "reject" &&
        disruptsSelf(self, request.target, request.command),
      preplanReadOnlyCap: DEFAULT_PREPLAN_READ_ONLY_CAP,
      ...(resolved.ok
        ? { jail: this.#jailFacts(resolved.entity), routing: routingStamp(resolved.target) }
        : {}),
      standingGrants,
      now: this.now(),
    };
    let decision = decideRun(facts);
    if (resolved.ok && standingGrants.length > 0) await this.#endChangedGrants(facts);
    if (decision.kind === "refused") {
      if (loaded && !UNCLASSIFIED_REFUSALS.has(decision.code)) {
        await this.#recordClassification(
          request,
          loaded.session,
          classification,
          key,
          `refused:${decision.code}`,
        );
      }
      return decision;
    }
    // Every pass comes from an open session on a runnable target: decideRun refuses anything else.
    if (!loaded || !resolved.ok) throw new Error("run gate passed without a session or a target");
    if (decision.kind === "allow" && decision.preplanSlot) {
      const slot = options.preplanSlot ?? (() => this.takePreplanSlot(loaded.session.id));
      if (!(await slot())) {
        // Parallel calls took the last slots since the facts were read: decide on the spent budget.
        decision = decideRun(withSession(facts, { preplanReadOnlyCalls: DEFAULT_PREPLAN_READ_ONLY_CAP }));
        if (decision.kind === "refused") {
          await this.#recordClassification(
            request,
            loaded.session,
            classification,
            key,
            `refused:${decision.code}`,
          );
          return decision;
        }
      }
    }
    const recorded = this.#recordClassification(request, loaded.session, classification, key, decision.kind);
    // Awaited by the caller together with its next write; never left to reject unobserved.
    recorded.catch(() => {});
    return {
      kind: "passed",
      decision,
      session: loaded.session,
      entity: resolved.entity,
      target: resolved.target,
      classification,
      commandKey: key,
      facts,
      planGeneration: loaded.plan?.generation ?? null,
      recorded,
    };
  }

  /** An allowed command: execution row (queued) + `execute` job. */
  async enqueue(request: RunRequest, gated: GatePassed, id?: string): Promise<Execution> {
    const now = this.now();
    const timeoutMs = request.timeoutMs ?? this.#o.timeoutMs;
    const execution = await createExecution(
      this.#o.db,
      {
        ...(id ? { id } : {}),
        ...executionFields(request, gated, timeoutMs, { approved: false }),
        status: "queued",
        deadlineAt: new Date(now.getTime() + QUEUE_WAIT_MS + timeoutMs),
      },
      now,
    );
    // The task's touch of its target is written beside the job, not before it (awaited below).
    const touching = this.#touched(gated.session.id, request.target);
    touching.catch(() => {});
    // A fresh id needs no dedupe key (one round trip less on BullMQ); the worker's claim is the guard.
    try {
      await this.#o.queue.enqueue("execute", { executionId: execution.id });
    } catch (error) {
      // Stopping: the row stays queued and the next start gives it its job (requeue.ts); `run` reports it pending.
      if (!(error instanceof QueueClosedError)) throw error;
    }
    // Renderers react to this; `run` must not wait for them.
    void this.#o.events.publish(executionQueued(execution)).catch(() => {});
    await touching;
    return execution;
  }

  /** The execution's state after waiting up to `waitMs` for it to finish. */
  async awaitResult(executionId: string, waitMs = this.#o.waitMs): Promise<ExecutionResult> {
    const row = await waitForResult(this.#o.db, this.#o.events, executionId, waitMs);
    if (!row) throw new Error(`execution ${executionId} vanished`);
    return resultOf(row);
  }

  async #requestApproval(
    request: RunRequest,
    gated: GatePassed,
    decision: Extract<RunDecision, { kind: "needs_approval" | "needs_typed_confirmation" }>,
  ): Promise<RunOutcome> {
    const phrase = decision.kind === "needs_typed_confirmation" ? decision.phrase : null;
    const now = this.now();
    const expiresAt = new Date(now.getTime() + (this.#o.approvalTtlMs ?? DEFAULT_APPROVAL_TTL_MS));
    const made = await createExecutionAwaitingApproval(
      this.#o.db,
      {
        execution: {
          ...executionFields(request, gated, request.timeoutMs ?? this.#o.timeoutMs, { approved: true }),
          status: "pending_approval",
          deadlineAt: expiresAt,
        },
        approval: {
          sessionId: gated.session.id,
          commandKey: gated.commandKey,
          target: request.target,
          risk: gated.decision.risk,
          requiredPhrase: phrase,
          expiresAt,
          grantBasis: grantBasisOf(gated.facts),
          unreadable: gated.classification.unreadable ?? null,
        },
      },
      now,
    );
    if (!made.created) {
      // Another call of this session asked first: decide again knowing its approval is pending.
      const winner = made.pending?.execution_id ?? made.pending?.id ?? "(pending)";
      const again = decideRun(withSession(gated.facts, { pendingApprovalExecutionId: winner }));
      if (again.kind !== "refused")
        throw new Error(`a pending approval did not refuse a gated command: ${again.kind}`);
      return again;
    }
    const outcome = { executionId: made.executionId, approvalId: made.approvalId };
    await this.#touched(gated.session.id, request.target);
    // Computed (bounded in time) before the card is asked for, so the card is posted with it.
    await this.previews
      ?.previewNewApproval({
        sessionId: gated.session.id,
        executionId: outcome.executionId,
        approvalId: outcome.approvalId,
        target: request.target,
        command: request.command,
      })
      .catch(() => {
        // Not recorded: the card says so, and the approval recomputes it (approval-gate.ts "not_recorded").
      });
    await this.#o.events.publish(
      approvalRequested({
        sessionId: gated.session.id,
        approvalId: outcome.approvalId,
        executionId: outcome.executionId,
      }),
    );
    return {
      kind: "approval_requested",
      ...outcome,
      risk: decision.risk,
      reason: redact(decision.reason),
      phrase,
    };
  }

  /**
   * The task touched its target: a command for it passed the gate (store/task-graph.ts). Written
   * here, by the gate, never by the model; the first touch publishes `entity.touched`.
   */
  async #touched(sessionId: string, target: string): Promise<void> {
    const touched = await touchEntities(this.#o.db, {
      sessionId,
      slugs: [target],
      via: "run",
      at: this.now(),
    });
    for (const event of touched.events) void this.#o.events.publish(event).catch(() => {});
  }

  /**
   * A command a standing grant covers (issue #32): queued with an approval row decided by the grant,
   * its card posted ("ran under ♾️ grant …"), and `run` waits for it like any allowed command.
   * Undefined when the grant ended or expired between the gate and this write.
   */
  async #runUnderGrant(
    request: RunRequest,
    gated: GatePassed,
    grantId: string,
  ): Promise<RunOutcome | undefined> {
    const now = this.now();
    const timeoutMs = request.timeoutMs ?? this.#o.timeoutMs;
    const use = await recordGrantUse(
      this.#o.db,
      {
        grantId,
        sessionId: gated.session.id,
        commandKey: gated.commandKey,
        execution: {
          ...executionFields(request, gated, timeoutMs, { approved: true }),
          status: "queued",
          deadlineAt: new Date(now.getTime() + QUEUE_WAIT_MS + timeoutMs),
        },
      },
      now,
    );
    await gated.recorded;
    if (!use.used) return undefined;
    await this.#touched(gated.session.id, request.target);
    const id = use.execution.id;
    const watch = watchExecution(this.#o.db, this.#o.events, id);
    try {
      await this.#o.queue.enqueue("execute", { executionId: id });
    } catch (error) {
      if (!(error instanceof QueueClosedError)) {
        watch.cancel();
        throw error;
      }
    }
    await this.#o.events.publish(
      approvalRequested({ sessionId: gated.session.id, approvalId: use.approvalId, executionId: id }),
    );
    void this.#o.events.publish(executionQueued(use.execution)).catch(() => {});
    const row = await watch.result(this.#o.waitMs);
    if (!row) throw new Error(`execution ${id} vanished`);
    return resultOf(row);
  }

  /** Grants of this command whose routing, proof or jail state changed end here, audited (policy decides which). */
  async #endChangedGrants(facts: RunFacts): Promise<void> {
    const { killed } = findCoveringGrant(facts.standingGrants ?? [], grantBasisOfFacts(facts), this.now());
    for (const { grant, miss } of killed) {
      await endStandingGrant(this.#o.db, grant.id, {
        by: "oikos",
        reason: endReasonOf(miss),
        now: this.now(),
      });
    }
  }

  async #recordClassification(
    request: RunRequest,
    session: Session,
    classification: Classification,
    key: string,
    decision: string,
  ): Promise<void> {
    await recordClassification(this.#o.db, {
      sessionId: session.id,
      target: request.target,
      command: request.command,
      commandKey: key,
      risk: classification.risk,
      reasons: classification.reasons,
      decision,
    });
  }

  /**
   * Read-only research before any plan is capped; each run (or fan-out) takes one slot. Check and
   * count are one conditional UPDATE, so parallel calls cannot overshoot the cap. False: no slot left.
   */
  takePreplanSlot(sessionId: string): Promise<boolean> {
    return takePreplanSlot(this.#o.db, sessionId, DEFAULT_PREPLAN_READ_ONLY_CAP);
  }

  /**
   * The target part of the facts. Close matches are looked up only for an unknown slug, and the
   * owning host only when the target cannot run the command (it is the suggestion to run it there).
   */
  async #targetFacts(
    slug: string,
    resolved: ResolvedTarget,
    classification: Classification,
  ): Promise<RunTargetFacts> {
    if (!resolved.ok && resolved.missing) {
      return { state: "unknown", suggestions: closeMatches(slug, await listEntitySlugs(this.#o.db)) };
    }
    if (!resolved.ok) return { state: "not_runnable", reason: resolved.reason };
    const entity = targetFactsOf(resolved.entity);
    const parentSlug = resolved.entity.parent_slug;
    if (!parentSlug || checkTarget(classification, entity).ok)
      return { state: "runnable", entity, candidates: [] };
    const parent = await findEntity(this.#o.db, parentSlug);
    return { state: "runnable", entity, candidates: parent ? [targetFactsOf(parent)] : [] };
  }

  /**
   * The target as it resolves, after a first-contact probe of a guest whose shell no probe has
   * confirmed (the command is graded for the shell the guest has). A probe that fails changes nothing.
   */
  async #resolveAfterFirstContact(slug: string): Promise<ResolvedTarget> {
    const resolved = await resolveTarget(this.#o.db, slug, { sshUser: this.#o.sshUser });
    const { firstContact } = this.#o;
    if (!firstContact || !resolved.ok || resolved.target.vmid === undefined) return resolved;
    if (recordedShell(resolved.entity.attributes).probed) return resolved;
    try {
      await firstContact(resolved.entity, resolved.target);
    } catch {
      return resolved;
    }
    return resolveTarget(this.#o.db, slug, { sshUser: this.#o.sshUser });
  }

  /**
   * The jail mode for this target and what the entity records of its detection (policy/jail.ts); a
   * guest without bash cannot jail (policy/guest-shell.ts), whatever was detected before.
   */
  #jailFacts(entity: Entity): JailFacts {
    const noBash = shellJailReason(recordedShell(entity.attributes).shell);
    return {
      mode: jailModeOf(this.#o.readOnlyJail ?? "off", entity.attributes),
      availability:
        noBash === null
          ? jailAvailabilityOf(entity.attributes, this.now())
          : { state: "unavailable", reason: noBash },
      unjailedAllowed: unjailedAllowedOf(entity.attributes),
      grantsUnavailable: grantsUnavailableOf(entity.attributes),
    };
  }

  async #selfEntities(): Promise<Entity[]> {
    return findEntities(this.#o.db, this.#o.selfTargets);
  }
}

/** The basis a grant of the gated command would have; null when none may be made. */
function grantBasisOf(facts: RunFacts) {
  const basis = grantBasisOfFacts(facts);
  return basis.ok ? basis.basis : null;
}

function endReasonOf(miss: GrantMiss): GrantEndReason {
  return miss === "routing_changed" || miss === "jail_changed" ? miss : "proof_changed";
}

/** An execution as `run` and `get_execution_status` report it: finished, or still pending. */
export type ExecutionResult = Extract<RunOutcome, { kind: "finished" | "pending" }>;

export function resultOf(row: Execution): ExecutionResult {
  const view = executionView(row);
  return view.finished ? { kind: "finished", execution: view } : { kind: "pending", execution: view };
}

/** The same facts with the session's open facts changed (a spent budget, a pending approval). */
function withSession(
  facts: RunFacts,
  change: Partial<Extract<RunFacts["session"], { state: "open" }>>,
): RunFacts {
  if (facts.session.state !== "open") return facts;
  return { ...facts, session: { ...facts.session, ...change } };
}

function targetFactsOf(entity: Entity): TargetFacts {
  return {
    slug: entity.slug,
    type: entity.type,
    attributes: entity.attributes,
    ...(entity.parent_slug ? { parentSlug: entity.parent_slug } : {}),
  };
}

/**
 * The columns an execution row takes from the request and its gate, whatever its first status.
 * `approved`: it runs only once the operator approves it, and then exactly as approved (unjailed).
 */
function executionFields(
  request: RunRequest,
  gated: GatePassed,
  timeoutMs: number,
  release: { approved: boolean },
) {
  const jail = jailPlanFor({
    risk: gated.decision.risk,
    approved: release.approved,
    jail: gated.facts.jail,
    grants: gated.classification.grants ?? [],
  });
  return {
    jailPlan: jail.plan,
    jailNote: jail.note,
    jailGrants: jail.grants,
    sessionId: gated.session.id,
    planGeneration: gated.planGeneration,
    stepSeq: request.stepSeq ?? null,
    target: request.target,
    command: request.command,
    commandKey: gated.commandKey,
    risk: gated.decision.risk,
    purpose: request.purpose,
    requestedBy: request.requestedBy,
    timeoutMs,
    routing: routingStamp(gated.target),
  };
}
