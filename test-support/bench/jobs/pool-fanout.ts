import { InMemoryHostKeyStore } from "../../../jobs/ssh/host-key-store.ts";
import { SshPool } from "../../../jobs/ssh/ssh-pool.ts";
import { TransportRouter } from "../../../jobs/ssh/transport-router.ts";
import { labAuth, labSshTarget } from "../../sshd/lab-targets.ts";
import type { LabHost } from "../../sshd/ssh-lab.ts";

export interface PoolFanOutRuns {
  /** Wall time of each fan-out on a fresh pool (every connection new). */
  cold: number[];
  /** Wall time of each fan-out on the pool the cold runs left connected. */
  warm: number[];
}

/**
 * `uptime` on every host at once through the SSH pool and router, the way the execute worker runs
 * them: `coldRuns` times on a fresh pool, then `warmRuns` times on the last one. Throws when a host
 * does not answer or a warm run had to open a connection (then it was not warm).
 */
export async function measurePoolFanOut(
  hosts: readonly LabHost[],
  runs: { cold: number; warm: number },
): Promise<PoolFanOutRuns> {
  const targets = hosts.map((host) => labSshTarget(host));
  const fanOut = async (router: TransportRouter): Promise<number> => {
    const started = performance.now();
    const results = await Promise.all(
      targets.map((target) => router.exec(target, "uptime", { timeoutMs: 60_000 })),
    );
    const elapsed = performance.now() - started;
    const failed = results.filter(
      (result) => result.exitCode !== 0 || !result.stdout.includes("load average"),
    );
    if (failed.length > 0)
      throw new Error(`${failed.length} hosts did not answer uptime: ${failed[0]?.stderr}`);
    return elapsed;
  };
  const newPool = () => new SshPool({ auth: labAuth(hosts[0]!), hostKeys: new InMemoryHostKeyStore() });

  const cold: number[] = [];
  let pool = newPool();
  for (let run = 0; run < runs.cold; run++) {
    if (run > 0) {
      await pool.close();
      pool = newPool();
    }
    cold.push(await fanOut(new TransportRouter({ pool })));
    const stats = pool.stats();
    if (stats.connectionsOpened !== hosts.length)
      throw new Error(`cold run opened ${stats.connectionsOpened} connections for ${hosts.length} hosts`);
  }
  const warm: number[] = [];
  try {
    for (let run = 0; run < runs.warm; run++) warm.push(await fanOut(new TransportRouter({ pool })));
    const opened = pool.stats().connectionsOpened;
    if (opened !== hosts.length)
      throw new Error(
        `warm runs opened ${opened - hosts.length} new connections: the pool did not keep them`,
      );
  } finally {
    await pool.close();
  }
  return { cold, warm };
}
