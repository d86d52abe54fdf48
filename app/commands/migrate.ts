import { openStore } from "../../store/connect.ts";
import { migrateToLatest } from "../../store/migrate.ts";
import type { CommandIO } from "../command-module.ts";
import { loadConfig } from "../config.ts";
import { storeOptions } from "../runtime.ts";

export const description = "apply pending database migrations and exit";

export async function run(_argv: string[], io: CommandIO): Promise<number> {
  const config = loadConfig();
  const store = await openStore(storeOptions(config));
  try {
    const report = await migrateToLatest(store.db);
    io.stdout.write(
      report.applied.length
        ? `Applied ${report.applied.length} migration(s) on ${store.describe}:\n${report.applied.map((m) => `  ${m}`).join("\n")}\n`
        : `${store.describe} is up to date.\n`,
    );
    return 0;
  } finally {
    await store.close();
  }
}
