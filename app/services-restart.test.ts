import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import pg from "pg";
import { openStore } from "../store/connect.ts";
import { MatrixDouble } from "../test-support/matrix-double/matrix-double.ts";
import type { Deployment } from "../test-support/oikos-process/deployment.ts";
import {
  approvePlan,
  askForPlan,
  eventually,
  HEADLESS,
  type MarkerTask,
  markerLines,
  markerTask,
  registerMatrixUsers,
  startOikos,
  taskCompleted,
} from "../test-support/oikos-process/marker-task.ts";
import type { SpawnedCli } from "../test-support/run-cli.ts";
import {
  startThrowawayPostgres,
  type ThrowawayPostgres,
  throwawayPostgresSkip,
} from "../test-support/services/throwaway-postgres.ts";
import { startThrowawayRedis, type ThrowawayRedis } from "../test-support/services/throwaway-redis.ts";

// The composed app as a process on a Postgres and a Redis of the test's own (never the shared
// ones other tests use), each restarted while a task is in the middle of its work. The process
// stays up, reconnects, and the task ends as it would have: the approved command ran exactly once
// (the marker file on the host counts the runs), nothing is lost.

function redisSkip(): string | false {
  try {
    execFileSync("redis-server", ["--version"], { stdio: "ignore" });
    return false;
  } catch {
    return "redis-server is not installed";
  }
}

const skip = throwawayPostgresSkip() || redisSkip();

describe("services restart mid-task (own Postgres and Redis)", { skip }, () => {
  let double: MatrixDouble;
  let postgres: ThrowawayPostgres;
  let redis: ThrowawayRedis;

  before(async () => {
    double = await MatrixDouble.start();
    registerMatrixUsers(double);
    [postgres, redis] = await Promise.all([startThrowawayPostgres(), startThrowawayRedis()]);
  });
  after(async () => {
    await double?.close();
    postgres?.dispose();
    await redis?.dispose();
  });

  const RESULT_WAITS = "database unreachable; recording the execution's result once it is back";

  const logLines = (child: SpawnedCli) =>
    child
      .stderr()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { level: number; msg: string });

  /** One warning per Redis client group (queue, events) and its end; no error line per reconnect attempt. */
  function assertOutageToldOnce(child: SpawnedCli): void {
    const lines = logLines(child);
    const down = lines.filter((l) =>
      l.msg.endsWith("Redis is unreachable; reconnecting (waiting work stays queued)"),
    );
    assert.ok(down.length >= 1 && down.length <= 2, `the outage told once per client group: ${down.length}`);
    assert.ok(
      lines.some((l) => l.msg.endsWith("Redis is reachable again")),
      "and its end",
    );
    const errors = lines.filter((l) => l.level >= 50);
    assert.deepEqual(errors, [], "no error lines for an outage the process rides out");
  }

  let databases = 0;
  /** A fresh database in the throwaway cluster and a fresh Redis prefix. */
  async function deployment(name: string): Promise<Deployment> {
    const dir = mkdtempSync(join(tmpdir(), `oikos-${name}-`));
    const database = `oikos_${name.replace(/\W/g, "_")}_${++databases}`;
    const admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.end();
    const url = postgres.url.replace(/\/postgres$/, `/${database}`);
    return {
      kind: "postgres+redis",
      dir,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "/tmp",
        OIKOS_DATA_DIR: join(dir, "data"),
        DATABASE_URL: url,
        REDIS_URL: redis.url,
        OIKOS_REDIS_PREFIX: `oikos_${name}`,
      },
      open: () => openStore({ kind: "postgres", url, poolSize: 2 }),
      async dispose() {
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }

  async function stopCleanly(child: SpawnedCli): Promise<void> {
    child.kill("SIGTERM");
    assert.equal(await child.exited, 0, child.stderr().slice(-3000));
  }

  async function withTask(
    name: string,
    options: Parameters<typeof markerTask>[2],
    body: (task: MarkerTask, child: SpawnedCli) => Promise<void>,
  ): Promise<void> {
    const task = await markerTask(await deployment(name), double, options);
    const child = startOikos(task, { OIKOS_SHUTDOWN_GRACE_MS: "3000" });
    try {
      await child.waitForLog(HEADLESS);
      await body(task, child).catch((error: unknown) => {
        // What the process said besides info lines: the reason the task did not end.
        const said = child
          .stderr()
          .split("\n")
          .filter((l) => !l.includes('"level":30'));
        throw new Error(`${(error as Error).message}\n${said.slice(-40).join("\n")}`);
      });
      assert.equal(
        child.exitCode(),
        null,
        `the process survived the restart:\n${child.stderr().slice(-3000)}`,
      );
      await stopCleanly(child);
    } finally {
      child.kill("SIGKILL");
      await child.exited;
      await task.model.close();
      await task.deployment.dispose();
    }
  }

  test("Redis restarted while the approved command runs: the job finishes once and the task completes", async () => {
    await withTask("redis-in-execution", { slowSeconds: 4 }, async (task, child) => {
      await approvePlan(task, await askForPlan(task));
      await eventually("the command started", () => (markerLines(task).includes("start") ? true : undefined));
      await redis.stop();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await redis.start();
      await taskCompleted(task);
      assert.deepEqual(markerLines(task), ["start", "run"], "the approved command ran exactly once");
      assertOutageToldOnce(child);
    });
  });

  test("Redis down while a turn waits for the model: the run is enqueued after it is back, once", async () => {
    await withTask("redis-in-turn", { hold: "run" }, async (task, child) => {
      await approvePlan(task, await askForPlan(task));
      await eventually("the model asked for the run", () =>
        task.model.requests.some((r) => r.step === "run") ? true : undefined,
      );
      await redis.stop();
      task.release();
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await redis.start();
      await taskCompleted(task);
      assert.deepEqual(markerLines(task), ["run"], "the approved command ran exactly once");
      assertOutageToldOnce(child);
    });
  });

  test("Postgres down when the approved command ends: its result is recorded once the server is back, the task completes", async () => {
    await withTask("pg-in-execution", { slowSeconds: 2 }, async (task, child) => {
      await approvePlan(task, await askForPlan(task));
      await eventually("the command started", () => (markerLines(task).includes("start") ? true : undefined));
      postgres.stop();
      await eventually("the command ended while the database was down", () =>
        markerLines(task).includes("run") ? true : undefined,
      );
      await eventually("the worker waits to record the result", () =>
        logLines(child).some((l) => l.msg === RESULT_WAITS) ? true : undefined,
      );
      postgres.start();
      await taskCompleted(task);
      assert.deepEqual(markerLines(task), ["start", "run"], "the approved command ran exactly once");
    });
  });

  test("Postgres down while a turn's model reply arrives: the turn is retried, the command runs once", async () => {
    await withTask("pg-in-turn", { hold: "run" }, async (task) => {
      await approvePlan(task, await askForPlan(task));
      await eventually("the model asked for the run", () =>
        task.model.requests.some((r) => r.step === "run") ? true : undefined,
      );
      postgres.stop();
      task.release();
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      postgres.start();
      await taskCompleted(task);
      assert.deepEqual(markerLines(task), ["run"], "the approved command ran exactly once");
    });
  });
});
