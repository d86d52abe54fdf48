import assert from "node:assert/strict";
import { sql } from "kysely";
import type { MatrixDouble } from "../matrix-double/matrix-double.ts";
import type { SpawnedCli } from "../run-cli.ts";
import { createDeployment, type Deployment, type DeploymentKind } from "./deployment.ts";
import { FAULT_POINTS, GRACE_MS } from "./fault-matrix.ts";
import {
  approvePlan,
  askForPlan,
  eventually,
  HEADLESS,
  type MarkerTask,
  markerTask,
  startOikos,
} from "./marker-task.ts";

// Issue 36: SIGTERM at each point of the fault matrix (the kill window held as the matrix holds it:
// a model reply or a table lock kept until the stop has begun) ends the process within its grace,
// and no command starts once the stop has begun. The restart is the fault matrix's business
// (fault-matrix.ts); here only the stop is judged.

export interface StopPoint {
  name: string;
  /** Postgres only: the point is held by a table lock another connection takes. */
  needsPostgres: boolean;
  task: Parameters<typeof markerTask>[2];
  env?: NodeJS.ProcessEnv;
  reach(task: MarkerTask, deployment: Deployment): Promise<(() => Promise<void>) | undefined>;
}

const fromMatrix: StopPoint[] = FAULT_POINTS.map((point) => ({
  name: point.name,
  needsPostgres: point.name === "during complete_task" || point.name === "after complete_task commits",
  task: point.task("SIGTERM"),
  ...(point.env ? { env: point.env } : {}),
  reach: async (task, deployment) => (await point.reach(task, deployment)).release,
}));

/**
 * The issue's own case: the model has asked to run the approved command and `run` is on its way to
 * the execution row when the stop begins (held by a lock on `executions`: the row's INSERT waits).
 */
const runAsked: StopPoint = {
  name: "the model asked to run the command",
  needsPostgres: true,
  task: {},
  async reach(task, deployment) {
    const store = await deployment.open();
    const locked = Promise.withResolvers<void>();
    const unlock = Promise.withResolvers<void>();
    const holder = store.db.transaction().execute(async (tx) => {
      await sql`LOCK TABLE executions IN EXCLUSIVE MODE`.execute(tx);
      locked.resolve();
      await unlock.promise;
    });
    holder.catch(locked.reject);
    await locked.promise;
    await approvePlan(task, await askForPlan(task));
    await eventually("run waits for the executions table", async () => {
      const { rows } = await sql<{ waiting: number }>`
        SELECT count(*)::int AS waiting FROM pg_locks WHERE NOT granted AND relation = 'executions'::regclass`.execute(
        store.db,
      );
      return rows[0]!.waiting > 0 ? true : undefined;
    });
    return async () => {
      unlock.resolve();
      await holder;
      await store.close();
    };
  },
};

export const STOP_POINTS: readonly StopPoint[] = [...fromMatrix, runAsked];

const EXIT_SLACK_MS = 3_000;

export interface StopMeasure {
  /** From SIGTERM to the child's exit, seen from outside. */
  exitMs: number;
  /** What the process logged as the length of its stop ("oikos stopped"). */
  stopMs: number;
}

const logLine = (child: SpawnedCli, msg: string) =>
  child
    .stderr()
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => {
      try {
        return JSON.parse(l) as Record<string, unknown>;
      } catch {
        return {};
      }
    })
    .find((l) => l.msg === msg);

/** One run: start, reach the point, SIGTERM, let the point go, and judge the stop. */
export async function stopAt(
  kind: DeploymentKind,
  point: StopPoint,
  double: MatrixDouble,
  run: number,
): Promise<StopMeasure> {
  const deployment = await createDeployment(kind, `stop-${STOP_POINTS.indexOf(point)}-${run}`);
  const task = await markerTask(deployment, double, point.task);
  const child = startOikos(task, { ...point.env, OIKOS_SHUTDOWN_GRACE_MS: String(GRACE_MS) });
  let release: (() => Promise<void>) | undefined;
  try {
    await child.waitForLog(HEADLESS);
    release = await point.reach(task, deployment);
    const signalled = Date.now();
    let exitedAt = 0;
    const exit = child.exited.then((code) => {
      exitedAt = Date.now();
      return code;
    });
    child.kill("SIGTERM");
    const stopping = await child.waitForLog("oikos stopping");
    // Whatever the point held goes on now, while the process stops: it must not start a command.
    await release?.();
    release = undefined;
    const code = await exit;
    const exitMs = exitedAt - signalled;
    assert.equal(code, 0, `a SIGTERM stop exits 0:\n${child.stderr()}`);
    const stopped = logLine(child, "oikos stopped");
    assert.ok(stopped, `the end of the stop is logged:\n${child.stderr().slice(-3000)}`);
    const stopMs = Number(stopped.ms);
    assert.ok(stopMs <= GRACE_MS, `stopped within the grace (${stopMs} ms of ${GRACE_MS})`);
    // Seen from outside too: from the moment the stop began nothing holds the exit past the grace (a
    // bound with room for the process's own end on a loaded machine, not a speed assertion). The
    // signal itself waits for the event loop: a process busy compiling the classifier takes it late.
    const sinceStopping = exitedAt - Number(stopping.time);
    assert.ok(
      sinceStopping <= GRACE_MS + EXIT_SLACK_MS,
      `exited ${sinceStopping} ms after the stop began (grace ${GRACE_MS} ms; ${exitMs} ms after SIGTERM; ${exitedAt - Number(stopped.time)} ms after "oikos stopped")`,
    );
    const store = await deployment.open();
    try {
      const rows = await store.db.selectFrom("executions").select(["id", "started_at", "status"]).execute();
      const began = Number(stopping.time);
      for (const row of rows) {
        const started = row.started_at ? new Date(row.started_at).getTime() : undefined;
        assert.ok(
          started === undefined || started < began,
          `no command starts once the stop began: ${row.id} started ${started! - began} ms after`,
        );
      }
    } finally {
      await store.close();
    }
    return { exitMs, stopMs };
  } catch (error) {
    throw new Error(
      `${(error as Error).message}\noikos log (last lines):\n${child.stderr().split("\n").slice(-30).join("\n")}`,
      { cause: error },
    );
  } finally {
    await release?.().catch(() => {});
    child.kill("SIGKILL");
    await child.exited;
    await task.model.close();
    await deployment.dispose();
  }
}
