import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { TargetCheck } from "../../jobs/execution/target-check.ts";
import { openStore } from "../../store/connect.ts";
import { findEntity } from "../../store/entities.ts";
import { seedEmbeddedDataDir } from "../../test-support/embedded-data-dir.ts";
import { runCli } from "../../test-support/run-cli.ts";
import { type SshLab, sshLabUnavailable, startSshLab } from "../../test-support/sshd/ssh-lab.ts";
import { checkReport } from "./check.ts";

const unavailable = await sshLabUnavailable();

/** `oikos check` against real sshd hosts: one that jails, one whose sessions cannot make a user namespace. */
describe("oikos check", { skip: unavailable ? `sshd unavailable: ${unavailable}` : false }, () => {
  let lab: SshLab;
  let dir: string;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    lab = await startSshLab({
      hosts: [{ name: "good" }, { name: "nojail", userNamespacesExhausted: true }],
    });
    dir = await mkdtemp(join(tmpdir(), "oikos-check-"));
    await seedEmbeddedDataDir(dir);
    const host = lab.host("good");
    env = {
      ...process.env,
      OIKOS_DATA_DIR: dir,
      DATABASE_URL: "",
      REDIS_URL: "",
      OIKOS_LOG_LEVEL: "warn",
      OIKOS_SSH_KEY: host.privateKeyPath,
    };
    const config = join(dir, "ssh_config");
    await writeFile(
      config,
      ["good", "nojail"]
        .map((name) => {
          const h = lab.host(name);
          return `Host ${name}\n  HostName ${h.host}\n  Port ${h.port}\n  User ${h.username}\n`;
        })
        .join(""),
    );
    const imported = await runCli(["import", "ssh-config", config], { env });
    assert.equal(imported.code, 0, imported.stderr);
  });
  after(async () => {
    await lab?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test("a host that jails: reachable, bash, the jail's engine, each grant; recorded on the entity", async () => {
    const checked = await runCli(["check", "host:good"], { env });
    assert.equal(checked.code, 0, checked.stderr);
    assert.match(checked.stdout, /^host:good \(ssh \S+@127\.0\.0\.1:\d+\)\n {2}reachable: yes \(Linux /);
    assert.match(checked.stdout, /\n {2}bash: yes\n/);
    assert.match(
      checked.stdout,
      /read-only jail: works \(engine unshare; processes bounded by \S+; scratch space \//,
    );
    assert.match(checked.stdout, /grant network configuration \(netlink, read\): opens/);
    assert.match(
      checked.stdout,
      /grant other processes' sockets and files: cannot open \(.*CAP_SYS_PTRACE.*\) — these ask for approval here: ss -p/,
    );
    const store = await openStore({ kind: "pglite", dataDir: join(dir, "pg") });
    try {
      const entity = await findEntity(store.db, "host:good");
      assert.equal(entity?.attributes.jail, "available");
      assert.equal(entity?.attributes["jail.engine"], "unshare");
      assert.match(
        String((entity?.attributes["jail.grants_unavailable"] as Record<string, string>)?.process_info),
        /CAP_SYS_PTRACE/,
      );
    } finally {
      await store.close();
    }
  });

  test("a host that cannot jail: said, with the operator's choice (--json)", async () => {
    const checked = await runCli(["check", "host:nojail", "--json"], { env });
    assert.equal(checked.code, 0, checked.stderr);
    const report = JSON.parse(checked.stdout) as { jail: { state: string; reason: string }; grants: [] };
    assert.equal(report.jail.state, "cannot");
    assert.match(
      report.jail.reason,
      /user namespaces are switched off here \(user\.max_user_namespaces = 0\)/,
    );
    assert.deepEqual(report.grants, [], "no grant is tried where the jail cannot start");
    assert.match(
      checkReport(report as unknown as TargetCheck),
      /read-only jail: cannot run here \(user namespaces .*\) — .*oikos routing host:nojail jail\.unjailed_read_only=allowed/,
    );
  });
});

test("an unreachable target: the transport's words and the next step", () => {
  const report = checkReport({
    slug: "host:gone",
    route: "ssh root@192.0.2.7:22",
    reachable: false,
    unreachableReason: "it did not answer in time",
    bash: false,
    jail: { state: "not_checked", reason: "the target was not reached" },
    grants: [],
  });
  assert.equal(
    report,
    "host:gone (ssh root@192.0.2.7:22)\n  reachable: no — it did not answer in time\n" +
      "  next: make sure ssh root@192.0.2.7:22 answers from this machine (the network, its sshd, the login and key oikos uses), then run `oikos check host:gone` again\n",
  );
});
