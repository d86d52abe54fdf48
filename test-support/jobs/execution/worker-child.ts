// Child process for worker-crash.test.ts: a worker that the test kill -9s mid-command.
// Usage: node worker-child.ts <first|second> <json config>
// first:  set up a session with an approved plan, `run` a mutating command that bumps a counter on
//         the target and sleeps; print {"started": id} when the worker began it, then keep running.
// second: restart on the same database (and Redis prefix), register the worker, let crash recovery
//         (queue onInterrupted, then the stale sweep) act; print the execution row; exit 0.

import { createEventBus } from "../../../jobs/events/create.ts";
import { startExecuteWorker } from "../../../jobs/execution/execute-worker.ts";
import { RunService } from "../../../jobs/execution/run-service.ts";
import { createQueue } from "../../../jobs/queue/create.ts";
import { SshPool } from "../../../jobs/ssh/ssh-pool.ts";
import { TransportRouter } from "../../../jobs/ssh/transport-router.ts";
import { registerAllSweeps } from "../../../jobs/sweeps/default-sweeps.ts";
import { runSweeps } from "../../../jobs/sweeps/registry.ts";
import { loadClassifier } from "../../../policy/classify.ts";
import { openStore, type StoreOptions } from "../../../store/connect.ts";
import { approvePlan } from "../../../store/consent.ts";
import { upsertEntities } from "../../../store/entities.ts";
import { DbHostKeyStore } from "../../../store/known-hosts.ts";
import { migrateToLatest } from "../../../store/migrate.ts";
import { KyselyJobJournal } from "../../../store/queue-journal.ts";

interface ChildConfig {
  store: StoreOptions;
  redisUrl?: string;
  prefix: string;
  host: { host: string; port: number; username: string; privateKey: string };
  command: string;
}

const [phase, raw] = process.argv.slice(2);
if (!raw || (phase !== "first" && phase !== "second"))
  throw new Error("usage: worker-child.ts <first|second> <json>");
const config = JSON.parse(raw) as ChildConfig;
const say = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);
const HEARTBEAT_MS = 200;

const store = await openStore(config.store);
await migrateToLatest(store.db);
const queue = await createQueue({
  redisUrl: config.redisUrl,
  prefix: config.prefix,
  journal: new KyselyJobJournal(store.db),
  onError: () => {},
});
const events = await createEventBus({ redisUrl: config.redisUrl, prefix: config.prefix });
const pool = new SshPool({
  auth: { privateKey: config.host.privateKey },
  hostKeys: new DbHostKeyStore(store.db),
});
startExecuteWorker({
  db: store.db,
  events,
  queue,
  runner: new TransportRouter({ pool }),
  sshUser: config.host.username,
  heartbeatMs: HEARTBEAT_MS,
});

if (phase === "first") {
  await upsertEntities(
    store.db,
    [
      {
        slug: "host:victim",
        type: "host",
        name: "victim",
        transport: "ssh",
        attributes: {
          "ssh.host": config.host.host,
          "ssh.port": config.host.port,
          "ssh.user": config.host.username,
        },
      },
    ],
    { by: "test" },
  );
  await store.db
    .insertInto("sessions")
    .values({
      id: "s-crash",
      platform: "shell",
      room: "r",
      thread: "t",
      created_by: "op",
      plan_generation: 1,
    })
    .execute();
  await store.db.insertInto("plans").values({ session_id: "s-crash", generation: 1 }).execute();
  await approvePlan(store.db, { sessionId: "s-crash", generation: 1, by: "op", via: "reaction" });
  events.subscribe("execution.started", (event) => {
    say({ started: event.executionId });
  });
  await queue.start();
  const service = new RunService({
    db: store.db,
    events,
    queue,
    classifier: loadClassifier,
    waitMs: 0,
    timeoutMs: 60_000,
    selfTargets: [],
    sshUser: config.host.username,
  });
  const outcome = await service.run({
    sessionId: "s-crash",
    target: "host:victim",
    command: config.command,
    purpose: "crash test",
    requestedBy: "agent",
  });
  say({ outcome });
  await new Promise(() => setInterval(() => {}, 60_000)); // until kill -9
} else {
  await queue.start();
  // Past several missed heartbeats: whatever the queue did not report, the stale sweep finds.
  await new Promise((resolve) => setTimeout(resolve, HEARTBEAT_MS * 6));
  registerAllSweeps();
  const reports = await runSweeps("stale", {
    db: store.db,
    events,
    queue,
    now: new Date(),
    heartbeatStaleMs: HEARTBEAT_MS * 5,
  });
  // Give a (wrong) re-run every chance to happen before reporting.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const rows = await store.db
    .selectFrom("executions")
    .select(["id", "status", "status_reason", "attempts", "risk"])
    .execute();
  say({ reports, rows });
  await queue.close({ graceMs: 1_000 });
  await events.close();
  await pool.close();
  await store.close();
}
