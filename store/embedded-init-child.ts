// Child of store/embedded-init.ts: runs PGlite's initdb on an empty data dir, then exits.
import { PGlite } from "@electric-sql/pglite";
import { keepWasmOnBaselineTier } from "../base/wasm-tier.ts";
import { EMBEDDED_POSTGRESQL_CONF } from "./embedded-footprint.ts";

const dataDir = process.argv[2];
if (!dataDir) throw new Error("usage: embedded-init-child.ts <data dir>");
keepWasmOnBaselineTier();
const pglite = await PGlite.create({ dataDir, postgresqlconf: EMBEDDED_POSTGRESQL_CONF });
await pglite.close();
