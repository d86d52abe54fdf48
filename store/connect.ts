import { mkdir } from "node:fs/promises";
import type { PGlite } from "@electric-sql/pglite";
import { Kysely, PGliteDialect, PostgresDialect } from "kysely";
import { keepWasmOnBaselineTier } from "../base/wasm-tier.ts";
import { EMBEDDED_POSTGRESQL_CONF } from "./embedded-footprint.ts";
import { initEmbeddedDataDir } from "./embedded-init.ts";
import { type EmbeddedLock, lockEmbeddedDatabase } from "./embedded-lock.ts";
import { RedactOnWrite } from "./redact-on-write.ts";
import type { Database } from "./schema.ts";

export type DialectName = "postgres" | "pglite";

export interface StoreHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  /** The embedded instance, when the dialect is PGlite. */
  pglite?: PGlite;
  /** Human-readable location for `!status` (never includes a password). */
  describe: string;
  close(): Promise<void>;
}

export type StoreOptions =
  | { kind: "postgres"; url: string; poolSize?: number; onIdleError?: (error: Error) => void }
  | {
      kind: "pglite";
      dataDir: string | null /** Start from this dump (`dumpDataDir()`), e.g. a migrated template. */;
      loadDataDir?: Blob;
    };

// Both dialects hand back the same JS types: int8 as string, timestamptz as Date, jsonb parsed.
const INT8_OID = 20;

/** Each dialect's driver is loaded only when chosen: a Postgres process never loads PGlite, and the reverse. */
export async function openStore(options: StoreOptions): Promise<StoreHandle> {
  if (options.kind === "postgres") {
    const { default: pg } = await import("pg");
    pg.types.setTypeParser(INT8_OID, (value: string) => value);
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
    // A pooled client losing its server (restart, DROP DATABASE … FORCE) must not crash the
    // process; the next query reconnects or fails with its own error.
    pool.on("error", (error) => options.onIdleError?.(error));
    // The pool listens only while a client is idle: a server restart (57P01) reaching a client that
    // is checked out between two queries (a transaction) would be an unhandled 'error' event and
    // end the process. The query in flight fails on its own; the pool drops the broken client.
    pool.on("connect", (client) => client.on("error", (error) => options.onIdleError?.(error)));
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool }),
      plugins: [new RedactOnWrite()],
    });
    return { db, dialect: "postgres", describe: describePostgres(options.url), close: () => db.destroy() };
  }
  let lock: EmbeddedLock | undefined;
  if (options.dataDir) {
    await mkdir(options.dataDir, { recursive: true });
    // One writer per embedded database: a second process meets the lock with what to do.
    lock = lockEmbeddedDatabase(options.dataDir);
  }
  try {
    return await openEmbedded(options, lock);
  } catch (error) {
    lock?.release();
    throw error;
  }
}

async function openEmbedded(
  options: Extract<StoreOptions, { kind: "pglite" }>,
  lock: EmbeddedLock | undefined,
): Promise<StoreHandle> {
  if (options.dataDir && !options.loadDataDir) await initEmbeddedDataDir(options.dataDir);
  const [{ PGlite }, { pg_trgm }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("@electric-sql/pglite/contrib/pg_trgm"),
  ]);
  // TurboFan on PostgreSQL's huge functions cost ~550 MB of compiler memory (base/wasm-tier.ts).
  keepWasmOnBaselineTier();
  const pglite = await PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    parsers: { [INT8_OID]: (value: string) => value },
    postgresqlconf: EMBEDDED_POSTGRESQL_CONF,
    // Trigram indexes serve search_knowledge's title substring match (migration 0220).
    extensions: { pg_trgm },
  });
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }), plugins: [new RedactOnWrite()] });
  return {
    db,
    dialect: "pglite",
    pglite,
    describe: options.dataDir ? `PGlite (embedded) at ${options.dataDir}` : "PGlite (embedded, in memory)",
    close: async () => {
      try {
        await db.destroy();
      } finally {
        lock?.release();
      }
    },
  };
}

function describePostgres(url: string): string {
  try {
    const parsed = new URL(url);
    return `PostgreSQL at ${parsed.hostname}:${parsed.port || "5432"}${parsed.pathname}`;
  } catch {
    return "PostgreSQL";
  }
}
