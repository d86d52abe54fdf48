import { execFile } from "node:child_process";
import { access, constants, mkdtemp, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { median } from "../../median.ts";
import type { LabHost } from "../../sshd/ssh-lab.ts";

const execFileAsync = promisify(execFile);
const log = (line: string) => process.stderr.write(`  ${line}\n`);

/** The first of `paths` that is an executable file, or null. */
export async function firstInstalled(paths: readonly string[]): Promise<string | null> {
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

/** `parallel-ssh -p <all hosts> uptime`, median wall time of `runs`; throws unless every host answered. */
export async function measurePssh(
  binary: string,
  hosts: readonly LabHost[],
  work: string,
  runs: number,
): Promise<number> {
  const hostsFile = join(work, `pssh-hosts-${hosts.length}`);
  await writeFile(hostsFile, hosts.map((host) => `${host.username}@${host.host}:${host.port}\n`).join(""));
  const args = [
    "-p",
    String(hosts.length),
    "-t",
    "120",
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
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    const { stdout } = await execFileAsync(binary, args, { maxBuffer: 1 << 22 });
    times.push(performance.now() - started);
    const ok = stdout.split("\n").filter((line) => line.includes("[SUCCESS]")).length;
    if (ok !== hosts.length)
      throw new Error(`parallel-ssh reached ${ok} of ${hosts.length} hosts:\n${stdout}`);
  }
  log(`parallel-ssh -p ${hosts.length} runs ms: ${times.map(Math.round).join(", ")}`);
  return median(times);
}

/** `ansible all -f <all hosts> -m shell -a uptime`, median wall time of `runs` (each with fresh ControlPersist masters). */
export async function measureAnsible(
  binary: string,
  hosts: readonly LabHost[],
  work: string,
  runs: number,
): Promise<number> {
  const inventory = join(work, `inventory-${hosts.length}.ini`);
  const lines = hosts.map(
    (host) =>
      `${host.name} ansible_host=${host.host} ansible_port=${host.port} ansible_user=${host.username} ` +
      `ansible_ssh_private_key_file=${host.privateKeyPath} ansible_python_interpreter=/usr/bin/python3`,
  );
  await writeFile(inventory, `[all]\n${lines.join("\n")}\n`);
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
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
    times.push(performance.now() - started);
    const ok = stdout.split("\n").filter((line) => / \| CHANGED \| rc=0/.test(line)).length;
    if (ok !== hosts.length) throw new Error(`ansible reached ${ok} of ${hosts.length} hosts:\n${stdout}`);
  }
  log(`ansible -f ${hosts.length} runs ms: ${times.map(Math.round).join(", ")}`);
  return median(times);
}
