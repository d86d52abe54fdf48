import { userInfo } from "node:os";
import { openStore } from "../../store/connect.ts";
import { findEntity } from "../../store/entities.ts";
import { migrateToLatest } from "../../store/migrate.ts";
import {
  changeRouting,
  describeRouting,
  parseRoutingWords,
  routingView,
} from "../../store/routing-change.ts";
import { commandArgs } from "../command-args.ts";
import type { CommandIO } from "../command-module.ts";
import { loadConfig } from "../config.ts";
import { storeOptions } from "../runtime.ts";

export const description =
  "show or change where an entity's commands go (transport, host, port, user, vmid …)";

export const usage = `
Usage: oikos routing <slug>                      show the entity's routing
       oikos routing <slug> key=value [key= …]   change it (an empty value removes the key)

Routing keys: transport (ssh | pct-exec | qm-guest-exec | local | none), parent (the owning host's
slug), ssh.host, ssh.port, ssh.user, ansible_host/_port/_user, vmid, proxmox.vmid/node/host, jail.
The agent cannot change them; this command (run by the operator on the oikos machine), \`oikos import\`
and the admin chat command \`!oikos routing\` can. Every change is audited as routing_changed (old →
new), and an execution approved before the change is refused (routing_changed) instead of running
somewhere nobody approved. Example: oikos routing lxc:gitea transport=pct-exec parent=host:pve1 vmid=105`;

export async function run(argv: string[], io: CommandIO): Promise<number> {
  const args = commandArgs({ name: "routing", usage, io }, argv, { allowPositionals: true });
  if (!args) return 2;
  const [slug, ...words] = args.positionals;
  if (!slug) {
    io.stderr.write(`oikos routing: expected an entity slug.\n${usage}\n`);
    return 2;
  }
  const patch = parseRoutingWords(words);
  if ("error" in patch) {
    io.stderr.write(`oikos routing: ${patch.error}.\n${usage}\n`);
    return 2;
  }
  const store = await openStore(storeOptions(loadConfig()));
  try {
    await migrateToLatest(store.db);
    if (words.length === 0) {
      const entity = await findEntity(store.db, slug);
      if (!entity) {
        io.stderr.write(`oikos routing: there is no entity ${slug}.\n`);
        return 1;
      }
      io.stdout.write(`${slug}: ${describeRouting(routingView(entity))}\n`);
      return 0;
    }
    const result = await changeRouting(store.db, slug, patch, { by: `cli:${userInfo().username}` });
    if (!result.ok) {
      io.stderr.write(`oikos routing: ${result.reason}.\n`);
      return 1;
    }
    io.stdout.write(
      result.changed
        ? `${slug} re-routed.\n  was: ${describeRouting(result.before)}\n  now: ${describeRouting(result.after)}\n`
        : `${slug}: unchanged (${describeRouting(result.after)}).\n`,
    );
    return 0;
  } finally {
    await store.close();
  }
}
