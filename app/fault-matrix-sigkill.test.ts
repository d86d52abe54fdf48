import { describeFaultMatrix } from "../test-support/oikos-process/fault-matrix-suite.ts";

// Issue 18's fault matrix in full on Postgres + Redis, SIGKILL at every point (SIGTERM:
// app/fault-matrix-sigterm.test.ts). The embedded deployment runs a representative part of it
// (app/restart-safety.test.ts).
describeFaultMatrix("SIGKILL");
