import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { MatrixDouble } from "../test-support/matrix-double/matrix-double.ts";
import { createDeployment, deploymentKinds } from "../test-support/oikos-process/deployment.ts";
import {
  approvePlan,
  askForPlan,
  bodies,
  eventually,
  HEADLESS,
  markerLines,
  markerTask,
  registerMatrixUsers,
  resumeNotices,
  startOikos,
  taskCompleted,
} from "../test-support/oikos-process/marker-task.ts";
import type { SpawnedCli } from "../test-support/run-cli.ts";

// The composed app as a process (`oikos start`, headless) with the Matrix double and the scripted
// model, stopped at awkward moments with SIGKILL and SIGTERM and started again: the approved command
// runs exactly once, the task ends as it would have, and the operator is told once.
let double: MatrixDouble;

before(async () => {
  double = await MatrixDouble.start();
  registerMatrixUsers(double);
});

after(async () => {
  await double?.close();
});

function assertQuietStop(child: SpawnedCli): void {
  const log = child.stderr();
  assert.doesNotMatch(log, /driver has already been destroyed/);
  assert.doesNotMatch(log, /"level":(50|60)/, "a normal stop logs no error");
  assert.doesNotMatch(log, /\n\s+at /, "no stack trace");
}

async function stopCleanly(child: SpawnedCli): Promise<void> {
  child.kill("SIGTERM");
  assert.equal(await child.exited, 0);
  assertQuietStop(child);
}

const GRACE = { OIKOS_SHUTDOWN_GRACE_MS: "3000" };

for (const { kind, skip } of deploymentKinds()) {
  describe(`restart safety (${kind})`, { skip }, () => {
    test("SIGKILL right after ✅: the restarted process runs the approved command once and says so once", async () => {
      const deployment = await createDeployment(kind, "kill-after-approve");
      const task = await markerTask(deployment, double);
      let child = startOikos(task, GRACE);
      try {
        await child.waitForLog(HEADLESS);
        await approvePlan(task, await askForPlan(task));
        child.kill("SIGKILL");
        await child.exited;
        child = startOikos(task, GRACE);
        await taskCompleted(task);
        assert.deepEqual(markerLines(task), ["run"], "the approved command ran exactly once");
        assert.ok(resumeNotices(task).length <= 1, `told once at most: ${resumeNotices(task).join(" | ")}`);
        await eventually("the final plan card shows every step's stored status", () => {
          const plan =
            bodies(task)
              .filter((b) => b.includes("📋 Plan"))
              .at(-1) ?? "";
          return plan.includes("✅ 1.") && !plan.includes("▫️") ? true : undefined;
        });
        await stopCleanly(child);
      } finally {
        child.kill("SIGKILL");
        await child.exited;
        await task.model.close();
        await deployment.dispose();
      }
    });

    test("SIGTERM during a model call: a clean exit, then the turn resumes once, said once, and the command runs once", async () => {
      const deployment = await createDeployment(kind, "term-in-model");
      const task = await markerTask(deployment, double, { hold: "run" });
      let child = startOikos(task, GRACE);
      try {
        await child.waitForLog(HEADLESS);
        await approvePlan(task, await askForPlan(task));
        await eventually("the model asked for the run", () =>
          task.model.requests.some((r) => r.step === "run") ? true : undefined,
        );
        await stopCleanly(child);
        assert.deepEqual(markerLines(task), [], "nothing ran: the reply never came");
        task.release();
        child = startOikos(task, GRACE);
        await taskCompleted(task);
        assert.deepEqual(markerLines(task), ["run"], "the approved command ran exactly once");
        assert.equal(resumeNotices(task).length, 1, "the operator is told once that the work resumes");
        await stopCleanly(child);
      } finally {
        child.kill("SIGKILL");
        await child.exited;
        await task.model.close();
        await deployment.dispose();
      }
    });

    test("SIGKILL during the execution: the run call is re-attached to its execution, reported interrupted, never run again", async () => {
      const deployment = await createDeployment(kind, "kill-in-execution");
      const task = await markerTask(deployment, double, { slowSeconds: 3 });
      let child = startOikos(task, GRACE);
      try {
        await child.waitForLog(HEADLESS);
        await approvePlan(task, await askForPlan(task));
        await eventually("the command started", () =>
          markerLines(task).includes("start") ? true : undefined,
        );
        child.kill("SIGKILL");
        await child.exited;
        child = startOikos(task, GRACE);
        await eventually("the interruption reported", () =>
          bodies(task).some((b) => /interrupted/i.test(b)) ? true : undefined,
        );
        await eventually("the resumed turn answered", () =>
          task.model.requests.some((r) =>
            r.body.messages.some(
              (m) => typeof m.content === "string" && m.content.includes('"kind":"reattached"'),
            ),
          )
            ? true
            : undefined,
        );
        // A killed process does not kill the command it started (a remote one goes on too): it may finish once.
        const starts = markerLines(task).filter((line) => line === "start");
        assert.equal(starts.length, 1, "the interrupted mutating command never started again");
        await stopCleanly(child);
      } finally {
        child.kill("SIGKILL");
        await child.exited;
        await task.model.close();
        await deployment.dispose();
      }
    });
  });
}
