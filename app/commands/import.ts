import { openStore } from "../../store/connect.ts";
import { applyInventory, type InventoryImportResult } from "../../store/import/apply-inventory.ts";
import { type InventoryFormat, readInventory } from "../../store/import/read-inventory.ts";
import { migrateToLatest } from "../../store/migrate.ts";
import type { CommandIO } from "../command-module.ts";
import { loadConfig } from "../config.ts";
import { storeOptions } from "../runtime.ts";

export const description = "import hosts and groups from an Ansible inventory or ssh_config";

export const usage = `
Usage: oikos import ansible <inventory.yml|inventory.ini> [--json]
       oikos import ssh-config <file> [--json]

Hosts become host:NAME entities (ssh.host/port/user from ansible_host/ansible_port/ansible_user or
HostName/Port/User), Ansible groups become group:NAME entities with member-of relationships.
Re-importing is idempotent; the report says what was created, updated or unchanged.
Secret-looking variables (passwords, tokens, keys) are never imported.`;

const FORMATS: InventoryFormat[] = ["ansible", "ssh-config"];

export async function run(argv: string[], io: CommandIO): Promise<number> {
  const json = argv.includes("--json");
  const [format, file, ...extra] = argv.filter((arg) => arg !== "--json");
  if (!format || !FORMATS.includes(format as InventoryFormat) || !file || extra.length > 0) {
    io.stderr.write(`oikos import: expected a format (${FORMATS.join(" | ")}) and one file.\n${usage}\n`);
    return 2;
  }
  const inventory = await readInventory(format as InventoryFormat, file);
  const config = loadConfig();
  const store = await openStore(storeOptions(config));
  try {
    await migrateToLatest(store.db);
    const result = await applyInventory(store.db, inventory, { by: `import:${format}` });
    io.stdout.write(json ? `${JSON.stringify(result)}\n` : report(file, store.describe, result));
    return result.entities.failed.length + result.relationships.failed.length > 0 ? 1 : 0;
  } finally {
    await store.close();
  }
}

function report(file: string, where: string, result: InventoryImportResult): string {
  const { entities, relationships } = result;
  const lines = [
    `Imported ${file} into ${where}:`,
    `  entities: ${entities.created.length} created, ${entities.updated.length} updated, ${entities.unchanged.length} unchanged`,
    `  relationships: ${relationships.created.length} created, ${relationships.unchanged.length} unchanged`,
  ];
  if (entities.created.length > 0) lines.push(`  created: ${entities.created.join(", ")}`);
  if (entities.updated.length > 0) lines.push(`  updated: ${entities.updated.join(", ")}`);
  for (const failure of entities.failed) lines.push(`  FAILED ${failure.slug}: ${failure.reason}`);
  for (const failure of relationships.failed) lines.push(`  FAILED ${failure.edge}: ${failure.reason}`);
  for (const warning of result.warnings) lines.push(`  warning: ${warning}`);
  return `${lines.join("\n")}\n`;
}
