import { setFlagsFromString } from "node:v8";

/** A function index no module has: while set, V8 tiers no WebAssembly function up. */
const NO_FUNCTION = 2_000_000_000;

/**
 * Keeps every WebAssembly function of this process on V8's baseline tier (Liftoff) from now on.
 * V8 compiles a wasm function with Liftoff first and, once it gets hot, again with TurboFan on a
 * background thread. oikos's WebAssembly has huge generated functions — the bash grammar's lexer
 * and parse tables (tree-sitter), PostgreSQL's grammar (PGlite) — and TurboFan on them is the
 * expensive part: ~450 ms of CPU when the first fifty commands after a start are classified (on
 * the two cores the agent, the database and the commands share) and ~550 MB of compiler memory for
 * PGlite's. On Liftoff the classifier still does ~22,000 commands/s (TurboFan ~30,000; the target
 * is 10,000) and PGlite's queries cost about the same.
 *
 * V8 reads the filter when a function gets hot, not when its module is compiled: it must stay set
 * for as long as the process runs, so nothing sets it back. Called by each loader of WebAssembly
 * (the two bash parsers, the embedded database) before its first use; calling it again is harmless.
 */
export function keepWasmOnBaselineTier(): void {
  setFlagsFromString(`--wasm-tier-up-filter=${NO_FUNCTION}`);
}
