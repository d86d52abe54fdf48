/**
 * `uptime` on 20 loopback sshd hosts at once: through the SSH pool cold (fresh connections) and
 * warm (pooled connections reused), next to the same work by `ansible -f 20 -m shell` and
 * `parallel-ssh -p 20`, measured in the same run when those are installed. Medians of a few runs.
 */
import { execFile } from "node:child_process";
import { access, constants, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { median } from "../../test-support/median.ts";
import { labAuth, labSshTarget } from "../../test-support/sshd/lab-targets.ts";
import { type LabHost, sshLabUnavailable, startSshLab } from "../../test-support/sshd/ssh-lab.ts";
import { InMemoryHostKeyStore } from "../ssh/host-key-store.ts";
import { SshPool } from "../ssh/ssh-pool.ts";
import { TransportRouter } from "../ssh/transport-router.ts";

const execFileAsync = promisify(execFile);
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
    const { cold, warm } = await measurePool(lab.hosts);
    figures.fanout20_cold_ms = cold;
    figures.fanout20_warm_ms = warm;

    const pssh = await firstInstalled(["/usr/bin/parallel-ssh", "/usr/bin/pssh"]);
    if (pssh === null) log("parallel-ssh not installed: no pssh baseline (apt-get install pssh)");
    else figures.fanout20_pssh_ms = await measurePssh(pssh, lab.hosts, work);

    const ansible = await firstInstalled(["/usr/bin/ansible"]);
    if (ansible === null) log("ansible not installed: no ansible baseline (apt-get install ansible)");
    else figures.fanout20_ansible_ms = await measureAnsible(ansible, lab.hosts, work);

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

async function measurePool(hosts: readonly LabHost[]): Promise<{ cold: number; warm: number }> {
  const targets = hosts.map((host) => labSshTarget(host));
  const fanOut = async (router: TransportRouter): Promise<number> => {
    const started = performance.now();
    const results = await Promise.all(
      targets.map((target) => router.exec(target, "uptime", { timeoutMs: 30_000 })),
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

  const coldRuns: number[] = [];
  let pool = newPool();
  for (let run = 0; run < COLD_RUNS; run++) {
    if (run > 0) {
      await pool.close();
      pool = newPool();
    }
    coldRuns.push(await fanOut(new TransportRouter({ pool })));
    const stats = pool.stats();
    if (stats.connectionsOpened !== hosts.length)
      throw new Error(`cold run opened ${stats.connectionsOpened} connections`);
  }
  const warmRuns: number[] = [];
  try {
    for (let run = 0; run < WARM_RUNS; run++) warmRuns.push(await fanOut(new TransportRouter({ pool })));
    if (pool.stats().connectionsOpened !== hosts.length) throw new Error("warm runs opened new connections");
  } finally {
    await pool.close();
  }
  log(`pool cold runs ms: ${coldRuns.map(Math.round).join(", ")}`);
  log(`pool warm runs ms: ${warmRuns.map(Math.round).join(", ")}`);
  return { cold: median(coldRuns), warm: median(warmRuns) };
}

async function measurePssh(binary: string, hosts: readonly LabHost[], work: string): Promise<number> {
  const hostsFile = join(work, "pssh-hosts");
  await writeFile(hostsFile, hosts.map((host) => `${host.username}@${host.host}:${host.port}\n`).join(""));
  const args = [
    "-p",
    String(hosts.length),
    "-h",
    hostsFile,
    "-x",
    `-i ${hosts[0]!.privateKeyPath} -o LogLevel=ERROR -o BatchMode=yes`,
    "-O",
    "StrictHostKeyChecking=no",
    "-O",
    "UserKnownHostsFile=/dev/null",
    "uptime",
  ];
  const runs: number[] = [];
  for (let run = 0; run < PSSH_RUNS; run++) {
    const started = performance.now();
    const { stdout } = await execFileAsync(binary, args, { maxBuffer: 1 << 20 });
    runs.push(performance.now() - started);
    const ok = stdout.split("\n").filter((line) => line.includes("[SUCCESS]")).length;
    if (ok !== hosts.length)
      throw new Error(`parallel-ssh reached ${ok} of ${hosts.length} hosts:\n${stdout}`);
  }
  log(`parallel-ssh runs ms: ${runs.map(Math.round).join(", ")}`);
  return median(runs);
}

async function measureAnsible(binary: string, hosts: readonly LabHost[], work: string): Promise<number> {
  const inventory = join(work, "inventory.ini");
  const lines = hosts.map(
    (host) =>
      `${host.name} ansible_host=${host.host} ansible_port=${host.port} ansible_user=${host.username} ` +
      `ansible_ssh_private_key_file=${host.privateKeyPath} ansible_python_interpreter=/usr/bin/python3`,
  );
  await writeFile(inventory, `[all]\n${lines.join("\n")}\n`);
  const runs: number[] = [];
  for (let run = 0; run < ANSIBLE_RUNS; run++) {
    // a fresh ControlPath dir per run: no ssh master connections left over from the previous run
    const controlDir = await mkdtemp(join(work, "ansible-cp-"));
    const started = performance.now();
    const { stdout } = await execFileAsync(
      binary,
      ["all", "-i", inventory, "-f", String(hosts.length), "-m", "shell", "-a", "uptime"],
      {
        env: {
          ...process.env,
          ANSIBLE_HOST_KEY_CHECKING: "False",
          ANSIBLE_SSH_CONTROL_PATH_DIR: controlDir,
          // ansible's default ssh_args, plus no known_hosts writes
          ANSIBLE_SSH_ARGS: "-C -o ControlMaster=auto -o ControlPersist=60s -o UserKnownHostsFile=/dev/null",
          ANSIBLE_NOCOLOR: "1",
        },
        maxBuffer: 1 << 22,
      },
    );
    runs.push(performance.now() - started);
    const ok = stdout.split("\n").filter((line) => / \| CHANGED \| rc=0/.test(line)).length;
    if (ok !== hosts.length) throw new Error(`ansible reached ${ok} of ${hosts.length} hosts:\n${stdout}`);
  }
  log(`ansible runs ms: ${runs.map(Math.round).join(", ")}`);
  return median(runs);
}

async function firstInstalled(paths: readonly string[]): Promise<string | null> {
  for (const path of paths) {
    try {
      await access(path, constants.X_OK);
      return path;
    } catch {
      // try the next name
    }
  }
  return null;
}
