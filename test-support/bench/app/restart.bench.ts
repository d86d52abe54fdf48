import { existsSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { MatrixDouble } from "../../matrix-double/matrix-double.ts";
import { median } from "../../median.ts";
import { createDeployment } from "../../oikos-process/deployment.ts";
import {
  ALICE,
  approvePlan,
  askForPlan,
  eventually,
  HEADLESS,
  markerTask,
  registerMatrixUsers,
  startOikos,
} from "../../oikos-process/marker-task.ts";

const RUNS = 3;

/**
 * The composed app as a process (`oikos start`, embedded default, Matrix double, scripted model):
 * - resume_after_kill_ms_p50: SIGKILL right after ✅ (the consent turn's model call in flight) →
 *   a restarted process starts the approved command (the marker file appears); includes the restart.
 * - shutdown_ms_p50: SIGTERM while a turn waits on its model call → the process has exited.
 */
export default async function restartBench(): Promise<Record<string, number>> {
  const double = await MatrixDouble.start();
  registerMatrixUsers(double);
  const resume: number[] = [];
  const shutdown: number[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      resume.push(await resumeAfterKill(double));
      shutdown.push(await shutdownWithTurnInFlight(double));
    }
  } finally {
    await double.close();
  }
  return {
    resume_after_kill_ms_p50: Math.round(median(resume)),
    shutdown_ms_p50: Math.round(median(shutdown)),
  };
}

async function resumeAfterKill(double: MatrixDouble): Promise<number> {
  const deployment = await createDeployment("embedded", "bench-resume");
  const task = await markerTask(deployment, double, { hold: "run" });
  let child = startOikos(task);
  try {
    await child.waitForLog(HEADLESS);
    await approvePlan(task, await askForPlan(task));
    await eventually("the consent turn called the model", () =>
      task.model.requests.some((r) => r.step === "run") ? true : undefined,
    );
    const t0 = performance.now();
    child.kill("SIGKILL");
    await child.exited;
    task.release();
    child = startOikos(task);
    await eventually("the approved command started", () => (existsSync(task.marker) ? true : undefined));
    return performance.now() - t0;
  } finally {
    child.kill("SIGKILL");
    await child.exited;
    await task.model.close();
    await deployment.dispose();
  }
}

async function shutdownWithTurnInFlight(double: MatrixDouble): Promise<number> {
  const deployment = await createDeployment("embedded", "bench-shutdown");
  const task = await markerTask(deployment, double, { hold: "plan" });
  const child = startOikos(task);
  try {
    await child.waitForLog(HEADLESS);
    task.double.message(ALICE, task.room, "please append the marker line on my workstation");
    await eventually("the turn called the model", () =>
      task.model.requests.some((r) => r.step === "plan") ? true : undefined,
    );
    const t0 = performance.now();
    child.kill("SIGTERM");
    const code = await child.exited;
    if (code !== 0) throw new Error(`oikos exited ${code} on SIGTERM:\n${child.stderr()}`);
    return performance.now() - t0;
  } finally {
    task.release();
    child.kill("SIGKILL");
    await child.exited;
    await task.model.close();
    await deployment.dispose();
  }
}

/** Measured on the deployment DATABASE_URL / REDIS_URL select (scripts/bench.ts names it with each figure). */
export const usesStore = true;
