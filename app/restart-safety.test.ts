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

// The first is the headline — kill -9 right after ✅ on the embedded default, its queue's journal
// resumes the approved work once — and runs every time; the others repeat fault-matrix cells on
// the embedded store and run with OIKOS_RESTART_CELLS=all (each holds a test slot ~30 s: CI time).
const EMBEDDED_CELLS: readonly [FaultSignal, FaultPointName, "always" | "all"][] = [
  ["SIGKILL", "right after ✅", "always"],
  ["SIGKILL", "during an execution", "all"],
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
