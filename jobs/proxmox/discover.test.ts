import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Kysely } from "kysely";
import { upsertEntities } from "../../store/entities.ts";
import type { Database } from "../../store/schema.ts";
import {
  homelabCluster,
  installProxmoxCluster,
  type ProxmoxCluster,
} from "../../test-support/proxmox/proxmox-lab.ts";
import { labAuth } from "../../test-support/sshd/lab-targets.ts";
import { type SshLab, sshLabUnavailable, startSshLab } from "../../test-support/sshd/ssh-lab.ts";
import { createTestStore, type TestStore } from "../../test-support/store.ts";
import { resolveTarget } from "../execution/target-resolver.ts";
import { InMemoryHostKeyStore } from "../ssh/host-key-store.ts";
import { SshPool } from "../ssh/ssh-pool.ts";
import { TransportRouter } from "../ssh/transport-router.ts";
import { discoverProxmox } from "./discover.ts";

const unavailable = await sshLabUnavailable();
const targets = { sshUser: "root" };

describe("Proxmox discovery over SSH", {
  skip: unavailable ? `sshd unavailable: ${unavailable}` : false,
}, () => {
  let lab: SshLab;
  let pool: SshPool;
  let router: TransportRouter;
  let cluster: ProxmoxCluster;
  let store: TestStore;

  before(async () => {
    lab = await startSshLab({ hosts: [{ name: "pve1" }, { name: "pve2" }] });
    cluster = await installProxmoxCluster(lab, { pve1: "pve1", pve2: "pve2" }, homelabCluster());
    pool = new SshPool({ auth: labAuth(lab.host("pve1")), hostKeys: new InMemoryHostKeyStore() });
    router = new TransportRouter({ pool });
    store = await createTestStore();
    // The operator's inventory knows both nodes (under names of its own) and one container by hand.
    await upsertEntities(
      store.db,
      [
        { slug: "host:pve", type: "host", name: "pve", attributes: sshOf(lab, "pve1") },
        {
          slug: "host:pve-b",
          type: "host",
          name: "pve-b",
          attributes: { ...sshOf(lab, "pve2"), "proxmox.node": "pve2", "proxmox.cluster": "homelab" },
        },
      ],
      { by: "import:ssh-config" },
    );
  });
  after(async () => {
    await pool?.close();
    await lab?.stop();
    await cluster?.stop();
    await store?.dispose();
  });

  const discover = () =>
    discoverProxmox({ db: store.db, runner: router, targets }, "host:pve", "import:proxmox");

  test("first run: nodes, cluster, storages, containers and VMs with transports, disks and edges", async () => {
    const outcome = await discover();
    assert.ok(outcome.ok, outcome.ok ? "" : outcome.reason);
    const { result } = outcome;
    assert.equal(result.cluster, "homelab");
    assert.deepEqual(result.entities.failed, []);
    assert.deepEqual(result.relationships.failed, []);
    assert.deepEqual(result.entities.created.sort(), [
      "cluster:homelab",
      "lxc:gitea",
      "lxc:scratch",
      "lxc:wiki",
      "storage:nfs",
      "storage:pve1/local",
      "storage:pve1/local-lvm",
      "storage:pve1/local-zfs",
      "storage:pve2/local",
      "storage:pve2/local-lvm",
      "storage:pve2/local-zfs",
      "vm:router",
      "vm:win11",
    ]);
    assert.deepEqual(result.entities.updated.sort(), ["host:pve", "host:pve-b"]);
    const gitea = await entity(store.db, "lxc:gitea");
    assert.equal(gitea.transport, "pct-exec");
    assert.equal(gitea.parent_slug, "host:pve");
    assert.equal(gitea.state, "active");
    assert.equal(gitea.attributes["proxmox.vmid"], 101);
    assert.deepEqual(gitea.attributes["proxmox.tags"], ["git", "prod"]);
    assert.deepEqual(gitea.attributes["proxmox.disks"], [
      { key: "rootfs", storage: "local-zfs", storage_type: "zfspool", format: "subvol" },
    ]);
    const win = await entity(store.db, "vm:win11");
    assert.equal(win.transport, "qm-guest-exec");
    assert.equal(win.parent_slug, "host:pve-b");
    assert.deepEqual(win.attributes["proxmox.disks"], [
      { key: "scsi0", storage: "nfs", storage_type: "nfs", format: "qcow2" },
    ]);
    assert.equal((await entity(store.db, "lxc:wiki")).state, "stopped");
    const edges = await store.db
      .selectFrom("relationships")
      .select(["source_slug", "type", "target_slug"])
      .execute();
    const has = (s: string, t: string, d: string) =>
      edges.some((e) => e.source_slug === s && e.type === t && e.target_slug === d);
    assert.ok(has("lxc:gitea", "runs-on", "host:pve"));
    assert.ok(has("lxc:gitea", "stored-on", "storage:pve1/local-zfs"));
    assert.ok(has("vm:win11", "stored-on", "storage:nfs"));
    assert.ok(has("host:pve-b", "member-of", "cluster:homelab"));
    // the guests are runnable through their node
    const routed = await resolveTarget(store.db, "vm:win11", targets);
    assert.ok(routed.ok && routed.target.via?.slug === "host:pve-b" && routed.target.vmid === 200);
  });

  test("a second run changes nothing and says so", async () => {
    const outcome = await discover();
    assert.ok(outcome.ok);
    assert.deepEqual(outcome.result.entities.created, []);
    assert.deepEqual(outcome.result.entities.updated, []);
    assert.equal(outcome.result.entities.unchanged.length, 15);
    assert.deepEqual(outcome.result.relationships.created, []);
    assert.deepEqual(outcome.result.destroyed, []);
    assert.deepEqual(outcome.result.moved, []);
  });

  test("a destroyed guest is kept, marked destroyed with when, and is never runnable", async () => {
    await cluster.update((state) => {
      delete state.guests["102"];
    });
    const outcome = await discover();
    assert.ok(outcome.ok);
    assert.deepEqual(outcome.result.destroyed, ["lxc:wiki"]);
    assert.deepEqual(outcome.result.entities.updated, ["lxc:wiki"]);
    const wiki = await entity(store.db, "lxc:wiki");
    assert.equal(wiki.state, "destroyed");
    assert.match(String(wiki.attributes["proxmox.destroyed_at"]), /^\d{4}-\d\d-\d\dT/);
    const resolved = await resolveTarget(store.db, "lxc:wiki", targets);
    assert.equal(resolved.ok, false);
    const again = await discover();
    assert.ok(again.ok);
    assert.deepEqual(again.result.destroyed, []);
    assert.deepEqual(again.result.entities.updated, []);
  });

  test("a guest that moved nodes is re-routed through its new node, and the change is audited", async () => {
    await cluster.update((state) => {
      state.guests["101"]!.node = "pve2";
    });
    const outcome = await discover();
    assert.ok(outcome.ok);
    assert.deepEqual(outcome.result.moved, [
      { slug: "lxc:gitea", from: "host:pve", to: "host:pve-b", node: "pve2" },
    ]);
    assert.ok(outcome.result.entities.updated.includes("lxc:gitea"));
    assert.deepEqual(outcome.result.relationships.removed, ["lxc:gitea runs-on host:pve"]);
    const gitea = await entity(store.db, "lxc:gitea");
    assert.equal(gitea.parent_slug, "host:pve-b");
    assert.equal(gitea.attributes["proxmox.node"], "pve2");
    const audit = await store.db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "routing_changed")
      .where("subject", "=", "lxc:gitea")
      .execute();
    assert.equal(audit.length, 1);
    assert.equal(audit[0]!.actor, "import:proxmox");
    const details = audit[0]!.details as {
      before: { parent: string };
      after: { parent: string; attributes: Record<string, unknown> };
    };
    assert.equal(details.before.parent, "host:pve");
    assert.equal(details.after.parent, "host:pve-b");
    assert.equal(details.after.attributes["proxmox.node"], "pve2");
    // and it really runs there now: pct on pve2 knows it, pct on pve1 would not
    const resolved = await resolveTarget(store.db, "lxc:gitea", targets);
    assert.ok(resolved.ok);
    const ran = await router.exec(resolved.target, "echo inside");
    assert.equal(ran.stdout, "inside\n");
    const calls = await cluster.calls();
    assert.equal(calls.filter((c) => c.tool === "pct" && c.args[0] === "exec").at(-1)?.node, "pve2");
  });

  test("a guest the operator reaches over SSH by its name keeps that name when Proxmox renames it", async () => {
    // The inventory reaches the router VM over SSH with no ssh.host: its name is where commands go.
    await upsertEntities(
      store.db,
      [{ slug: "vm:router", type: "vm", name: "router", transport: "ssh", attributes: {} }],
      { by: "import:ansible" },
    );
    const before = await resolveTarget(store.db, "vm:router", targets);
    assert.ok(before.ok && before.target.ssh?.host === "router");
    await cluster.update((state) => {
      state.guests["201"]!.name = "edge";
    });
    const outcome = await discover();
    assert.ok(outcome.ok);
    const router = await entity(store.db, "vm:router");
    assert.equal(router.name, "router");
    assert.equal(router.transport, "ssh");
    const after = await resolveTarget(store.db, "vm:router", targets);
    assert.ok(after.ok && after.target.ssh?.host === "router", "the route did not move");
  });

  test("a node that cannot be read writes nothing", async () => {
    await lab.writeTool(
      "pve1",
      "pvesh",
      "#!/bin/sh\necho 'ipcc_send_rec[1] failed: Connection refused' >&2\nexit 255\n",
    );
    const before = await store.db.selectFrom("entities").select(["slug", "state"]).orderBy("slug").execute();
    const outcome = await discover();
    assert.equal(outcome.ok, false);
    assert.match(outcome.ok ? "" : outcome.reason, /Connection refused/);
    assert.deepEqual(
      await store.db.selectFrom("entities").select(["slug", "state"]).orderBy("slug").execute(),
      before,
    );
  });
});

function sshOf(lab: SshLab, name: string) {
  const host = lab.host(name);
  return { "ssh.host": host.host, "ssh.port": host.port, "ssh.user": host.username };
}

async function entity(db: Kysely<Database>, slug: string) {
  return db.selectFrom("entities").selectAll().where("slug", "=", slug).executeTakeFirstOrThrow();
}
