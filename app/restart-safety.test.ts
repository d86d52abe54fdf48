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

// The first two are the embedded queue's own crash recovery (its journal) and run every time; the
// other two repeat fault-matrix cells on the embedded store and run with OIKOS_RESTART_CELLS=all (an
// embedded cell costs about 16 s of CPU: the suite is bound by its CPU).
const EMBEDDED_CELLS: readonly [FaultSignal, FaultPointName, "always" | "all"][] = [
  ["SIGKILL", "right after ✅", "always"],
  ["SIGKILL", "during an execution", "always"],
  ["SIGTERM", "during a model call", "all"],
  ["SIGKILL", "during the continuation", "all"],
];
const ALL_CELLS = process.env.OIKOS_RESTART_CELLS === "all";

describe("restart safety (embedded)", () => {
  for (const [signal, name, when] of EMBEDDED_CELLS) {
    const point = FAULT_POINTS.find((p) => p.name === name)!;
    const skip =
      when === "all" &&
      !ALL_CELLS &&
      "the fault matrix runs this cell; OIKOS_RESTART_CELLS=all runs it here too";
    test(`${signal} ${name}: the task ends as without the fault`, { skip }, () =>
      runFault("embedded", point, signal, double()),
    );
  }
});
