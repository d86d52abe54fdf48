/**
 * `proxmox_discovery_ms`: one `oikos import proxmox` of a two-node lab cluster with 50 guests (the fake
 * PVE of test-support/proxmox on loopback sshd nodes), into a fresh database: from the first read to
 * the graph written. Median of a few runs, each on a fresh database (the first discovery is the one
 * that writes every guest).
 */

import { discoverProxmox } from "../../../jobs/proxmox/discover.ts";
import { InMemoryHostKeyStore } from "../../../jobs/ssh/host-key-store.ts";
import { SshPool } from "../../../jobs/ssh/ssh-pool.ts";
import { TransportRouter } from "../../../jobs/ssh/transport-router.ts";
import { upsertEntities } from "../../../store/entities.ts";
import { median } from "../../median.ts";
import { installProxmoxCluster, manyGuestsCluster } from "../../proxmox/proxmox-lab.ts";
import { labAuth } from "../../sshd/lab-targets.ts";
import { sshLabUnavailable, startSshLab } from "../../sshd/ssh-lab.ts";
import { createTestStore } from "../../store.ts";

const GUESTS = 50;
const RUNS = 3;
const log = (line: string) => process.stderr.write(`  ${line}\n`);

export default async function proxmoxDiscoveryBench(): Promise<Record<string, number>> {
  const unavailable = await sshLabUnavailable();
  if (unavailable !== null) {
    log(`skipped: sshd unavailable: ${unavailable}`);
    return {};
  }
  const lab = await startSshLab({ hosts: [{ name: "pve1" }, { name: "pve2" }] });
  const cluster = await installProxmoxCluster(lab, { pve1: "pve1", pve2: "pve2" }, manyGuestsCluster(GUESTS));
  const pool = new SshPool({ auth: labAuth(lab.host("pve1")), hostKeys: new InMemoryHostKeyStore() });
  const router = new TransportRouter({ pool });
  try {
    const times: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const store = await createTestStore();
      try {
        await upsertEntities(
          store.db,
          ["pve1", "pve2"].map((name) => ({
            slug: `host:${name}`,
            type: "host",
            name,
            attributes: {
              "ssh.host": lab.host(name).host,
              "ssh.port": lab.host(name).port,
              "ssh.user": lab.host(name).username,
            },
          })),
          { by: "bench" },
        );
        const started = performance.now();
        const outcome = await discoverProxmox(
          { db: store.db, runner: router, targets: { sshUser: "root" } },
          "host:pve1",
          "bench",
        );
        const elapsed = performance.now() - started;
        if (!outcome.ok) throw new Error(`discovery failed: ${outcome.reason}`);
        const guests = outcome.result.entities.created.filter((slug) => /^(lxc|vm):/.test(slug)).length;
        if (guests !== GUESTS) throw new Error(`discovery wrote ${guests} guests, expected ${GUESTS}`);
        times.push(elapsed);
        log(`run ${run + 1}: ${Math.round(elapsed)} ms`);
      } finally {
        await store.dispose();
      }
    }
    const calls = await cluster.calls();
    log(`toolbox calls over ${RUNS} runs: ${calls.length}`);
    return { proxmox_discovery_ms: Math.round(median(times)) };
  } finally {
    await pool.close();
    await lab.stop();
    await cluster.stop();
  }
}

/** Measured on the deployment DATABASE_URL / REDIS_URL select (scripts/bench.ts names it with each figure). */
export const usesStore = true;
