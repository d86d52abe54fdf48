import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { seedEmbeddedDataDir } from "../../test-support/embedded-data-dir.ts";
import {
  homelabCluster,
  installProxmoxCluster,
  type ProxmoxCluster,
} from "../../test-support/proxmox/proxmox-lab.ts";
import { runCli } from "../../test-support/run-cli.ts";
import { type SshLab, sshLabUnavailable, startSshLab } from "../../test-support/sshd/ssh-lab.ts";

const unavailable = await sshLabUnavailable();

describe("oikos import proxmox", { skip: unavailable ? `sshd unavailable: ${unavailable}` : false }, () => {
  let lab: SshLab;
  let cluster: ProxmoxCluster;
  let dir: string;
  before(async () => {
    lab = await startSshLab({ hosts: [{ name: "pve1" }] });
    const state = homelabCluster();
    delete state.cluster; // a standalone node
    state.nodes = { pve1: {} };
    state.guests = Object.fromEntries(Object.entries(state.guests).filter(([, g]) => g.node === "pve1"));
    cluster = await installProxmoxCluster(lab, { pve1: "pve1" }, state);
    dir = await mkdtemp(join(tmpdir(), "oikos-import-pve-"));
    await seedEmbeddedDataDir(dir);
  });
  after(async () => {
    await lab?.stop();
    await cluster?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test("discovers through the node's SSH transport, then reports everything unchanged", {
    timeout: 120_000,
  }, async () => {
    const host = lab.host("pve1");
    const env = {
      ...process.env,
      OIKOS_DATA_DIR: dir,
      DATABASE_URL: "",
      REDIS_URL: "",
      OIKOS_LOG_LEVEL: "warn",
      OIKOS_SSH_KEY: host.privateKeyPath,
    };
    const sshConfig = join(dir, "ssh_config");
    await writeFile(
      sshConfig,
      `Host pve\n  HostName ${host.host}\n  Port ${host.port}\n  User ${host.username}\n`,
    );
    const imported = await runCli(["import", "ssh-config", sshConfig], { env });
    assert.equal(imported.code, 0, imported.stderr);

    const first = await runCli(["import", "proxmox", "host:pve"], { env });
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /Discovered Proxmox pve1 through host:pve/);
    assert.match(first.stdout, /created: .*lxc:gitea/);
    const second = await runCli(["import", "proxmox", "host:pve", "--json"], { env });
    assert.equal(second.code, 0, second.stderr);
    const report = JSON.parse(second.stdout) as { entities: { created: string[]; updated: string[] } };
    assert.deepEqual([report.entities.created, report.entities.updated], [[], []]);

    const unknown = await runCli(["import", "proxmox", "host:nope"], { env });
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /there is no entity host:nope/);
  });
});
