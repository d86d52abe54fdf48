import { describe, test } from "node:test";
import { deploymentKinds } from "../test-support/oikos-process/deployment.ts";
import { FAULT_POINTS, type FaultSignal, runFault } from "../test-support/oikos-process/fault-matrix.ts";
import { matrixDoubleForFile } from "../test-support/oikos-process/marker-task.ts";

// Issue 18's fault matrix in full on Postgres + Redis: the points of a task × SIGKILL and SIGTERM,
// each stopping the composed app (a child process) and starting it again. The embedded deployment
// runs a representative part of it (app/restart-safety.test.ts); both files run in parallel in CI.
const double = matrixDoubleForFile();

const postgres = deploymentKinds().find((d) => d.kind === "postgres+redis")!;
const SIGNALS: readonly FaultSignal[] = ["SIGKILL", "SIGTERM"];

/**
 * Cells that find a gap not fixed yet: they run and report, without failing the suite. None now:
 * "SIGKILL after the plan card" (a kill between the card's post and its stored ref) posts the card
 * again as the same event (Card.postKey → the Matrix transaction id).
 */
const KNOWN_GAPS: Partial<Record<`${FaultSignal} ${string}`, string>> = {};

describe("fault matrix (postgres+redis)", { skip: postgres.skip }, () => {
  for (const point of FAULT_POINTS) {
    for (const signal of SIGNALS) {
      const todo = KNOWN_GAPS[`${signal} ${point.name}`];
      test(`${signal} ${point.name}: the task ends as without the fault`, todo ? { todo } : {}, () =>
        runFault("postgres+redis", point, signal, double()),
      );
    }
  }
});
