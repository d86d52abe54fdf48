import { describeFaultMatrix } from "../test-support/oikos-process/fault-matrix-suite.ts";

// Issue 18's fault matrix in full on Postgres + Redis, SIGTERM at every point (SIGKILL:
// app/fault-matrix-sigkill.test.ts). The embedded deployment runs a representative part of it
// (app/restart-safety.test.ts).
describeFaultMatrix("SIGTERM");
