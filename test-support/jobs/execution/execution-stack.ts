import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { createEventBus } from "../../../jobs/events/create.ts";
import type { EventBus } from "../../../jobs/events/port.ts";
import { startExecuteWorker } from "../../../jobs/execution/execute-worker.ts";
import { RunService } from "../../../jobs/execution/run-service.ts";
import { probeAtFirstContact } from "../../../jobs/proxmox/guest-probe.ts";
import { createQueue } from "../../../jobs/queue/create.ts";
import type { QueuePort } from "../../../jobs/queue/port.ts";
import { SshPool } from "../../../jobs/ssh/ssh-pool.ts";
import type { Target } from "../../../jobs/ssh/target.ts";
import { TransportRouter } from "../../../jobs/ssh/transport-router.ts";
import { connectInMemoryClient } from "../../../mcp-server/in-memory.ts";
import { createMcpServer } from "../../../mcp-server/server.ts";
import { loadClassifier } from "../../../policy/classify.ts";
import type { JailMode } from "../../../policy/jail.ts";
import { AGENT_PRINCIPAL } from "../../../policy/principal.ts";
import { type Entity, upsertEntities } from "../../../store/entities.ts";
import { DbHostKeyStore } from "../../../store/known-hosts.ts";
import { KyselyJobJournal } from "../../../store/queue-journal.ts";
import { deleteRedisKeys, redisTestPrefix, redisTestUrl } from "../../redis.ts";
import type { LabHost, SshLab } from "../../sshd/ssh-lab.ts";
import { createTestStore, type TestDialect, type TestStore } from "../../store.ts";

export interface ExecutionStack {
  store: TestStore;
  queue: QueuePort;
  events: EventBus;
  pool: SshPool;
  service: RunService;
  client: Client;
  /** Another run service + client on the same ports with a different wait bound. */
  withWait(waitMs: number): Promise<{ service: RunService; client: Client }>;
  close(): Promise<void>;
}

export interface ExecutionStackOptions {
  lab: SshLab;
  dialect?: TestDialect;
  /** File URL of the test, for a Redis key prefix of its own. */
  fileUrl: string;
  waitMs?: number;
  heartbeatMs?: number;
  selfTargets?: string[];
  perTargetConcurrency?: number;
  /** Per stream, head + tail kept (default 64 KiB). */
  maxOutputBytes?: number;
  /** execution.readOnlyJail; default off here (the lab's toolbox and state live under /tmp). */
  readOnlyJail?: JailMode;
  /** Probe a Proxmox guest's shell at its first command, as the composition root does (jobs/proxmox/guest-probe.ts). */
  probeGuests?: boolean;
}

/**
 * Real everything for execution tests and the gated-run bench: a fresh database, the queue and
 * event bus (BullMQ / Redis pub-sub when REDIS_URL is set, in-process otherwise), the ssh pool on
 * the lab, the execute worker, the run service, and an MCP client over the linked in-memory
 * transport. Lab hosts become `host:<name>` entities.
 */
export async function startExecutionStack(options: ExecutionStackOptions): Promise<ExecutionStack> {
  const store = await createTestStore(options.dialect);
  const redisUrl = redisTestUrl();
  const prefix = redisTestPrefix(options.fileUrl);
  const queue = await createQueue({
    redisUrl,
    prefix,
    journal: new KyselyJobJournal(store.db),
    onError: () => {},
  });
  const events = await createEventBus({ redisUrl, prefix });
  await upsertEntities(store.db, options.lab.hosts.map(hostEntity), { by: "test" });
  const pool = new SshPool({
    auth: { privateKey: options.lab.privateKey },
    hostKeys: new DbHostKeyStore(store.db),
  });
  startExecuteWorker({
    db: store.db,
    events,
    queue,
    runner: new TransportRouter({ pool }),
    sshUser: options.lab.username,
    heartbeatMs: options.heartbeatMs ?? 250,
    perTargetConcurrency: options.perTargetConcurrency,
    maxOutputBytes: options.maxOutputBytes,
  });
  await queue.start();
  const clients: Client[] = [];
  const build = async (waitMs: number) => {
    const service = new RunService({
      db: store.db,
      events,
      queue,
      classifier: loadClassifier,
      waitMs,
      timeoutMs: 60_000,
      selfTargets: options.selfTargets ?? [],
      sshUser: options.lab.username,
      ...(options.readOnlyJail ? { readOnlyJail: options.readOnlyJail } : {}),
      ...(options.probeGuests
        ? {
            firstContact: async (entity: Entity, target: Target) => {
              await probeAtFirstContact(
                { db: store.db, runner: new TransportRouter({ pool }) },
                entity,
                target,
              );
            },
          }
        : {}),
    });
    const client = await connectInMemoryClient(
      createMcpServer({ db: store.db, principal: AGENT_PRINCIPAL, execution: service }),
    );
    clients.push(client);
    return { service, client };
  };
  const main = await build(options.waitMs ?? 5_000);
  return {
    store,
    queue,
    events,
    pool,
    ...main,
    withWait: build,
    async close() {
      for (const client of clients) await client.close();
      await queue.close({ graceMs: 2_000 });
      await events.close();
      await pool.close();
      await store.dispose();
      if (redisUrl) await deleteRedisKeys(redisUrl, prefix);
    },
  };
}

export function hostEntity(host: LabHost) {
  return {
    slug: `host:${host.name}`,
    type: "host",
    name: host.name,
    transport: "ssh" as const,
    attributes: { "ssh.host": host.host, "ssh.port": host.port, "ssh.user": host.username },
  };
}

/** A session row (and optionally its plan) for tests. */
export async function createTestSession(
  stack: Pick<ExecutionStack, "store">,
  id: string,
  plan?: { status: "proposed" | "approved" | "denied" },
): Promise<string> {
  await stack.store.db
    .insertInto("sessions")
    .values({
      id,
      platform: "shell",
      room: "room",
      thread: id,
      created_by: "op",
      ...(plan ? { plan_generation: 1 } : {}),
    })
    .execute();
  if (plan) {
    await stack.store.db
      .insertInto("plans")
      .values({ session_id: id, generation: 1, status: plan.status })
      .execute();
  }
  return id;
}
