import { createEventBus } from "../../../jobs/events/create.ts";
import type { EventBus } from "../../../jobs/events/port.ts";
import { registerExecuteWorker } from "../../../jobs/execution/execute-worker.ts";
import { discoverProxmox } from "../../../jobs/proxmox/discover.ts";
import type { SnapshotBeforeConfig } from "../../../jobs/proxmox/snapshot-before.ts";
import { createQueue } from "../../../jobs/queue/create.ts";
import type { QueuePort } from "../../../jobs/queue/port.ts";
import { InMemoryHostKeyStore } from "../../../jobs/ssh/host-key-store.ts";
import { SshPool } from "../../../jobs/ssh/ssh-pool.ts";
import { TransportRouter } from "../../../jobs/ssh/transport-router.ts";
import type { RunnableRisk } from "../../../policy/decide-run.ts";
import { redact } from "../../../policy/redact.ts";
import { upsertEntities } from "../../../store/entities.ts";
import { readExecutionSnapshot } from "../../../store/execution-snapshot.ts";
import { createExecution } from "../../../store/executions.ts";
import type { Execution } from "../../../store/schema.ts";
import { TERMINAL_EXECUTION_STATUSES } from "../../../store/statuses.ts";
import { eventually } from "../../bot/eventually.ts";
import { homelabCluster, installProxmoxCluster, type ProxmoxCluster } from "../../proxmox/proxmox-lab.ts";
import { labAuth } from "../../sshd/lab-targets.ts";
import { type SshLab, startSshLab } from "../../sshd/ssh-lab.ts";
import { createTestStore, type TestStore } from "../../store.ts";

/**
 * A two-node simulated Proxmox cluster (pve1, pve2) on real sshd hosts, discovered into a fresh
 * database, with the execute worker (in-process queue) snapshotting before changes as configured.
 */
export interface PveStack {
  lab: SshLab;
  cluster: ProxmoxCluster;
  store: TestStore;
  router: TransportRouter;
  queue: QueuePort;
  events: EventBus;
  /** Creates a queued execution, runs it through the worker and returns the finished row. */
  execute(
    target: string,
    command: string,
    risk: RunnableRisk,
    purpose?: string,
    sessionId?: string | null,
  ): Promise<Execution>;
  /** Enqueues an already queued execution (an approved one) and waits for its end. */
  runQueued(executionId: string): Promise<Execution>;
  stop(): Promise<void>;
}

export const PVE_TARGETS = { sshUser: "root" };

export async function startPveStack(snapshotBefore: SnapshotBeforeConfig): Promise<PveStack> {
  const lab = await startSshLab({ hosts: [{ name: "pve1" }, { name: "pve2" }] });
  const cluster = await installProxmoxCluster(lab, { pve1: "pve1", pve2: "pve2" }, homelabCluster());
  const store = await createTestStore();
  const pool = new SshPool({ auth: labAuth(lab.host("pve1")), hostKeys: new InMemoryHostKeyStore() });
  const router = new TransportRouter({ pool });
  const ssh = (name: string) => ({
    "ssh.host": lab.host(name).host,
    "ssh.port": lab.host(name).port,
    "ssh.user": lab.host(name).username,
  });
  await upsertEntities(
    store.db,
    [
      { slug: "host:pve1", type: "host", name: "pve1", attributes: ssh("pve1") },
      { slug: "host:pve2", type: "host", name: "pve2", attributes: ssh("pve2") },
    ],
    { by: "test" },
  );
  const discovered = await discoverProxmox(
    { db: store.db, runner: router, targets: PVE_TARGETS },
    "host:pve1",
    "test",
  );
  if (!discovered.ok) throw new Error(discovered.reason);
  const queue = await createQueue({});
  const events = await createEventBus({});
  const stackEvents = events;
  registerExecuteWorker({
    db: store.db,
    events,
    queue,
    runner: router,
    redact,
    targets: PVE_TARGETS,
    heartbeatMs: 250,
    snapshotBefore,
  });
  await queue.start();
  const runQueued = async (executionId: string): Promise<Execution> => {
    await queue.enqueue("execute", { executionId }, { jobId: `execute:${executionId}:0` });
    for (;;) {
      const current = await store.db
        .selectFrom("executions")
        .selectAll()
        .where("id", "=", executionId)
        .executeTakeFirstOrThrow();
      if (TERMINAL_EXECUTION_STATUSES.includes(current.status)) return current;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  return {
    lab,
    cluster,
    store,
    router,
    queue,
    events: stackEvents,
    async execute(target, command, risk, purpose = "test change", sessionId = null) {
      const row = await createExecution(store.db, {
        sessionId,
        target,
        command,
        commandKey: command,
        risk,
        purpose,
        requestedBy: "test",
        status: "queued",
        timeoutMs: 60_000,
        deadlineAt: new Date(Date.now() + 600_000),
      });
      return runQueued(row.id);
    },
    runQueued,
    async stop() {
      await queue.close();
      await pool.close();
      await lab.stop();
      await cluster.stop();
      await store.dispose();
    },
  };
}

/**
 * The original execution once the worker has marked it rolled back: its after-run step writes the
 * mark after the rollback's own row completes, so a test reads it when it is there.
 */
export function markedRolledBack(stack: PveStack, executionId: string) {
  return eventually("the original execution marked rolled back", async () => {
    const original = await stack.store.db
      .selectFrom("executions")
      .select("snapshot")
      .where("id", "=", executionId)
      .executeTakeFirstOrThrow();
    const read = readExecutionSnapshot(original.snapshot);
    return read?.state === "taken" && read.rolledBackAt && read.rolledBackBy ? read : undefined;
  });
}
