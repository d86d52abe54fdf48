import { setFlagsFromString } from "node:v8";

/**
 * postgresql.conf of the embedded database (PGlite), sized for a 512 MB – 1 GB container: a
 * homelab's graph and task history fit in these buffers many times over. PGlite rewrites its
 * postgresql.conf with these lines at every start, so a data dir made by an older release follows.
 */
export const EMBEDDED_POSTGRESQL_CONF = [
  "shared_buffers = 16MB",
  "work_mem = 1MB",
  "maintenance_work_mem = 8MB",
  "wal_buffers = 256kB",
  "temp_buffers = 1MB",
  // Its files live in memory: a random page costs about what a sequential one does. At the default
  // of 4 the planner walked 24,000 rows in id order to find 500 matches of a two-word search
  // rather than read the 1,000 the text index names (store/knowledge.ts searchKnowledge).
  "random_page_cost = 1.1",
];

/** A function index no module has: while set, V8 tiers nothing up (see below). */
const NO_FUNCTION = 2_000_000_000;

/**
 * Runs `open` (PGlite's compile and instantiate) with V8's optimising tier switched off for the
 * modules compiled meanwhile. PostgreSQL compiled to WebAssembly has a few enormous functions
 * (the SQL grammar's parser among them); the first time one gets hot, TurboFan compiles it with
 * ~550 MB of compiler memory, which is what took an idle embedded start to 0.8–1.2 GB peak RSS.
 * On the baseline tier (Liftoff) queries cost about the same here (5.2 s vs 4.9 s of CPU for 4,000
 * catalog queries) and the process stays under 200 MB. The filter is read when a module is
 * compiled, so restoring it afterwards leaves the other WebAssembly (the bash grammar, the second
 * parser) free to tier up as usual.
 */
export async function withoutWasmTierUp<T>(open: () => Promise<T>): Promise<T> {
  setFlagsFromString(`--wasm-tier-up-filter=${NO_FUNCTION}`);
  try {
    return await open();
  } finally {
    setFlagsFromString("--wasm-tier-up-filter=-1");
  }
}
