import assert from "node:assert/strict";
import { sql } from "kysely";
import type { MatrixDouble } from "../matrix-double/matrix-double.ts";
import type { SpawnedCli } from "../run-cli.ts";
import { createDeployment, type Deployment, type DeploymentKind } from "./deployment.ts";
import {
  ASK,
  approvePlan,
  askForPlan,
  botPosts,
  eventually,
  HEADLESS,
  type MarkerTask,
  type MarkerTaskOptions,
  markerLines,
  markerTask,
  resumeNotices,
  SUMMARY,
  startOikos,
} from "./marker-task.ts";

// The fault matrix of issue 18: the composed app as a process (`oikos start`, headless) with the
// Matrix double and the scripted model, stopped with SIGKILL or SIGTERM at one of six points of the
// marker task, then started again. After the restart the task ends as it would have without the
// fault, judged by oracles that execute: the marker file on the host counts the command's runs, the
// Matrix double counts what the operator was shown, the database counts what was stored.

export type FaultSignal = "SIGKILL" | "SIGTERM";

export type FaultPointName =
  | "after the plan card"
  | "right after ✅"
  | "during a model call"
  | "during an execution"
  | "during the continuation"
  | "during complete_task"
  | "after complete_task commits";

/** How the task ends after the restart: completed, or its mutating command reported interrupted (never re-run). */
type Ending = { kind: "completed"; marker: string[] } | { kind: "interrupted" };

interface Reached {
  /** The plan card's event id, when the operator still has to approve it after the restart. */
  unapprovedCard?: string;
  /** Lets go of whatever holds the process at the point (a held model reply, a table lock). */
  release?: () => Promise<void>;
}

interface FaultPoint {
  name: FaultPointName;
  task(signal: FaultSignal): MarkerTaskOptions;
  /** Configuration the point needs (both processes). */
  env?: NodeJS.ProcessEnv;
  /** Drives the task from a started process to the point. */
  reach(task: MarkerTask, deployment: Deployment): Promise<Reached>;
  /** The restarted process must say "oikos restarted; resuming …" exactly once (a turn was in flight for sure). */
  turnOwed(signal: FaultSignal): boolean;
  ending(signal: FaultSignal): Ending;
}

const ONCE: Ending = { kind: "completed", marker: ["run"] };

const approved = async (task: MarkerTask) => {
  await approvePlan(task, await askForPlan(task));
};

const modelAsked = (task: MarkerTask, step: string) =>
  eventually(`the model was asked for "${step}"`, () =>
    task.model.requests.some((r) => r.step === step) ? true : undefined,
  );

export const FAULT_POINTS: readonly FaultPoint[] = [
  {
    name: "after the plan card",
    task: () => ({}),
    reach: async (task) => ({ unapprovedCard: await askForPlan(task) }),
    turnOwed: () => false,
    ending: () => ONCE,
  },
  {
    name: "right after ✅",
    task: () => ({}),
    reach: async (task) => {
      await approved(task);
      return {};
    },
    turnOwed: () => false,
    ending: () => ONCE,
  },
  {
    name: "during a model call",
    task: () => ({ hold: "run" }),
    reach: async (task) => {
      await approved(task);
      await modelAsked(task, "run");
      return { release: async () => task.release() };
    },
    turnOwed: () => true,
    ending: () => ONCE,
  },
  {
    name: "during an execution",
    // SIGKILL: the command outlives its process (a remote one would too) and is reported interrupted.
    // SIGTERM: the command ends within the grace, and the restarted process continues from its result.
    task: (signal) => ({ slowSeconds: signal === "SIGKILL" ? 3 : 2 }),
    reach: async (task) => {
      await approved(task);
      await eventually("the command started", () => (markerLines(task).includes("start") ? true : undefined));
      return {};
    },
    turnOwed: () => false,
    ending: (signal) =>
      signal === "SIGKILL" ? { kind: "interrupted" } : { kind: "completed", marker: ["start", "run"] },
  },
  {
    name: "during the continuation",
    // `run` returns at once, so the command's result reaches the agent through a `continue` job.
    env: { OIKOS_RUN_WAIT_MS: "0" },
    task: () => ({ hold: "close" }),
    reach: async (task) => {
      await approved(task);
      await modelAsked(task, "close");
      return { release: async () => task.release() };
    },
    turnOwed: () => true,
    ending: () => ONCE,
  },
  {
    name: "during complete_task",
    task: () => ({}),
    reach: (task, deployment) => heldByLock(task, deployment, "feedback"),
    turnOwed: () => false,
    ending: () => ONCE,
  },
  {
    name: "after complete_task commits",
    task: () => ({}),
    reach: (task, deployment) => heldByLock(task, deployment, "knowledge"),
    turnOwed: () => false,
    ending: () => ONCE,
  },
];

/**
 * complete_task waits for a lock this test holds on a table it writes (Postgres only: nothing outside
 * the process can open an embedded database while it runs): `feedback` is written last inside its
 * transaction, `knowledge` right after the commit, before the operator is told.
 */
async function heldByLock(
  task: MarkerTask,
  deployment: Deployment,
  table: "feedback" | "knowledge",
): Promise<Reached> {
  const store = await deployment.open();
  const locked = Promise.withResolvers<void>();
  const unlock = Promise.withResolvers<void>();
  const holder = store.db.transaction().execute(async (tx) => {
    await sql`LOCK TABLE ${sql.table(table)} IN EXCLUSIVE MODE`.execute(tx);
    locked.resolve();
    await unlock.promise;
  });
  holder.catch(locked.reject);
  await locked.promise;
  await approved(task);
  await eventually(`complete_task waits for the ${table} table`, async () => {
    const { rows } = await sql<{ waiting: number }>`
      SELECT count(*)::int AS waiting FROM pg_locks
      WHERE NOT granted AND relation = ${table}::regclass`.execute(store.db);
    return rows[0]!.waiting > 0 ? true : undefined;
  });
  return {
    release: async () => {
      unlock.resolve();
      await holder;
      await store.close();
    },
  };
}

export const GRACE_MS = 8000;

const isEdit = (content: Record<string, unknown>) =>
  (content["m.relates_to"] as { rel_type?: string } | undefined)?.rel_type === "m.replace";
/** Posts the operator saw as new messages (edits of a card are not new posts). */
const newPosts = (task: MarkerTask) =>
  botPosts(task)
    .filter((e) => !isEdit(e.content))
    .map((e) => String(e.content.body ?? ""));

function assertQuietStop(child: SpawnedCli): void {
  const log = child.stderr();
  assert.doesNotMatch(log, /driver has already been destroyed/);
  assert.doesNotMatch(log, /"level":(50|60)/, "a normal stop logs no error");
  assert.doesNotMatch(log, /\n\s+at /, "no stack trace");
}

async function stopCleanly(child: SpawnedCli): Promise<void> {
  child.kill("SIGTERM");
  assert.equal(await child.exited, 0, child.stderr());
  assertQuietStop(child);
}

/**
 * One cell of the matrix: start, drive the marker task to `point`, stop with `signal`, start again,
 * finish the task, and judge the ending on the host, in the chat and in the database.
 */
export async function runFault(
  kind: DeploymentKind,
  point: FaultPoint,
  signal: FaultSignal,
  double: MatrixDouble,
): Promise<void> {
  const deployment = await createDeployment(kind, `fault-${FAULT_POINTS.indexOf(point)}-${signal}`);
  const task = await markerTask(deployment, double, point.task(signal));
  const env = {
    ...point.env,
    OIKOS_SHUTDOWN_GRACE_MS: String(GRACE_MS),
    // A dead worker's BullMQ jobs (killed, or stopped past its grace) are recovered once its lock
    // expires: seconds, as README advises where wanted. 10 s, not less: the lock is renewed every half
    // of it, and a 5 s lock on a loaded machine missed renewals (BullMQ then fails the job, a fault the
    // cell did not inject).
    ...(kind === "postgres+redis" ? { OIKOS_QUEUE_LOCK_MS: "10000" } : {}),
  };
  let child = startOikos(task, env);
  let release: (() => Promise<void>) | undefined;
  try {
    await child.waitForLog(HEADLESS);
    const reached = await point.reach(task, deployment);
    release = reached.release;
    child.kill(signal);
    if (signal === "SIGTERM") await child.waitForLog("oikos stopping");
    // A held model reply or lock is let go while a stopping process still waits on it (SIGTERM),
    // or after the process is gone (SIGKILL), so the restarted process finds the world free.
    if (signal === "SIGKILL") await child.exited;
    await release?.();
    release = undefined;
    const code = await child.exited;
    if (signal === "SIGTERM") {
      assert.equal(code, 0, `a SIGTERM stop exits 0:\n${child.stderr()}`);
      assertQuietStop(child);
    }
    child = startOikos(task, env);
    await child.waitForLog(HEADLESS);
    if (reached.unapprovedCard) await approvePlan(task, reached.unapprovedCard);
    const ending = point.ending(signal);
    await reachEnding(task, ending);
    await stopCleanly(child);
    // Counted once everything is stopped: a late duplicate post would be among them.
    judgeChat(task, ending, point.turnOwed(signal));
    await judgeStore(deployment, ending);
  } catch (error) {
    // What the restarted process logged and what the model was asked: a failure explains itself.
    const steps = task.model.requests.map((r) => r.step ?? "(fallback)").join(", ");
    const log = child.stderr().split("\n").slice(-40).join("\n");
    throw new Error(`${(error as Error).message}\nmodel steps: ${steps}\noikos log (last lines):\n${log}`, {
      cause: error,
    });
  } finally {
    await release?.().catch(() => {});
    child.kill("SIGKILL");
    await child.exited;
    await task.model.close();
    await deployment.dispose();
  }
}

const INTERRUPTED = /interrupted/i;

async function reachEnding(task: MarkerTask, ending: Ending): Promise<void> {
  if (ending.kind === "completed") {
    await eventually("the task completed", () =>
      newPosts(task).some((b) => b.includes(SUMMARY)) ? true : undefined,
    );
    return;
  }
  await eventually("the interruption reported", () =>
    botPosts(task).some((e) => INTERRUPTED.test(String(e.content.body ?? ""))) ? true : undefined,
  );
  await eventually("the resumed agent saw the interrupted run re-attached, not run again", () =>
    task.model.requests.some((r) =>
      r.body.messages.some((m) => typeof m.content === "string" && m.content.includes('"kind":"reattached"')),
    )
      ? true
      : undefined,
  );
}

function judgeChat(task: MarkerTask, ending: Ending, turnOwed: boolean): void {
  const posts = newPosts(task);
  assert.equal(
    posts.filter((b) => b.includes("📋 Plan")).length,
    1,
    "one plan card: the operator's message was handled once",
  );
  const notices = resumeNotices(task);
  if (turnOwed) assert.equal(notices.length, 1, `told once that the work resumes: ${notices.join(" | ")}`);
  else assert.ok(notices.length <= 1, `told once at most: ${notices.join(" | ")}`);
  if (ending.kind === "completed") {
    assert.deepEqual(markerLines(task), ending.marker, "the approved command ran exactly once");
    assert.equal(posts.filter((b) => b.includes(SUMMARY)).length, 1, "one summary");
  } else {
    // A killed process does not kill the command it started (a remote one goes on too): it may finish once.
    assert.equal(
      markerLines(task).filter((line) => line === "start").length,
      1,
      "the interrupted mutating command never started again",
    );
    assert.ok(posts.filter((b) => INTERRUPTED.test(b)).length <= 1, "the interruption is told once");
  }
}

async function judgeStore(deployment: Deployment, ending: Ending): Promise<void> {
  const store = await deployment.open();
  try {
    const sessions = await store.db.selectFrom("sessions").select(["id", "status"]).execute();
    assert.equal(sessions.length, 1, "one task: no chat event started a second one");
    const fromChat = await store.db
      .selectFrom("messages")
      .select(["content", "platform_event_id"])
      .where("role", "=", "user")
      .execute();
    const eventIds = fromChat.map((m) => m.platform_event_id);
    assert.equal(
      new Set(eventIds).size,
      eventIds.length,
      `a chat event stored twice: ${JSON.stringify(fromChat)}`,
    );
    assert.equal(fromChat.filter((m) => m.content === ASK).length, 1, "the operator's request stored once");
    const executions = await store.db.selectFrom("executions").select(["status"]).execute();
    assert.equal(executions.length, 1, "one execution: a resumed run is re-attached, never issued again");
    if (ending.kind === "completed") {
      assert.equal(sessions[0]!.status, "done");
      assert.equal(executions[0]!.status, "completed");
      const feedback = await store.db.selectFrom("feedback").select("session_id").execute();
      assert.equal(feedback.length, 1, "completed once");
    } else {
      assert.equal(executions[0]!.status, "interrupted");
    }
  } finally {
    await store.close();
  }
}
