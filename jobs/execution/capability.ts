import type { Capability } from "../../app/compose-context.ts";
import type { Runtime } from "../../app/runtime.ts";
import { runsWorkers } from "../../base/process-role.ts";
import { DbHostKeyStore } from "../../store/known-hosts.ts";
import type { PlanPreviewer } from "../preview/previewer.ts";
import { probeAtFirstContact } from "../proxmox/guest-probe.ts";
import { startProxmoxJobs } from "../proxmox/start.ts";
import {
  configuredSshTransport,
  type createSshTransport,
  lazySshRunner,
} from "../ssh/create-ssh-transport.ts";
import { registerAllSweeps } from "../sweeps/default-sweeps.ts";
import { runSweeps, type SweepContext } from "../sweeps/registry.ts";
import { DEFAULT_HEARTBEAT_MS, startExecuteWorker } from "./execute-worker.ts";
import { requeueQueuedExecutions } from "./requeue.ts";
import { RunService, type RunServiceOptions } from "./run-service.ts";

/** Sweeps run at start-up and then this often. */
export const SWEEP_EVERY_MS = 3 * 60_000;
/** A running execution whose heartbeat is older than this many beats is dead. */
const STALE_BEATS = 6;

/**
 * The gated run service over this runtime. The composition root builds one per process on first
 * use (`ctx.runService()`) and hands it to everything that serves the MCP tools; the classifier
 * (its module and its two wasm parsers) is loaded when the first command is gated.
 */
export async function createRunService(runtime: Runtime): Promise<RunService> {
  const previews = runtime.config.execution.previews === "on" ? previewsFor(runtime) : undefined;
  // a guest's first command asks its node which shell it has: SSH opened only when one is probed
  const probes = lazySshRunner(() => runtimeSshTransport(runtime));
  return new RunService({
    ...(previews ? { previews: previews.options } : {}),
    close: async () => {
      await Promise.all([previews?.close(), probes.close()]);
    },
    firstContact: async (entity, target) => {
      await probeAtFirstContact({ db: runtime.db, runner: probes.runner }, entity, target);
    },
    db: runtime.db,
    events: runtime.events,
    queue: runtime.queue,
    classifier: async () => (await import("../../policy/classify.ts")).loadClassifier(),
    waitMs: runtime.config.execution.waitMs,
    stopping: runtime.stopping,
    approvalTtlMs: runtime.config.execution.approvalTtlMs,
    timeoutMs: runtime.config.execution.timeoutMs,
    selfTargets: runtime.config.self.targets,
    sshUser: runtime.config.ssh.user,
    readOnlyJail: runtime.config.execution.readOnlyJail,
  });
}

/**
 * Plan previews (issue #15) for the run service: the previewer of jobs/preview/ over an SSH pool of
 * its own (the run service lives in every process that serves `run` or consent, workers or not),
 * closed with the run service. Built on the first preview, like the classifier it needs.
 */
function previewsFor(runtime: Runtime): {
  options: NonNullable<RunServiceOptions["previews"]>;
  close: () => Promise<void>;
} {
  const { config } = runtime;
  let ssh: ReturnType<typeof createSshTransport> | undefined;
  let built: Promise<PlanPreviewer> | undefined;
  const previewer = () =>
    (built ??= (async () => {
      const [{ loadClassifier }, { createPlanPreviewer }] = await Promise.all([
        import("../../policy/classify.ts"),
        import("../preview/create.ts"),
      ]);
      ssh = runtimeSshTransport(runtime);
      return createPlanPreviewer({ classifier: await loadClassifier(), runner: ssh.router });
    })());
  return {
    options: {
      previewer: {
        compute: async (request) => (await previewer()).compute(request),
        verify: async (expectation, where) => (await previewer()).verify(expectation, where),
      },
      timeoutMs: config.execution.previewTimeoutMs,
      maxAgeMs: config.execution.previewMaxAgeMs,
    },
    close: async () => {
      await ssh?.pool.close();
    },
  };
}

/** The process's SSH transport as config says (key, known hosts, pool size; host keys kept in the database). */
export function runtimeSshTransport(runtime: Runtime): ReturnType<typeof createSshTransport> {
  return configuredSshTransport(runtime.config.ssh, new DbHostKeyStore(runtime.db));
}

export function sweepContext(runtime: Runtime, now = new Date()): SweepContext {
  return {
    db: runtime.db,
    events: runtime.events,
    queue: runtime.queue,
    now,
    heartbeatStaleMs: DEFAULT_HEARTBEAT_MS * STALE_BEATS,
  };
}

/**
 * Executions: the `execute` worker over the SSH pool (host keys trusted on first use are kept in
 * the database), the `sweep` queue with its repeat schedule, and a start-up sweep. `oikos chat` on
 * a shared (Redis) queue only produces (run enqueues); the workers execute.
 */
export const executionCapability: Capability = {
  name: "execution",
  async start(runtime, ctx) {
    registerAllSweeps();
    if (!runsWorkers(ctx.role, runtime.queue.kind)) return undefined;
    const { config, logger } = runtime;
    const ssh = runtimeSshTransport(runtime);
    startExecuteWorker({
      db: runtime.db,
      events: runtime.events,
      queue: runtime.queue,
      stopping: runtime.stopping,
      runner: ssh.router,
      sshUser: config.ssh.user,
      maxOutputBytes: config.execution.maxOutputBytes,
      concurrency: config.execution.concurrency,
      snapshotBefore: {
        mode: config.execution.snapshotBefore,
        perEntity: config.execution.snapshotBeforeEntities,
        onFailure: config.execution.snapshotFailure,
        approvalTtlMs: config.execution.approvalTtlMs,
      },
      // An approved change whose preview named what to check: compared before execution.finished (#15).
      afterRun: async (execution) => {
        if (execution.approval_id) await (await ctx.runService()).previews?.checkOutcome(execution.id);
      },
      logger,
    });
    await startProxmoxJobs(
      {
        db: runtime.db,
        queue: runtime.queue,
        runner: ssh.router,
        targets: { sshUser: config.ssh.user },
        logger,
      },
      config.proxmox,
    );
    runtime.queue.register("sweep", async (job) => {
      const reports = await runSweeps(job.data.kind, sweepContext(runtime));
      for (const report of reports) {
        if (report.items.length > 0 || report.error) logger.info({ sweep: report }, `sweep ${report.kind}`);
      }
    });
    await runtime.queue.repeat("sweep", { kind: "all" }, { everyMs: SWEEP_EVERY_MS, key: "sweep-all" });
    const requeued = await requeueQueuedExecutions(runtime.db, runtime.queue);
    if (requeued.length > 0) logger.info({ executions: requeued }, "queued executions given their job again");
    const startup = await runSweeps("all", sweepContext(runtime));
    for (const report of startup) {
      if (report.items.length > 0 || report.error)
        logger.info({ sweep: report }, `start-up sweep ${report.kind}`);
    }
    return {
      async stop() {
        await ssh.pool.close();
      },
    };
  },
};
