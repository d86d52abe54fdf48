import { describe, test } from "node:test";
import {
  FAULT_POINTS,
  type FaultPointName,
  type FaultSignal,
  runFault,
} from "../test-support/oikos-process/fault-matrix.ts";
import { matrixDoubleForFile } from "../test-support/oikos-process/marker-task.ts";

// The composed app as a process (`oikos start`, headless) on the embedded default (PGlite, the
// in-process queue) with the Matrix double and the scripted model, stopped at awkward moments with
// SIGKILL and SIGTERM and started again: the approved command runs exactly once, the task ends as it
// would have, and the operator is told once. A representative part of the fault matrix (the embedded
// process starts slowly); app/fault-matrix-sigkill.test.ts and -sigterm.test.ts run all of it on Postgres + Redis.
const double = matrixDoubleForFile();

const EMBEDDED_CELLS: readonly [FaultSignal, FaultPointName][] = [
  ["SIGKILL", "right after ✅"],
  ["SIGTERM", "during a model call"],
  ["SIGKILL", "during an execution"],
  ["SIGKILL", "during the continuation"],
];

describe("restart safety (embedded)", () => {
  for (const [signal, name] of EMBEDDED_CELLS) {
    const point = FAULT_POINTS.find((p) => p.name === name)!;
    test(`${signal} ${name}: the task ends as without the fault`, () =>
      runFault("embedded", point, signal, double()));
  }
});
