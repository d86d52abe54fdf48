/**
 * `uptime` on 100 loopback hosts at once (one real sshd each, as a fleet has one per machine):
 * through the SSH pool cold (a fresh pool, 100 new connections) and warm (the same 100 reused),
 * in a process of its own whose peak RSS is `fanout100_rss_mb`; next to `parallel-ssh -p 100` in the
 * same run (Debian `pssh`; left out with a note when it is not installed). Medians of a few runs.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { median } from "../../median.ts";
import { sshLabUnavailable, startSshLab } from "../../sshd/ssh-lab.ts";
import { firstInstalled, measurePssh } from "./fanout-baselines.ts";
import type { PoolFanOutReport } from "./pool-fanout-process.ts";

const execFileAsync = promisify(execFile);
const HOSTS = 100;
const COLD_RUNS = 5;
const WARM_RUNS = 7;
const PSSH_RUNS = 3;
const POOL_PROCESS = fileURLToPath(new URL("./pool-fanout-process.ts", import.meta.url));

const log = (line: string) => process.stderr.write(`  ${line}\n`);

export default async function fanout100Bench(): Promise<Record<string, number>> {
  const unavailable = await sshLabUnavailable();
  if (unavailable !== null) {
    log(`skipped: sshd unavailable: ${unavailable}`);
    return {};
  }
  const lab = await startSshLab({
    hosts: Array.from({ length: HOSTS }, (_, index) => ({ name: `fleet${index}` })),
  });
  const work = await mkdtemp(join(tmpdir(), "oikos-fanout100-"));
  try {
    const figures: Record<string, number> = {};
    const input = join(work, "pool-input.json");
    // the lab's client key travels in this file: readable by this user only, deleted with `work`
    await writeFile(input, JSON.stringify({ hosts: lab.hosts, cold: COLD_RUNS, warm: WARM_RUNS }), {
      mode: 0o600,
    });
    const { stdout } = await execFileAsync(process.execPath, [POOL_PROCESS, input], {
      maxBuffer: 1 << 20,
    });
    const report = JSON.parse(stdout) as PoolFanOutReport;
    log(`pool cold runs ms: ${report.cold.map(Math.round).join(", ")}`);
    log(`pool warm runs ms: ${report.warm.map(Math.round).join(", ")}`);
    log(
      `pool process RSS: ${Math.round(report.rssStartMb)} MB after start-up, ${Math.round(report.rssPeakMb)} MB peak`,
    );
    figures.fanout100_cold_ms = median(report.cold);
    figures.fanout100_warm_ms = median(report.warm);
    figures.fanout100_rss_mb = report.rssPeakMb;

    const pssh = await firstInstalled(["/usr/bin/parallel-ssh", "/usr/bin/pssh"]);
    if (pssh === null) log("parallel-ssh not installed: no pssh baseline (apt-get install pssh)");
    else {
      figures.fanout100_pssh_ms = await measurePssh(pssh, lab.hosts, work, PSSH_RUNS);
      const base = figures.fanout100_pssh_ms;
      log(
        `cold/pssh = ${(figures.fanout100_cold_ms / base).toFixed(3)}   warm/pssh = ${(figures.fanout100_warm_ms / base).toFixed(3)}`,
      );
    }
    return figures;
  } finally {
    await rm(work, { recursive: true, force: true });
    await lab.stop();
  }
}
