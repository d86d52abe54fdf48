import { after, before, describe, test } from "node:test";
import { MatrixDouble } from "../test-support/matrix-double/matrix-double.ts";
import { deploymentKinds } from "../test-support/oikos-process/deployment.ts";
import { FAULT_POINTS, type FaultSignal, runFault } from "../test-support/oikos-process/fault-matrix.ts";
import { registerMatrixUsers } from "../test-support/oikos-process/marker-task.ts";

// Issue 18's fault matrix in full on Postgres + Redis: six points of a task × SIGKILL and SIGTERM,
// each stopping the composed app (a child process) and starting it again. The embedded deployment
// runs a representative part of it (app/restart-safety.test.ts); both files run in parallel in CI.
let double: MatrixDouble;

before(async () => {
  double = await MatrixDouble.start();
  registerMatrixUsers(double);
});

after(async () => {
  await double?.close();
});

const postgres = deploymentKinds().find((d) => d.kind === "postgres+redis")!;
const SIGNALS: readonly FaultSignal[] = ["SIGKILL", "SIGTERM"];

describe("fault matrix (postgres+redis)", { skip: postgres.skip }, () => {
  for (const point of FAULT_POINTS) {
    for (const signal of SIGNALS) {
      test(`${signal} ${point.name}: the task ends as without the fault`, () =>
        runFault("postgres+redis", point, signal, double));
    }
  }
});
