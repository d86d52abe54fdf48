import { discoverProxmox } from "../../jobs/proxmox/discover.ts";
import { configuredSshTransport } from "../../jobs/ssh/create-ssh-transport.ts";
import { openStore } from "../../store/connect.ts";
import { applyInventory, type InventoryImportResult } from "../../store/import/apply-inventory.ts";
import type { ProxmoxImportResult } from "../../store/import/apply-proxmox.ts";
import { type InventoryFormat, readInventory } from "../../store/import/read-inventory.ts";
import { DbHostKeyStore } from "../../store/known-hosts.ts";
import { migrateToLatest } from "../../store/migrate.ts";
import { commandArgs } from "../command-args.ts";
import type { CommandIO } from "../command-module.ts";
import { loadConfig } from "../config.ts";
import { storeOptions } from "../runtime.ts";

export const description =
  "import hosts and groups from an Ansible inventory or ssh_config, or discover a Proxmox cluster";

export const usage = `
Usage: oikos import ansible <inventory.yml|inventory.ini> [--json]
       oikos import ssh-config <file> [--json]
       oikos import proxmox <node-entity> [--json]

Hosts become host:NAME entities (ssh.host/port/user from ansible_host/ansible_port/ansible_user or
HostName/Port/User), Ansible groups become group:NAME entities with member-of relationships.
Re-importing is idempotent; the report says what was created, updated or unchanged.
Secret-looking variables (passwords, tokens, keys) are never imported.

proxmox: over the node entity's own SSH transport, reads pvesh /cluster/status, /cluster/resources,
/nodes/{node}/lxc, /qemu, /storage and each guest's config: nodes, storages, containers (lxc:NAME,
pct-exec) and VMs (vm:NAME, qm-guest-exec) through their node, with runs-on, stored-on and member-of
edges. A guest that is gone is marked destroyed (kept, never runnable); a guest that moved nodes is
re-routed and the routing change audited.`;

const FORMATS: InventoryFormat[] = ["ansible", "ssh-config"];

export async function run(argv: string[], io: CommandIO): Promise<number> {
  const args = commandArgs({ name: "import", usage, io }, argv, {
    options: { json: { type: "boolean", default: false } },
    allowPositionals: true,
  });
  if (!args) return 2;
  const { json } = args.values;
  const [format, file, ...extra] = args.positionals;
  if (format === "proxmox" && file && extra.length === 0) return importProxmox(file, json, io);
  if (!format || !FORMATS.includes(format as InventoryFormat) || !file || extra.length > 0) {
    io.stderr.write(
      `oikos import: expected a format (${FORMATS.join(" | ")}) and one file, or proxmox and a node entity.\n${usage}\n`,
    );
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

async function importProxmox(node: string, json: boolean, io: CommandIO): Promise<number> {
  const config = loadConfig();
  const store = await openStore(storeOptions(config));
  const ssh = configuredSshTransport(config.ssh, new DbHostKeyStore(store.db));
  try {
    await migrateToLatest(store.db);
    const outcome = await discoverProxmox(
      { db: store.db, runner: ssh.router, targets: { sshUser: config.ssh.user } },
      node,
      "import:proxmox",
    );
    if (!outcome.ok) {
      io.stderr.write(`oikos import proxmox: ${outcome.reason}\n`);
      return 1;
    }
    io.stdout.write(json ? `${JSON.stringify(outcome.result)}\n` : proxmoxReport(node, outcome.result));
    const { entities, relationships } = outcome.result;
    return entities.failed.length + relationships.failed.length > 0 ? 1 : 0;
  } finally {
    await ssh.pool.close();
    await store.close();
  }
}

export function proxmoxReport(node: string, result: ProxmoxImportResult): string {
  const { entities, relationships } = result;
  const lines = [
    `Discovered Proxmox ${result.cluster} through ${node}:`,
    `  entities: ${entities.created.length} created, ${entities.updated.length} updated, ${entities.unchanged.length} unchanged`,
    `  relationships: ${relationships.created.length} created, ${relationships.unchanged.length} unchanged, ${relationships.removed.length} removed`,
  ];
  if (entities.created.length > 0) lines.push(`  created: ${entities.created.join(", ")}`);
  if (entities.updated.length > 0) lines.push(`  updated: ${entities.updated.join(", ")}`);
  if (result.destroyed.length > 0)
    lines.push(`  destroyed (kept, not runnable): ${result.destroyed.join(", ")}`);
  for (const move of result.moved)
    lines.push(`  moved: ${move.slug} from ${move.from} to ${move.to} (re-routed, audited)`);
  for (const rename of result.renamed)
    lines.push(
      `  renamed: ${rename.slug} from ${rename.from} to ${rename.to} (same vmid; audited as a routing change)`,
    );
  for (const join of result.joined)
    lines.push(
      `  cluster: node ${join.node} was standalone (${join.from}), now in ${join.to}: ${join.moved.length} entities carried over`,
    );
  for (const probe of result.probed) lines.push(`  probed: ${probe.slug} runs ${probe.shell}`);
  for (const failure of entities.failed) lines.push(`  FAILED ${failure.slug}: ${failure.reason}`);
  for (const failure of relationships.failed) lines.push(`  FAILED ${failure.edge}: ${failure.reason}`);
  for (const warning of result.warnings) lines.push(`  warning: ${warning}`);
  return `${lines.join("\n")}\n`;
}
