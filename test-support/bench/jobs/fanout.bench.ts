/**
 * `uptime` on 20 loopback sshd hosts at once: through the SSH pool cold (fresh connections) and
 * warm (pooled connections reused), next to the same work by `ansible -f 20 -m shell` and
 * `parallel-ssh -p 20`, measured in the same run when those are installed. Medians of a few runs.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median } from "../../median.ts";
import { sshLabUnavailable, startSshLab } from "../../sshd/ssh-lab.ts";
import { firstInstalled, measureAnsible, measurePssh } from "./fanout-baselines.ts";
import { measurePoolFanOut } from "./pool-fanout.ts";

const HOSTS = 20;
const COLD_RUNS = 5;
const WARM_RUNS = 7;
const PSSH_RUNS = 3;
const ANSIBLE_RUNS = 1; // ~10-20 s each

const log = (line: string) => process.stderr.write(`  ${line}\n`);

export default async function fanoutBench(): Promise<Record<string, number>> {
  const unavailable = await sshLabUnavailable();
  if (unavailable !== null) {
    log(`skipped: sshd unavailable: ${unavailable}`);
    return {};
  }
  const lab = await startSshLab({
    hosts: Array.from({ length: HOSTS }, (_, index) => ({ name: `fan${index}` })),
  });
  const work = await mkdtemp(join(tmpdir(), "oikos-fanout-"));
  try {
    const figures: Record<string, number> = {};
    const runs = await measurePoolFanOut(lab.hosts, { cold: COLD_RUNS, warm: WARM_RUNS });
    log(`pool cold runs ms: ${runs.cold.map(Math.round).join(", ")}`);
    log(`pool warm runs ms: ${runs.warm.map(Math.round).join(", ")}`);
    const cold = median(runs.cold);
    const warm = median(runs.warm);
    figures.fanout20_cold_ms = cold;
    figures.fanout20_warm_ms = warm;

    const pssh = await firstInstalled(["/usr/bin/parallel-ssh", "/usr/bin/pssh"]);
    if (pssh === null) log("parallel-ssh not installed: no pssh baseline (apt-get install pssh)");
    else figures.fanout20_pssh_ms = await measurePssh(pssh, lab.hosts, work, PSSH_RUNS);

    const ansible = await firstInstalled(["/usr/bin/ansible"]);
    if (ansible === null) log("ansible not installed: no ansible baseline (apt-get install ansible)");
    else figures.fanout20_ansible_ms = await measureAnsible(ansible, lab.hosts, work, ANSIBLE_RUNS);

    for (const baseline of ["ansible", "pssh"] as const) {
      const base = figures[`fanout20_${baseline}_ms`];
      if (base === undefined) continue;
      log(`cold/${baseline} = ${(cold / base).toFixed(3)}   warm/${baseline} = ${(warm / base).toFixed(3)}`);
    }
    return figures;
  } finally {
    await rm(work, { recursive: true, force: true });
    await lab.stop();
  }
}
