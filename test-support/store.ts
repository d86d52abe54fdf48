import { createHash, randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { openStore, type StoreHandle } from "../store/connect.ts";
import { migrateToLatest } from "../store/migrate.ts";

export interface TestStore extends StoreHandle {
  /** Drops the per-test database (Postgres) or the in-memory instance (PGlite). */
  dispose(): Promise<void>;
}

export type TestDialect = "postgres" | "pglite";

/** Dialects this run can test: PGlite always, Postgres when DATABASE_URL is set. */
export function availableDialects(): { dialect: TestDialect; skip: string | false }[] {
  return [
    { dialect: "pglite", skip: false },
    {
      dialect: "postgres",
      skip: process.env.DATABASE_URL ? false : "Postgres adapter skipped: DATABASE_URL is not set",
    },
  ];
}

/** A migrated, empty database of its own: a fresh Postgres database, or an in-memory PGlite. */
export async function createTestStore(dialect: TestDialect = defaultDialect()): Promise<TestStore> {
  if (dialect === "pglite") {
    const store = await openStore({ kind: "pglite", dataDir: null, loadDataDir: await migratedTemplate() });
    await migrateToLatest(store.db);
    return { ...store, dispose: () => store.close() };
  }
  const database = await createTestDatabase();
  const store = await openStore({ kind: "postgres", url: database.url, poolSize: 5 });
  await migrateToLatest(store.db);
  return {
    ...store,
    async dispose() {
      await store.close();
      await database.dispose();
    },
  };
}

/** An empty Postgres database of its own (for a child process to migrate and use); dropped by dispose. */
export async function createTestDatabase(): Promise<{ url: string; dispose(): Promise<void> }> {
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) throw new Error("DATABASE_URL is required for the postgres test dialect");
  const name = `${TEST_DB_PREFIX}${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    leftoversDropped ??= dropLeftovers(admin);
    await leftoversDropped;
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), dispose: () => dropWhenFree(baseUrl, name) };
}

const TEST_DB_PREFIX = "oikos_t_";
const LEFTOVER_AGE_MS = 60 * 60_000;
const PLAUSIBLE_SINCE = Date.UTC(2020, 0, 1);
let leftoversDropped: Promise<void> | undefined;

/**
 * Drops the test database once nothing uses it any more. Never `WITH (FORCE)`: terminating a
 * connection that a test's background loop still holds turns cleanup into a random test failure.
 * A database still busy after a few seconds is left for `dropLeftovers` of a later run.
 */
async function dropWhenFree(baseUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    for (let attempt = 0; attempt < 30; attempt++) {
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name}`);
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== "55006") throw error; // object_in_use
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  } finally {
    await client.end();
  }
}

/** Test databases of earlier runs older than an hour (name carries its creation time). */
async function dropLeftovers(admin: pg.Client): Promise<void> {
  const { rows } = await admin.query<{ datname: string }>(
    "SELECT datname FROM pg_database WHERE datname LIKE $1",
    [`${TEST_DB_PREFIX}%`],
  );
  for (const { datname } of rows) {
    const created = Number.parseInt(datname.slice(TEST_DB_PREFIX.length).split("_")[0] ?? "", 36);
    // Only names createTestStore made (a base-36 time after 2020): `oikos_t_crash_…` of the worker
    // crash test parses as 1970 and was dropped under that test's feet.
    if (!(created > PLAUSIBLE_SINCE && Date.now() - created > LEFTOVER_AGE_MS)) continue;
    await admin.query(`DROP DATABASE IF EXISTS ${datname}`).catch(() => undefined);
  }
}

/** The dialect a test that is not parameterised should use: Postgres when configured. */
export function defaultDialect(): TestDialect {
  return process.env.DATABASE_URL ? "postgres" : "pglite";
}

let template: Promise<Blob> | undefined;

/** Names one set of migrations: a cached migrated database is valid for it alone. */
export function migrationsHash(): string {
  const dir = fileURLToPath(new URL("../migrations/", import.meta.url));
  const hash = createHash("sha256");
  for (const file of readdirSync(dir).sort()) hash.update(file).update(readFileSync(join(dir, file)));
  return hash.digest("hex").slice(0, 16);
}

/**
 * A dump of a freshly migrated PGlite, cached on disk per migration set: loading it is several
 * times faster than initdb + migrations, and every test file (a process of its own) shares it.
 */
function migratedTemplate(): Promise<Blob> {
  template ??= (async () => {
    const cached = join(tmpdir(), `oikos-pglite-template-${migrationsHash()}.tar`);
    if (existsSync(cached)) return new Blob([readFileSync(cached)]);
    const store = await openStore({ kind: "pglite", dataDir: null });
    await migrateToLatest(store.db);
    const dump = await store.pglite!.dumpDataDir("none");
    await store.close();
    const partial = `${cached}.${process.pid}.tmp`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, cached);
    return dump;
  })();
  return template;
}
