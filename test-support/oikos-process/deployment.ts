import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Kysely } from "kysely";
import { openStore, type StoreHandle } from "../../store/connect.ts";
import type { Database } from "../../store/schema.ts";
import { seedEmbeddedDataDir } from "../embedded-data-dir.ts";
import { deleteRedisKeys, redisTestUrl } from "../redis.ts";
import { createTestDatabase } from "../store.ts";

export type DeploymentKind = "embedded" | "postgres+redis";

/** Where a child `oikos` keeps its state: a data folder (PGlite, in-process queue) or its own Postgres database and Redis prefix. */
export interface Deployment {
  kind: DeploymentKind;
  dir: string;
  /** Environment for the child: data folder, and DATABASE_URL / REDIS_URL / OIKOS_REDIS_PREFIX when not embedded. */
  env: NodeJS.ProcessEnv;
  /** Opens the deployment's database (PGlite only while no child runs). */
  open(): Promise<StoreHandle & { db: Kysely<Database> }>;
  dispose(): Promise<void>;
}

/** The deployments this run can test: embedded always, Postgres + Redis when both URLs are set. */
export function deploymentKinds(): { kind: DeploymentKind; skip: string | false }[] {
  return [
    { kind: "embedded", skip: false },
    {
      kind: "postgres+redis",
      skip:
        process.env.DATABASE_URL && redisTestUrl()
          ? false
          : "Postgres + Redis skipped: DATABASE_URL and REDIS_URL are not both set",
    },
  ];
}

export async function createDeployment(kind: DeploymentKind, name: string): Promise<Deployment> {
  const dir = mkdtempSync(join(tmpdir(), `oikos-${name}-`));
  const base: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "/tmp",
    OIKOS_DATA_DIR: join(dir, "data"),
  };
  if (kind === "embedded") {
    await seedEmbeddedDataDir(join(dir, "data"));
    return {
      kind,
      dir,
      env: base,
      open: () => openStore({ kind: "pglite", dataDir: join(dir, "data", "pg") }),
      async dispose() {
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const database = await createTestDatabase();
  const redisUrl = redisTestUrl()!;
  const prefix = `oikos_t_${name}_${Date.now().toString(36)}`;
  return {
    kind,
    dir,
    env: { ...base, DATABASE_URL: database.url, REDIS_URL: redisUrl, OIKOS_REDIS_PREFIX: prefix },
    open: () => openStore({ kind: "postgres", url: database.url, poolSize: 2 }),
    async dispose() {
      await database.dispose();
      await deleteRedisKeys(redisUrl, prefix);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
