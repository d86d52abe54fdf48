/**
 * The read-only jail's cost: the same read-only command (`uptime`) on a warm pooled connection,
 * jailed and unjailed in alternation, and the median of the pairwise differences. Over ssh as the
 * lab user, and on this machine as root through the local transport (root's jail also writes the
 * identity id maps from outside, the slower path).
 */

import { InMemoryHostKeyStore } from "../../../jobs/ssh/host-key-store.ts";
import { JAIL_ENGINES } from "../../../jobs/ssh/jail-script.ts";
import { SshPool } from "../../../jobs/ssh/ssh-pool.ts";
import type { Target } from "../../../jobs/ssh/target.ts";
import { TransportRouter } from "../../../jobs/ssh/transport-router.ts";
import { median } from "../../median.ts";
import { labAuth, labSshTarget } from "../../sshd/lab-targets.ts";
import { sshLabUnavailable, startSshLab } from "../../sshd/ssh-lab.ts";

const PAIRS = 25;
const WARMUP = 3;
const log = (line: string) => process.stderr.write(`  ${line}\n`);

export default async function jailBench(): Promise<Record<string, number>> {
  const unavailable = await sshLabUnavailable();
  if (unavailable !== null) {
    log(`skipped: sshd unavailable: ${unavailable}`);
    return {};
  }
  const lab = await startSshLab({ hosts: [{ name: "jailbench" }] });
  const pool = new SshPool({ auth: labAuth(lab.host("jailbench")), hostKeys: new InMemoryHostKeyStore() });
  try {
    const router = new TransportRouter({ pool });
    const figures: Record<string, number> = {};
    const ssh = await overhead(router, labSshTarget(lab.host("jailbench")));
    figures.jail_overhead_ms_p50 = ssh.overhead;
    // per engine (JAIL_ENGINES): only the util-linux one ships, and it is the default
    for (const engine of JAIL_ENGINES) figures[`jail_overhead_ms_p50_${engine}`] = ssh.overhead;
    figures.unjailed_run_ms_p50 = ssh.unjailed;
    if (process.getuid?.() === 0) {
      figures.jail_overhead_root_local_ms_p50 = (
        await overhead(router, { slug: "local", transport: "local" })
      ).overhead;
    }
    return figures;
  } finally {
    await pool.close();
    await lab.stop();
  }
}

async function overhead(
  router: TransportRouter,
  target: Target,
): Promise<{ overhead: number; unjailed: number }> {
  const once = async (jail: boolean): Promise<number> => {
    const started = performance.now();
    const result = await router.exec(target, "uptime", { jail, timeoutMs: 30_000 });
    const elapsed = performance.now() - started;
    if (result.exitCode !== 0) throw new Error(`uptime failed (jail ${jail}): ${result.stderr}`);
    if (jail && result.jail?.state !== "jailed") throw new Error(`the jail did not hold: ${result.stderr}`);
    return elapsed;
  };
  for (let i = 0; i < WARMUP; i++) {
    await once(false);
    await once(true);
  }
  const differences: number[] = [];
  const plain: number[] = [];
  for (let i = 0; i < PAIRS; i++) {
    // alternate which goes first, so a slow moment of the machine falls on both sides alike
    const jailedFirst = i % 2 === 0;
    const a = await once(jailedFirst);
    const b = await once(!jailedFirst);
    const [jailed, unjailed] = jailedFirst ? [a, b] : [b, a];
    differences.push(jailed - unjailed);
    plain.push(unjailed);
  }
  return { overhead: median(differences), unjailed: median(plain) };
}
