import { checkTarget, type TargetCheck } from "../../jobs/execution/target-check.ts";
import { configuredSshTransport } from "../../jobs/ssh/create-ssh-transport.ts";
import { JAIL_UNJAILED_ALLOWED, JAIL_UNJAILED_ATTRIBUTE } from "../../policy/jail.ts";
import { describeGrant } from "../../policy/jail-grant.ts";
import { openStore } from "../../store/connect.ts";
import { DbHostKeyStore } from "../../store/known-hosts.ts";
import { migrateToLatest } from "../../store/migrate.ts";
import { commandArgs } from "../command-args.ts";
import type { CommandIO } from "../command-module.ts";
import { loadConfig } from "../config.ts";
import { storeOptions } from "../runtime.ts";

export const description =
  "probe one target without any model: reachable, bash, the read-only jail and which grants it can open";

export const usage = `
Usage: oikos check <slug> [--json]

Reaches the target as a command would (its routing: ssh, pct exec / qm guest exec through its host,
local), checks that bash is there, starts the read-only jail once plainly and once per grant (the
network, network configuration, every block device, ZFS, the kernel log, other processes' sockets)
and prints what works and which daily diagnostics would ask for approval instead of running unasked.
What it learns is recorded on the entity, as a first run would record it (audited). No model needed.
Exit status: 0 when the target was reached, 1 when it was not (or there is no such entity).`;

export async function run(argv: string[], io: CommandIO): Promise<number> {
  const args = commandArgs({ name: "check", usage, io }, argv, {
    allowPositionals: true,
    options: { json: { type: "boolean" } },
  });
  if (!args) return 2;
  const [slug, ...extra] = args.positionals;
  if (!slug || extra.length > 0) {
    io.stderr.write(`oikos check: expected one entity slug.\n${usage}\n`);
    return 2;
  }
  const config = loadConfig();
  const store = await openStore(storeOptions(config));
  const ssh = configuredSshTransport(config.ssh, new DbHostKeyStore(store.db));
  try {
    await migrateToLatest(store.db);
    const outcome = await checkTarget(
      { db: store.db, runner: ssh.router, targets: { sshUser: config.ssh.user } },
      slug,
    );
    if (!outcome.ok) {
      io.stderr.write(`oikos check: ${outcome.reason}.\n`);
      return 1;
    }
    io.stdout.write(args.values.json ? `${JSON.stringify(outcome.check)}\n` : checkReport(outcome.check));
    return outcome.check.reachable ? 0 : 1;
  } finally {
    await ssh.pool.close();
    await store.close();
  }
}

/** The check in a person's words. */
export function checkReport(check: TargetCheck): string {
  const lines = [`${check.slug} (${check.route})`];
  if (!check.reachable) {
    lines.push(`  reachable: no — ${check.unreachableReason ?? "no answer"}`);
    lines.push(
      `  next: make sure ${check.route} answers from this machine (the network, its sshd, the login and key oikos uses), then run \`oikos check ${check.slug}\` again`,
    );
    return `${lines.join("\n")}\n`;
  }
  lines.push(`  reachable: yes${check.kernel ? ` (${check.kernel})` : ""}`);
  lines.push(`  bash: ${check.bash ? "yes" : "no (approved commands run with sh; read-only ones ask)"}`);
  const { jail } = check;
  if (jail.state === "works") {
    lines.push(
      `  read-only jail: works (engine ${jail.facts.engine}; processes bounded by ${jail.facts.pids}; scratch space ${jail.facts.scratch})`,
    );
  } else if (jail.state === "cannot") {
    lines.push(
      jail.transient
        ? `  read-only jail: could not start just now (${jail.reason}); run the check again`
        : `  read-only jail: cannot run here (${jail.reason}) — read-only commands there ask for approval; to let them run unjailed: oikos routing ${check.slug} ${JAIL_UNJAILED_ATTRIBUTE}=${JAIL_UNJAILED_ALLOWED}`,
    );
  } else lines.push(`  read-only jail: not checked (${jail.reason})`);
  for (const item of check.grants) {
    lines.push(
      item.works
        ? `  grant ${describeGrant(item.grant)}: opens`
        : `  grant ${describeGrant(item.grant)}: cannot open (${item.reason}) — these ask for approval here: ${item.blinds}`,
    );
  }
  return `${lines.join("\n")}\n`;
}
