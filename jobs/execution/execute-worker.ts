import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { redact } from "../../policy/redact.ts";
import type { Db } from "../../store/db.ts";
import { approvalRequested, executionFinished, executionStarted } from "../../store/domain-events.ts";
import type { Entity } from "../../store/entities.ts";
import {
  claimExecution,
  type Execution,
  getExecution,
  heartbeatExecution,
  type TerminalExecutionStatus,
  transitionExecution,
} from "../../store/executions.ts";
import {
  auditExecutionJail,
  offerUnjailedReadOnly,
  recordGrantUnavailable,
  recordJailDetection,
} from "../../store/jail-detection.ts";
import { untilReachable } from "../../store/unreachable.ts";
import type { EventBus } from "../events/port.ts";
import { KeyedSemaphore } from "../keyed-semaphore.ts";
import { noteRollbackFinished } from "../proxmox/rollback.ts";
import type { SnapshotBeforeConfig } from "../proxmox/snapshot-before.ts";
import { snapshotGate } from "../proxmox/snapshot-gate.ts";
import { UnrecoverableJobError } from "../queue/errors.ts";
import type { InterruptedJob, JobContext, QueuePort } from "../queue/port.ts";
import type { ExecOptions, ExecResult } from "../ssh/exec-result.ts";
import { safeText } from "../ssh/output-text.ts";
import type { Target } from "../ssh/target.ts";
import { type JailedRun, runUnderJailPlan } from "./jailed-run.ts";
import { DEFAULT_EXECUTE_CONCURRENCY, PER_TARGET_CONCURRENCY } from "./limits.ts";
import { routingChangedReason } from "./routing-stamp.ts";
import { type ResolvedTarget, resolveTarget, type TargetDefaults } from "./target-resolver.ts";

/** What runs a command on a target: jobs/ssh TransportRouter satisfies it. */
export interface CommandRunner {
  exec(target: Target, command: string, options?: ExecOptions): Promise<ExecResult>;
}

export interface ExecuteWorkerOptions {
  db: Db;
  events: EventBus;
  queue: QueuePort;
  runner: CommandRunner;
  /**
   * policy/redact: applied to stdout, stderr and the status reason before they are stored (and so
   * before any model sees them). Output arrives capped (head + tail); redact also catches a private
   * key whose BEGIN line fell into the dropped middle.
   */
  redact: (text: string) => string;
  targets: TargetDefaults;
  /** Executions running at once on one target in this process. Default 4. */
  perTargetConcurrency?: number;
  /** Executions running at once in this process, all targets (config execution.concurrency). Default 64. */
  concurrency?: number;
  /** Heartbeat period; the stale sweep gives up on a row after several missed beats. Default 5 s. */
  heartbeatMs?: number;
  /** Per stream, head + tail kept. Default 64 KiB. */
  maxOutputBytes?: number;
  workerId?: string;
  /** Snapshot Proxmox guests before approved changes (execution.snapshotBefore); unset: never. */
  snapshotBefore?: SnapshotBeforeConfig;
  /**
   * After a command ran and before execution.finished is published: the comparison with the
   * preview the operator approved (ApprovalPreviews.checkOutcome, issue #15). Failures are logged.
   */
  afterRun?: (execution: Execution) => Promise<unknown>;
  /**
   * The process begins to stop: no command starts from then on. The row stays `queued` and the
   * next start gives it its job again (requeue.ts); the approval it holds still counts there.
   */
  stopping?: AbortSignal;
  logger?: { warn(object: object, message: string): void; error(object: object, message: string): void };
}

export const DEFAULT_HEARTBEAT_MS = 5_000;
/** A read-only execution whose worker died is retried automatically at most this many runs in all. */
export const MAX_READ_ONLY_ATTEMPTS = 2;

/**
 * Registers the `execute` queue handler: claim queued → running (a second delivery of the same job
 * finds the row not queued and does nothing), heartbeat while the command runs, record the result,
 * publish execution.started / execution.finished. A job interrupted mid-run is never re-run blindly:
 * onInterrupted marks a mutating execution interrupted; only read-only ones go back to the queue.
 */
export function registerExecuteWorker(options: ExecuteWorkerOptions): { workerId: string } {
  const workerId = options.workerId ?? `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
  const limiter = new KeyedSemaphore(options.perTargetConcurrency ?? PER_TARGET_CONCURRENCY);
  options.queue.register("execute", (job) => runExecution(options, workerId, limiter, job), {
    concurrency: options.concurrency ?? DEFAULT_EXECUTE_CONCURRENCY,
    onInterrupted: (job) => handleInterrupted(options, job),
  });
  return { workerId };
}

export interface StartExecuteWorkerDeps {
  db: Db;
  events: EventBus;
  queue: QueuePort;
  runner: CommandRunner;
  /** SSH user for targets whose entity names none (config ssh.user). */
  sshUser: string;
  heartbeatMs?: number;
  maxOutputBytes?: number;
  perTargetConcurrency?: number;
  /** Config execution.concurrency. */
  concurrency?: number;
  snapshotBefore?: SnapshotBeforeConfig;
  afterRun?: ExecuteWorkerOptions["afterRun"];
  stopping?: AbortSignal;
  logger?: ExecuteWorkerOptions["logger"];
}

/** The `execute` worker as every process wires it: policy/redact on everything it stores. */
export function startExecuteWorker(deps: StartExecuteWorkerDeps): { workerId: string } {
  const { sshUser, ...rest } = deps;
  return registerExecuteWorker({ ...rest, redact, targets: { sshUser } });
}

async function runExecution(
  options: ExecuteWorkerOptions,
  workerId: string,
  limiter: KeyedSemaphore,
  job: JobContext<{ executionId: string }>,
): Promise<void> {
  const { db, events } = options;
  if (options.stopping?.aborted) return;
  const row = await getExecution(db, job.data.executionId);
  if (!row) throw new UnrecoverableJobError(`execution ${job.data.executionId} does not exist`);
  if (row.status !== "queued") return; // duplicate delivery, cancelled or expired meanwhile
  const release = await limiter.acquire(row.target, job.signal);
  if (!release) throw job.signal.reason;
  try {
    // Stopping began while it waited for its turn on the target: it stays queued for the next start.
    if (options.stopping?.aborted) return;
    // Looking the target up does not depend on winning the claim: both in one round trip's time.
    const [claimed, resolved] = await Promise.all([
      claimExecution(db, row.id, workerId),
      resolveTarget(db, row.target, options.targets),
    ]);
    if (!claimed) return;
    // Progress for renderers; the command must not wait for them.
    void events.publish(executionStarted(claimed)).catch(() => {});
    const status = await execute(options, workerId, claimed, resolved, job.signal);
    if (status) {
      await noteRollbackFinished(db, claimed, status).catch((error: unknown) =>
        options.logger?.warn({ err: error, executionId: claimed.id }, "could not mark the rollback done"),
      );
      await options
        .afterRun?.(claimed)
        .catch((error: unknown) =>
          options.logger?.warn({ err: error, executionId: claimed.id }, "the after-run preview check failed"),
        );
      await events.publish(executionFinished(claimed, status));
    }
  } finally {
    release();
  }
}

/** Runs the claimed execution and records its end; returns the final status if this worker recorded it. */
async function execute(
  options: ExecuteWorkerOptions,
  workerId: string,
  row: Execution,
  resolved: ResolvedTarget,
  jobSignal: AbortSignal,
): Promise<TerminalExecutionStatus | undefined> {
  const { db } = options;
  if (!resolved.ok) {
    const failed = await transitionExecution(db, row.id, {
      from: "running",
      to: "failed",
      workerId,
      reason: options.redact(safeText(`cannot reach target: ${resolved.reason}`)),
    });
    return failed ? "failed" : undefined;
  }
  const rerouted = routingChangedReason(row.routing, resolved.target);
  if (rerouted) {
    const failed = await transitionExecution(db, row.id, {
      from: "running",
      to: "failed",
      workerId,
      reason: options.redact(rerouted),
    });
    return failed ? "failed" : undefined;
  }
  const stop = new AbortController();
  let stopReason: "cancel" | "lost" | null = null;
  const beat = setInterval(() => {
    heartbeatExecution(db, row.id, workerId).then(
      (state) => {
        if (!state.alive) stopReason ??= "lost";
        else if (state.cancelRequested) stopReason ??= "cancel";
        if (stopReason) stop.abort(new Error(stopReason));
      },
      (error: unknown) => options.logger?.warn({ err: error, executionId: row.id }, "heartbeat failed"),
    );
  }, options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS);
  let run: JailedRun | undefined;
  let failure: string | undefined;
  try {
    if (options.snapshotBefore) {
      // a failed snapshot makes the change wait for the operator (nothing runs) or fail with why
      const gate = await snapshotGate(
        {
          db,
          events: options.events,
          runner: options.runner,
          config: options.snapshotBefore,
          redact: options.redact,
          ...(options.logger ? { logger: options.logger } : {}),
        },
        row,
        resolved.target,
        resolved.entity,
        workerId,
      );
      if (gate.kind === "asked") return undefined;
      // nothing runs: the execution ends failed with the gate's reason
      if (gate.kind === "not_run") failure = gate.reason;
    }
    if (failure === undefined) {
      const execOptions = {
        timeoutMs: row.timeout_ms,
        maxOutputBytes: options.maxOutputBytes,
        signal: AbortSignal.any([stop.signal, jobSignal]),
      };
      run = await runUnderJailPlan(
        options.runner,
        resolved.target,
        row.command,
        execOptions,
        row.jail_plan,
        row.jail_note,
        row.jail_grants ?? [],
      );
    }
  } catch (error) {
    failure = error instanceof Error ? error.message : String(error);
  } finally {
    clearInterval(beat);
  }
  if (run?.detected || run?.grantUnavailable) await noteJailDetection(options, row, resolved.entity, run);
  if (row.risk === "read_only" && run !== undefined && run.jailed !== null) {
    const note = run.note === null ? null : options.redact(safeText(run.note));
    await auditExecutionJail(db, row, {
      jailed: run.jailed,
      note,
      grants: row.jail_grants ?? [],
      engine: run.engine,
      hidden: run.hidden.map((item) => item.kind),
    }).catch((error: unknown) =>
      options.logger?.warn({ err: error, executionId: row.id }, "could not audit the jail of an execution"),
    );
  }
  const result = run?.result;
  if (stopReason === "lost") return undefined; // a sweep or cancel already moved the row
  const status =
    run?.reason && run.jailed === false ? "failed" : finalStatus(result, failure, jobSignal.aborted);
  const reason =
    failure ??
    (status === "failed" && run?.reason ? run.reason : null) ??
    (status === "timed_out"
      ? `killed after its ${Math.round(row.timeout_ms / 1000)} s timeout`
      : status === "cancelled"
        ? "cancelled on request"
        : status === "interrupted"
          ? "the worker shut down while it ran"
          : null);
  // Output and errors are bytes from the target: storable text (no NUL, valid UTF-8), then redacted.
  // SSH and guest-agent errors can quote remote stderr.
  const clean = (text: string) => options.redact(safeText(text));
  // The command ran: its result is waited into the database across a restart of Postgres.
  const whileDown = {
    onOutage: (error: unknown) =>
      options.logger?.warn(
        { err: error, executionId: row.id },
        "database unreachable; recording the execution's result once it is back",
      ),
  };
  try {
    const finished = await untilReachable(
      () =>
        transitionExecution(db, row.id, {
          from: "running",
          to: status,
          workerId,
          reason: reason === null ? null : clean(reason),
          set: result
            ? {
                exit_code: result.exitCode,
                signal: result.signal,
                stdout: clean(result.stdout),
                stderr: clean(result.stderr),
                stdout_binary: result.stdoutBinary ?? false,
                stderr_binary: result.stderrBinary ?? false,
                output_bytes: result.outputBytes,
                output_truncated: result.truncated,
                duration_ms: result.durationMs,
                jailed: run?.jailed ?? null,
                jail_note: run?.note === null || run?.note === undefined ? null : clean(run.note),
                jail_engine: run?.engine ?? null,
                jail_hidden:
                  run === undefined || run.hidden.length === 0
                    ? null
                    : JSON.stringify(run.hidden.map((item) => ({ ...item, evidence: clean(item.evidence) }))),
              }
            : {},
        }),
      whileDown,
    );
    return finished ? status : undefined;
  } catch (error) {
    // The database refused the result: the execution must still end, with the reason, so the agent
    // is told and the card updated (the caller publishes execution.finished), never left running.
    const why = error instanceof Error ? error.message : String(error);
    options.logger?.error({ err: error, executionId: row.id }, "could not store an execution's result");
    const failed = await untilReachable(
      () =>
        transitionExecution(db, row.id, {
          from: "running",
          to: "failed",
          workerId,
          reason: clean(
            `the command ended ${status} (exit ${result?.exitCode ?? "none"}) but its result could not be stored: ${why}`,
          ),
          set: { exit_code: result?.exitCode ?? null, duration_ms: result?.durationMs ?? null },
        }),
      whileDown,
    );
    return failed ? "failed" : undefined;
  }
}

/**
 * What a run taught about the target, recorded once per change (never fails the execution): whether
 * it can jail, which grant it cannot make. A target newly found unable to jail is shown to the
 * operator once, in the thread of the session that found it (store/jail-detection.ts).
 */
async function noteJailDetection(
  options: ExecuteWorkerOptions,
  row: Execution,
  entity: Entity,
  run: JailedRun,
): Promise<void> {
  try {
    const now = new Date();
    if (run.detected) {
      const changed = await recordJailDetection(options.db, entity, run.detected, now, run.engine);
      if (changed && run.detected.state === "unavailable" && row.session_id !== null) {
        const asked = await offerUnjailedReadOnly(options.db, {
          sessionId: row.session_id,
          slug: entity.slug,
          reason: run.detected.reason,
          now,
        });
        if (asked !== null)
          await options.events.publish(approvalRequested({ sessionId: row.session_id, approvalId: asked }));
      }
    }
    if (run.grantUnavailable) await recordGrantUnavailable(options.db, entity, run.grantUnavailable);
  } catch (error) {
    options.logger?.warn({ err: error, target: entity.slug }, "could not record the jail detection");
  }
}

function finalStatus(
  result: ExecResult | undefined,
  failure: string | undefined,
  shutdown: boolean,
): TerminalExecutionStatus {
  if (shutdown) return "interrupted";
  if (!result || failure !== undefined) return "failed";
  if (result.timedOut) return "timed_out";
  if (result.cancelled) return "cancelled";
  return result.exitCode === 0 ? "completed" : "failed";
}

/** A job that was running when its process stopped. */
async function handleInterrupted(
  options: ExecuteWorkerOptions,
  job: InterruptedJob<{ executionId: string }>,
): Promise<void> {
  const row = await getExecution(options.db, job.data.executionId);
  if (!row) return;
  // The queue's reason is a whole sentence ("the worker stopped while this job was running"): said once.
  await recoverExecution(options, row, job.reason);
}

/**
 * The one rule for an execution whose worker vanished: queued (never started) goes back to the
 * queue; running read-only is retried a bounded number of times; running mutating becomes
 * `interrupted` and is reported, never re-run. Returns what it did, for sweep reports.
 */
export async function recoverExecution(
  options: Pick<ExecuteWorkerOptions, "db" | "events" | "queue">,
  row: Execution,
  reason: string,
): Promise<string | null> {
  const { db, events, queue } = options;
  if (row.status === "queued") {
    await queue.enqueue("execute", { executionId: row.id }, { jobId: `execute:${row.id}:${row.attempts}` });
    return "re-queued (it had not started)";
  }
  if (row.status !== "running") return null;
  if (row.risk === "read_only" && row.attempts < MAX_READ_ONLY_ATTEMPTS) {
    const requeued = await transitionExecution(db, row.id, {
      from: "running",
      to: "queued",
      reason: `${reason}; read-only, so retried`,
      set: { worker_id: null, heartbeat_at: null },
    });
    if (!requeued) return null;
    try {
      await queue.enqueue(
        "execute",
        { executionId: row.id },
        { jobId: `execute:${row.id}:${requeued.attempts}` },
      );
      return "read-only: re-queued";
    } catch (error) {
      // The queue is shutting down: a queued row without a job would wait for the sweep to expire it.
      const given = await transitionExecution(db, row.id, {
        from: "queued",
        to: "interrupted",
        reason: `${reason}; read-only, but it could not be re-queued (${error instanceof Error ? error.message : String(error)})`,
      });
      if (given) await events.publish(executionFinished(given, "interrupted"));
      return "interrupted (could not re-queue)";
    }
  }
  const interrupted = await transitionExecution(db, row.id, {
    from: "running",
    to: "interrupted",
    reason: `${reason}; not re-run because it may have changed the target: check its state before retrying`,
  });
  if (!interrupted) return null;
  await events.publish(executionFinished(interrupted, "interrupted"));
  return "interrupted";
}
