import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Kysely } from "kysely";
import { upsertEntities } from "../../store/entities.ts";
import type { Database } from "../../store/schema.ts";
import {
  installProxmoxCluster,
  type ProxmoxCluster,
  standaloneHomelab,
} from "../../test-support/proxmox/proxmox-lab.ts";
import { labAuth } from "../../test-support/sshd/lab-targets.ts";
import { type SshLab, sshLabUnavailable, startSshLab } from "../../test-support/sshd/ssh-lab.ts";
import { createTestStore, type TestStore } from "../../test-support/store.ts";
import { routingChangedReason, routingStamp } from "../execution/routing-stamp.ts";
import { resolveTarget } from "../execution/target-resolver.ts";
import { createQueue } from "../queue/create.ts";
import type { QueuePort } from "../queue/port.ts";
import { InMemoryHostKeyStore } from "../ssh/host-key-store.ts";
import { SshPool } from "../ssh/ssh-pool.ts";
import { TransportRouter } from "../ssh/transport-router.ts";
import { discoverProxmox } from "./discover.ts";
import { startProxmoxJobs } from "./start.ts";

const unavailable = await sshLabUnavailable();
const targets = { sshUser: "root" };
const quiet = { info() {}, warn() {} };

/**
 * A homelab that starts with one standalone node and grows a second: `pvecm create` on pve1 and
 * `pvecm add pve1` on pve2 (run over SSH on the fake PVE nodes), while in the same interval a
 * container is renamed (`pct set --hostname`) and one is destroyed (`pct destroy`). The periodic
 * discovery must see one cluster, the same guests, one renamed entity and one destroyed one.
 */
describe("a standalone Proxmox node that becomes a cluster", {
  skip: unavailable ? `sshd unavailable: ${unavailable}` : false,
}, () => {
  let lab: SshLab;
  let pool: SshPool;
  let router: TransportRouter;
  let cluster: ProxmoxCluster;
  let store: TestStore;
  let queue: QueuePort;

  before(async () => {
    lab = await startSshLab({ hosts: [{ name: "pve1" }, { name: "pve2" }] });
    cluster = await installProxmoxCluster(lab, { pve1: "pve1", pve2: "pve2" }, standaloneHomelab());
    pool = new SshPool({ auth: labAuth(lab.host("pve1")), hostKeys: new InMemoryHostKeyStore() });
    router = new TransportRouter({ pool });
    store = await createTestStore();
    queue = await createQueue({});
    const host = lab.host("pve1");
    await upsertEntities(
      store.db,
      [
        {
          slug: "host:pve",
          type: "host",
          name: "pve",
          attributes: { "ssh.host": host.host, "ssh.port": host.port, "ssh.user": host.username },
        },
      ],
      { by: "import:ssh-config" },
    );
  });
  after(async () => {
    await queue?.close();
    await pool?.close();
    await lab?.stop();
    await cluster?.stop();
    await store?.dispose();
  });

  const onNode = async (name: "pve1" | "pve2", command: string) => {
    const host = lab.host(name);
    const result = await router.exec(
      {
        slug: `host:${name}`,
        transport: "ssh",
        ssh: { host: host.host, port: host.port, username: host.username },
      },
      command,
    );
    assert.equal(result.exitCode, 0, `${command} on ${name}: ${result.stderr}`);
    return result;
  };

  test("standalone: the node's own name keys its guests; no cluster entity", async () => {
    const outcome = await discoverProxmox(
      { db: store.db, runner: router, targets },
      "host:pve",
      "import:proxmox",
    );
    assert.ok(outcome.ok, outcome.ok ? "" : outcome.reason);
    assert.equal(outcome.result.cluster, "pve1");
    assert.ok(!outcome.result.entities.created.some((slug) => slug.startsWith("cluster:")));
    assert.ok(!outcome.result.entities.created.includes("host:pve2"), "a standalone node sees only itself");
    const pihole = await entity(store.db, "lxc:pihole");
    assert.equal(pihole.attributes["proxmox.cluster"], "pve1");
    assert.equal((await entity(store.db, "host:pve")).attributes["proxmox.standalone"], true);
    // the Alpine container is probed (busybox ash, no bash); Debian is told by its ostype; the Windows
    // VM by its ostype; the Linux VM waits for its first contact
    assert.deepEqual(outcome.result.probed, [{ slug: "lxc:dns", shell: "ash" }]);
    const shellOf = async (slug: string) => {
      const { attributes } = await entity(store.db, slug);
      return [
        attributes["guest.shell"] ?? null,
        attributes["guest.shell_source"] ?? null,
        attributes["guest.os"],
      ];
    };
    assert.deepEqual(await shellOf("lxc:dns"), ["ash", "probe", "linux"]);
    assert.deepEqual(await shellOf("lxc:gitea"), ["bash", "ostype", "linux"]);
    assert.deepEqual(await shellOf("vm:win11"), ["cmd", "ostype", "windows"]);
    assert.deepEqual(await shellOf("vm:router"), [null, null, "linux"]);
  });

  test("pvecm create + add while a guest is renamed and one removed: periodic discovery keeps one guest per vmid", async () => {
    // an execution approved for pihole before anything changed
    const before = await resolveTarget(store.db, "lxc:pihole", targets);
    assert.ok(before.ok);
    const approvedFor = routingStamp(before.target);

    await onNode("pve1", "pvecm create homelab");
    await onNode("pve2", "pvecm add pve1");
    await onNode("pve1", "pct set 102 --hostname adguard");
    await onNode("pve1", "pct destroy 103");

    // the job reports once it has written everything (the graph, the edges, the probes); wait for that
    // report, not for the first rows, which land before the edges
    let reported: (report: string) => void = () => {};
    const finished = new Promise<string>((resolve) => {
      reported = resolve;
    });
    const reporting = {
      info(fields: object) {
        if ("created" in fields && "probed" in fields) reported("changed");
      },
      warn(fields: unknown) {
        reported(`failed: ${JSON.stringify(fields)}`);
      },
    };
    await startProxmoxJobs(
      { db: store.db, queue, runner: router, targets, logger: reporting },
      { discoveryNodes: ["host:pve"], discoveryEveryMs: 3_600_000, snapshotRetentionDays: 14 },
    );
    await queue.start();
    await queue.enqueue("proxmox-discovery", { node: "host:pve" });
    assert.equal(await finished, "changed");

    // one runnable entity per vmid, all keyed by the cluster now
    const guests = await store.db
      .selectFrom("entities")
      .selectAll()
      .where("type", "in", ["lxc", "vm"])
      .execute();
    const runnable = guests.filter((g) => g.state !== "destroyed");
    const vmids = runnable.map((g) => Number(g.attributes["proxmox.vmid"])).sort();
    assert.deepEqual(vmids, [101, 102, 104, 200, 201]);
    assert.ok(runnable.every((g) => g.attributes["proxmox.cluster"] === "homelab"));
    assert.ok(!guests.some((g) => g.slug === "lxc:adguard"), "the renamed guest is not a second entity");

    // renamed: the same entity, its name follows Proxmox, audited as a routing change
    const renamed = await entity(store.db, "lxc:pihole");
    assert.equal(renamed.name, "adguard");
    assert.equal(renamed.attributes["proxmox.name"], "adguard");
    assert.equal(renamed.state, "active");
    const routingAudit = await store.db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "routing_changed")
      .where("subject", "=", "lxc:pihole")
      .execute();
    assert.equal(routingAudit.length, 1);
    const details = routingAudit[0]!.details as {
      before: { attributes: Record<string, unknown> };
      after: { attributes: Record<string, unknown> };
    };
    assert.equal(details.before.attributes["proxmox.name"], "pihole");
    assert.equal(details.after.attributes["proxmox.name"], "adguard");
    // what was approved for pihole does not run on adguard without a new approval
    const now = await resolveTarget(store.db, "lxc:pihole", targets);
    assert.ok(now.ok);
    assert.match(routingChangedReason(approvedFor, now.target) ?? "", /routing_changed.*pihole.*adguard/);

    // removed: kept, marked destroyed, never runnable
    const scratch = await entity(store.db, "lxc:scratch");
    assert.equal(scratch.state, "destroyed");
    assert.equal((await resolveTarget(store.db, "lxc:scratch", targets)).ok, false);

    // the membership: pve1 carried over from standalone, pve2 a member, both in the cluster
    const joined = await store.db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "proxmox.cluster_joined")
      .execute();
    assert.equal(joined.length, 1);
    assert.deepEqual((joined[0]!.details as { from: string; to: string }).from, "pve1");
    assert.equal((await entity(store.db, "host:pve")).attributes["proxmox.standalone"], false);
    const edges = await store.db
      .selectFrom("relationships")
      .select(["source_slug", "type", "target_slug"])
      .execute();
    for (const node of ["host:pve", "host:pve2"])
      assert.ok(
        edges.some(
          (e) => e.source_slug === node && e.type === "member-of" && e.target_slug === "cluster:homelab",
        ),
      );

    // and a second pass changes nothing
    const again = await discoverProxmox(
      { db: store.db, runner: router, targets },
      "host:pve",
      "import:proxmox",
    );
    assert.ok(again.ok, again.ok ? "" : again.reason);
    assert.deepEqual(again.result.renamed, []);
    assert.deepEqual(again.result.joined, []);
    assert.deepEqual(again.result.destroyed, []);
  });
});

async function entity(db: Kysely<Database>, slug: string) {
  return db.selectFrom("entities").selectAll().where("slug", "=", slug).executeTakeFirstOrThrow();
}
