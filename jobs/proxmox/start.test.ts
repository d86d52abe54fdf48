import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { PVE_TARGETS, type PveStack, startPveStack } from "../../test-support/jobs/proxmox/pve-stack.ts";
import { sshLabUnavailable } from "../../test-support/sshd/ssh-lab.ts";
import { startProxmoxJobs } from "./start.ts";

const unavailable = await sshLabUnavailable();
const quiet = { info() {}, warn() {} };

describe("periodic Proxmox discovery", {
  skip: unavailable ? `sshd unavailable: ${unavailable}` : false,
}, () => {
  let pve: PveStack;
  before(async () => {
    pve = await startPveStack({ mode: "destructive" });
  });
  after(() => pve?.stop());

  test("off by default; with nodes configured each fire discovers through its node", async () => {
    const deps = {
      db: pve.store.db,
      queue: pve.queue,
      runner: pve.router,
      targets: PVE_TARGETS,
      logger: quiet,
    };
    await startProxmoxJobs(deps, {
      discoveryNodes: [],
      discoveryEveryMs: 3_600_000,
      snapshotRetentionDays: 14,
    });
    assert.equal(
      (await pve.queue.listRepeats()).filter((r) => r.key.startsWith("proxmox-discovery")).length,
      0,
    );

    await startProxmoxJobs(deps, {
      discoveryNodes: ["host:pve1"],
      discoveryEveryMs: 3_600_000,
      snapshotRetentionDays: 14,
    });
    const repeats = (await pve.queue.listRepeats()).filter((r) => r.key.startsWith("proxmox-discovery"));
    assert.deepEqual(
      repeats.map((r) => r.key),
      ["proxmox-discovery:host:pve1"],
    );

    await pve.cluster.update((state) => {
      delete state.guests["103"];
    });
    await pve.queue.enqueue("proxmox-discovery", { node: "host:pve1" });
    for (;;) {
      const row = await pve.store.db
        .selectFrom("entities")
        .select("state")
        .where("slug", "=", "lxc:scratch")
        .executeTakeFirstOrThrow();
      if (row.state === "destroyed") break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const audit = await pve.store.db
      .selectFrom("audit_log")
      .select("actor")
      .where("action", "=", "entities.destroyed")
      .execute();
    assert.deepEqual(
      audit.map((a) => a.actor),
      ["discovery:proxmox"],
    );
  });
});
