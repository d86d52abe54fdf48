import assert from "node:assert/strict";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { loadClassifier } from "../../policy/classify.ts";
import { openStore, type StoreHandle } from "../../store/connect.ts";
import { migrateToLatest } from "../../store/migrate.ts";
import {
  approvedSession,
  LOGGING_CAT,
  registerLabHosts,
  startWorker,
} from "../../test-support/jobs/execution/worker-fleet.ts";
import { deleteRedisKeys, redisTestPrefix } from "../../test-support/redis.ts";
import type { SpawnedCli } from "../../test-support/run-cli.ts";
import { type SshLab, sshLabUnavailable, startSshLab } from "../../test-support/sshd/ssh-lab.ts";
import { createTestDatabase } from "../../test-support/store.ts";
import { createEventBus } from "../events/create.ts";
import type { EventBus } from "../events/port.ts";
import { createQueue } from "../queue/create.ts";
import type { QueuePort } from "../queue/port.ts";
import { RunService } from "./run-service.ts";

const HOSTS = 20;
const EXECUTIONS = 200;
const redisUrl = process.env.REDIS_URL;
const databaseUrl = process.env.DATABASE_URL;
const sshd = await sshLabUnavailable();
const skip =
  !redisUrl || !databaseUrl
    ? "several `oikos worker` processes share work through Redis and Postgres: set REDIS_URL and DATABASE_URL"
    : sshd
      ? `sshd unavailable: ${sshd}`
      : false;

async function until(condition: () => boolean | Promise<boolean>, what: string, ms: number): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`gave up waiting for ${what}`);
}

async function lineCount(path: string): Promise<number> {
  const text = await readFile(path, "utf8").catch(() => "");
  return text.split("\n").filter((line) => line !== "").length;
}

interface Planned {
  n: number;
  host: SshLab["hosts"][number];
  readOnly: boolean;
}

describe("three `oikos worker` processes, one killed with SIGKILL midway", { skip }, () => {
  let lab: SshLab;
  let dir: string;
  let database: { url: string; dispose(): Promise<void> };
  let store: StoreHandle;
  let queue: QueuePort;
  let events: EventBus;
  const workers: SpawnedCli[] = [];
  const prefix = redisTestPrefix(import.meta.url);

  before(async () => {
    lab = await startSshLab({
      hosts: Array.from({ length: HOSTS }, (_, i) => ({ name: `node${i}`, toolbox: { cat: LOGGING_CAT } })),
    });
    dir = await mkdtemp(join(tmpdir(), "oikos-workers-"));
    database = await createTestDatabase();
    store = await openStore({ kind: "postgres", url: database.url, poolSize: 4 });
    await migrateToLatest(store.db);
    queue = await createQueue({ redisUrl, prefix, onError: () => {} });
    events = await createEventBus({ redisUrl, prefix });
  });
  after(async () => {
    for (const worker of workers) worker.kill("SIGKILL");
    await Promise.all(workers.map((worker) => worker.exited));
    await queue?.close({ graceMs: 500 });
    await events?.close();
    await store?.close();
    await lab?.stop();
    await database?.dispose();
    if (dir) await rm(dir, { recursive: true, force: true });
    if (redisUrl) await deleteRedisKeys(redisUrl, prefix);
  });

  test("200 executions over 20 hosts each end exactly once; none runs twice", {
    timeout: 180_000,
  }, async () => {
    await registerLabHosts(store.db, lab);
    await approvedSession(store.db, "s-fleet");
    const planned: Planned[] = Array.from({ length: EXECUTIONS }, (_, n) => ({
      n,
      host: lab.hosts[n % HOSTS] as SshLab["hosts"][number],
      readOnly: n % 2 === 0,
    }));
    for (const host of lab.hosts) await mkdir(join(host.stateDir, "tags"), { recursive: true });
    for (const p of planned.filter((p) => p.readOnly))
      await writeFile(join(p.host.stateDir, "tags", `r-${p.n}`), `${p.n}\n`);
    const command = (p: Planned) =>
      p.readOnly
        ? `sleep 0.5; cat ${join(p.host.stateDir, "tags", `r-${p.n}`)}`
        : `hostname >> ${join(p.host.stateDir, `m-${p.n}`)}; sleep 0.5`;

    for (let i = 0; i < 3; i++) {
      const dataDir = join(dir, `worker${i}`);
      workers.push(
        startWorker({ databaseUrl: database.url, redisUrl: redisUrl ?? "", prefix, lab, dataDir }),
      );
    }
    await Promise.all(workers.map((worker) => worker.waitForLog("oikos started")));

    const finished = new Map<string, number>();
    let started = 0;
    events.subscribe("execution.finished", (event) => {
      finished.set(event.executionId, (finished.get(event.executionId) ?? 0) + 1);
    });
    events.subscribe("execution.started", () => {
      started++;
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
      sshUser: lab.username,
    });
    const ids = new Map<string, Planned>();
    for (const p of planned) {
      const outcome = await service.run({
        sessionId: "s-fleet",
        target: `host:${p.host.name}`,
        command: command(p),
        purpose: "several workers",
        requestedBy: "agent",
      });
      assert.ok(outcome.kind === "pending" || outcome.kind === "finished", JSON.stringify(outcome));
      assert.equal(outcome.execution.risk === "read_only", p.readOnly, outcome.execution.command);
      ids.set(outcome.execution.execution_id, p);
    }

    // Midway: kill a worker while it runs commands of both kinds (or, failing that, the busiest one).
    let victimId = "";
    await until(
      async () => {
        const running = await store.db
          .selectFrom("executions")
          .select(["worker_id", "risk", (eb) => eb.fn.countAll<string>().as("n")])
          .where("status", "=", "running")
          .groupBy(["worker_id", "risk"])
          .execute();
        const byWorker = new Map<string, Set<string>>();
        for (const row of running) {
          if (!row.worker_id) continue;
          byWorker.set(row.worker_id, (byWorker.get(row.worker_id) ?? new Set()).add(row.risk));
        }
        victimId = [...byWorker].find(([, risks]) => risks.size === 2)?.[0] ?? "";
        if (!victimId && started >= EXECUTIONS / 2) victimId = running[0]?.worker_id ?? "";
        return victimId !== "";
      },
      "a worker running commands of both kinds",
      60_000,
    );
    const victim = workers.find((worker) => victimId.includes(`:${worker.pid}:`));
    assert.ok(victim, `the running worker ${victimId} is not one of ours`);
    victim.kill("SIGKILL");
    await victim.exited;

    // The survivors notice the stalled jobs (BullMQ lock expiry) and recover each execution once.
    const terminal = ["completed", "failed", "timed_out", "cancelled", "interrupted", "expired"];
    await until(
      async () => {
        const open = await store.db
          .selectFrom("executions")
          .select("id")
          .where("status", "not in", terminal as never[])
          .execute();
        return open.length === 0 && finished.size === EXECUTIONS;
      },
      "every execution to end",
      120_000,
    );
    // Give a wrong second run every chance to show on the hosts before counting.
    await new Promise((resolve) => setTimeout(resolve, 1_500));

    const rows = await store.db
      .selectFrom("executions")
      .select(["id", "status", "status_reason", "attempts", "risk", "worker_id"])
      .execute();
    assert.equal(rows.length, EXECUTIONS);
    const tally: Record<string, number> = {};
    for (const row of rows) {
      const p = ids.get(row.id);
      assert.ok(p, `an execution nobody asked for: ${row.id}`);
      assert.equal(finished.get(row.id), 1, `${row.id} must be reported finished exactly once`);
      const ran = p.readOnly
        ? (await readFile(join(p.host.stateDir, "reads"), "utf8"))
            .split("\n")
            .filter((line) => line.endsWith(`/r-${p.n}`)).length
        : await lineCount(join(p.host.stateDir, `m-${p.n}`));
      const key = `${row.risk}:${row.status}:attempts=${row.attempts}`;
      tally[key] = (tally[key] ?? 0) + 1;
      const what = `${row.id} (${key}, ran ${ran}×: ${row.status_reason ?? ""})`;
      if (p.readOnly) {
        assert.equal(row.status, "completed", `a read-only execution is retried to completion: ${what}`);
        assert.ok(ran >= 1 && ran <= row.attempts, `ran once per attempt at most: ${what}`);
      } else if (row.status === "completed") {
        assert.equal(ran, 1, `a completed mutating command ran exactly once: ${what}`);
      } else {
        assert.equal(row.status, "interrupted", `a mutating execution is completed or interrupted: ${what}`);
        assert.ok(row.worker_id === victimId || row.worker_id === null, what);
        assert.ok(ran <= 1, `an interrupted mutating command is never re-run: ${what}`);
        assert.equal(row.attempts, 1, what);
      }
    }
    const recovered = rows.filter(
      (row) => row.status === "interrupted" || (row.risk === "read_only" && row.attempts > 1),
    );
    assert.ok(recovered.length > 0, `the kill hit running executions: ${JSON.stringify(tally)}`);
    console.log(`several workers: ${JSON.stringify(tally)}`);
  });
});
