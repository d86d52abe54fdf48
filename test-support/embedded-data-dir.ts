import { cpSync, existsSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "../store/connect.ts";
import { migrateToLatest } from "../store/migrate.ts";
import { migrationsHash } from "./store.ts";

let template: Promise<string> | undefined;

/**
 * Gives `dataDir` (an `OIKOS_DATA_DIR`) an embedded database that is already created and migrated,
 * copied from one made once per migration set and shared by every test process. A fresh one costs
 * PGlite's initdb and every migration at the first start (about 6.5 s of CPU, against 1.3 s for a
 * migrated one): for tests whose subject is not the first start. Tests of the first start (`oikos
 * start` with nothing configured, the README walkthrough, the demo) keep an empty folder.
 */
export async function seedEmbeddedDataDir(dataDir: string): Promise<void> {
  cpSync(await migratedDataDir(), join(dataDir, "pg"), { recursive: true });
}

function migratedDataDir(): Promise<string> {
  template ??= (async () => {
    const cached = join(tmpdir(), `oikos-embedded-template-${migrationsHash()}`);
    if (existsSync(join(cached, "PG_VERSION"))) return cached;
    const partial = mkdtempSync(`${cached}.partial-`);
    const store = await openStore({ kind: "pglite", dataDir: join(partial, "pg") });
    try {
      await migrateToLatest(store.db);
    } finally {
      await store.close();
    }
    try {
      renameSync(join(partial, "pg"), cached);
    } catch (error) {
      // another test process made it first: theirs is the same
      if (!existsSync(join(cached, "PG_VERSION"))) throw error;
    }
    rmSync(partial, { recursive: true, force: true });
    return cached;
  })();
  return template;
}
