import { readdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { Kysely } from "kysely";
import { type Migration, type MigrationProvider, type MigrationResult, Migrator } from "kysely/migration";
import { OikosError } from "../base/errors.ts";

const MIGRATIONS_DIR = fileURLToPath(new URL("../migrations/", import.meta.url));

/** Loads `migrations/NNNN_name.ts` files in name order; each exports `up`. */
class FolderMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    const files = (await readdir(MIGRATIONS_DIR)).filter((f) => /^\d{4}_[\w-]+\.ts$/.test(f)).sort();
    const migrations: Record<string, Migration> = {};
    for (const file of files) {
      const module = (await import(new URL(file, `file://${MIGRATIONS_DIR}`).href)) as Migration;
      migrations[file.replace(/\.ts$/, "")] = module;
    }
    return migrations;
  }
}

export interface MigrationReport {
  applied: string[];
  results: MigrationResult[];
}

/** Applies every pending migration; kysely's lock table makes concurrent starts safe. */
// biome-ignore lint/suspicious/noExplicitAny: kysely migrations run on an untyped database by design.
export async function migrateToLatest(db: Kysely<any>): Promise<MigrationReport> {
  // Each issue numbers its migrations in its own range (0130…, 0190…), so one that lands later may
  // sort before one a database already ran: apply it anyway, forward-only as ever.
  const migrator = new Migrator({
    db,
    provider: new FolderMigrationProvider(),
    allowUnorderedMigrations: true,
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) {
    const failed = results.find((r) => r.status === "Error")?.migrationName ?? "unknown";
    throw new OikosError("migration_failed", `Database migration ${failed} failed: ${String(error)}`, {
      cause: error,
    });
  }
  return { applied: results.filter((r) => r.status === "Success").map((r) => r.migrationName), results };
}
