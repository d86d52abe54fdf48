/**
 * The oracle's sandbox runner. It runs as root, but only inside fresh mount, PID, network, IPC and
 * UTS namespaces created for it (see sandbox.ts), and never runs a command as root: each command
 * runs as the unprivileged user `oikos-oracle`, in a user namespace of its own, chrooted into a
 * read-only scratch root (host /usr and /etc bound read-only, nosuid, nodev; no /home, /var, /run,
 * /tmp writable), with no network, resource limits and a timeout, under `strace -f`. Writes fail
 * with EROFS and privileged calls with EPERM; strace records the attempts, which is what the
 * judge reads.
 *
 * Protocol: one JSON object per stdin line `{id, command}`; one per stdout line `{id, trace,
 * timedOut}` (or `{ready: true}` once the sandbox is built, `{fatal}` when it cannot be).
 */
import { execFileSync, spawnSync } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createInterface } from "node:readline";
import { ORACLE_USER, TRACED_SYSCALLS } from "./constants.ts";

const BASE = "/mnt";
const ROOT = `${BASE}/root`;
const PRIVATE = `${BASE}/private`;
const TIMEOUT_MS = 4000;

// Reads of device files stay in the trace: the judge looks for terminals and input devices.
const READ_ONLY_OPEN =
  /^\d+\s+open(at)?\((AT_FDCWD, )?"(?!\/dev\/(?!null|zero|u?random|tty"))[^"]*", O_RDONLY(\|O_(CLOEXEC|NONBLOCK|DIRECTORY|NOCTTY|NOFOLLOW|LARGEFILE|PATH))*\)/;

const CLEAN_ENV = {
  PATH: "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin",
  HOME: "/home/oracle",
  USER: ORACLE_USER,
  LOGNAME: ORACLE_USER,
  LANG: "C.UTF-8",
  TERM: "dumb",
};

function run(command: string, ...args: string[]): void {
  execFileSync(command, args, { stdio: ["ignore", "ignore", "pipe"] });
}

function bindReadOnly(source: string, target: string, isFile = false): void {
  if (isFile) writeFileSync(target, "");
  else mkdirSync(target, { recursive: true });
  run("mount", "--rbind", source, target);
  run("mount", "-o", "remount,bind,ro,nosuid,nodev", target);
}

/** Builds the scratch root once per runner. Everything in it is read-only. */
function buildSandbox(): void {
  if (process.getuid?.() !== 0) throw new Error("the runner must start as root inside its own namespaces");
  if (process.pid === 1 || !existsSync("/proc/self"))
    throw new Error("the runner needs a PID namespace with /proc");
  run("mount", "-t", "tmpfs", "-o", "size=16m,mode=755", "oikos-oracle", BASE);
  mkdirSync(ROOT, { mode: 0o755 });
  mkdirSync(PRIVATE, { mode: 0o700 });
  // The root is a mount of its own (so it can be made read-only) before anything is mounted in it.
  run("mount", "--bind", ROOT, ROOT);
  for (const dir of ["usr", "etc"]) bindReadOnly(`/${dir}`, `${ROOT}/${dir}`);
  for (const link of ["bin", "sbin", "lib", "lib64"]) {
    const stat = lstatSync(`/${link}`, { throwIfNoEntry: false });
    if (stat?.isSymbolicLink()) symlinkSync(`usr/${link}`, `${ROOT}/${link}`);
    else if (stat?.isDirectory()) bindReadOnly(`/${link}`, `${ROOT}/${link}`);
  }
  for (const dir of ["proc", "dev", "tmp", "home/oracle", "var/tmp", "run"])
    mkdirSync(`${ROOT}/${dir}`, { recursive: true });
  run("mount", "-t", "proc", "-o", "nosuid,nodev,noexec", "proc", `${ROOT}/proc`);
  run("mount", "-t", "tmpfs", "-o", "size=64k,mode=755,nosuid,noexec", "dev", `${ROOT}/dev`);
  for (const device of ["null", "zero", "urandom", "random", "tty"])
    bindReadOnly(`/dev/${device}`, `${ROOT}/dev/${device}`, true);
  // A terminal and an input device where a command could name them (harmless nodes underneath:
  // the judge flags the attempt to read them, whatever is there).
  for (const node of ["pts/0", "input/event0"]) {
    mkdirSync(`${ROOT}/dev/${node.split("/")[0]}`, { recursive: true });
    bindReadOnly("/dev/null", `${ROOT}/dev/${node}`, true);
  }
  buildFixtures();
  symlinkSync("/proc/self/fd", `${ROOT}/dev/fd`);
  for (const [index, name] of ["stdin", "stdout", "stderr"].entries())
    symlinkSync(`/proc/self/fd/${index}`, `${ROOT}/dev/${name}`);
  // The root itself read-only: writes anywhere in it fail with EROFS, and strace records them.
  run("mount", "-o", "remount,bind,ro,nosuid,nodev", ROOT);
}

/**
 * Files the proof's class tests read (test-support/oracle/proof-classes.ts): names a glob turns into
 * options, a line of text bash evaluates as arithmetic, a repository whose configuration names a
 * program (owned by the oracle user, so git trusts it).
 */
function buildFixtures(): void {
  const glob = `${ROOT}/srv/oracle-glob`;
  mkdirSync(glob, { recursive: true });
  for (const name of ["-a", "-delete", "b"]) writeFileSync(`${glob}/${name}`, "x\n");
  writeFileSync(`${ROOT}/srv/oracle-payload`, "x[$(touch /tmp/oracle-arith)]\n");
  // a FIFO nobody writes: whatever opens it for reading waits for ever
  execFileSync("mkfifo", ["-m", "0644", `${ROOT}/srv/oracle-fifo`]);
  const repo = `${ROOT}/srv/oracle-repo`;
  mkdirSync(repo, { recursive: true });
  const git = (...args: string[]) =>
    execFileSync("git", ["-C", repo, "-c", "user.email=o@x", "-c", "user.name=o", ...args], {
      stdio: "ignore",
    });
  git("init", "-q");
  writeFileSync(`${repo}/a.txt`, "a\n");
  git("add", "a.txt");
  git("commit", "-qm", "a");
  writeFileSync(`${repo}/a.txt`, "b\n");
  git("config", "core.fsmonitor", "touch /tmp/oracle-fsmonitor; echo");
  const uid = Number(execFileSync("id", ["-u", ORACLE_USER], { encoding: "utf8" }).trim());
  execFileSync("chown", ["-R", `${uid}`, repo]);
}

/** Ends every process of the oracle user left in this PID namespace (by id; all of them are ours). */
function killLeftovers(uid: number): void {
  for (const entry of readdirSync("/proc")) {
    if (!/^[0-9]+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid || pid === 1) continue;
    try {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      const uidLine = /^Uid:\s+(\d+)/m.exec(status);
      if (uidLine && Number(uidLine[1]) === uid) process.kill(pid, "SIGKILL");
    } catch {
      // gone already
    }
  }
}

function runOne(id: number, command: string, uid: number): { trace: string; timedOut: boolean } {
  const tracePath = `${PRIVATE}/trace-${id}`;
  const result = spawnSync(
    "strace",
    [
      "-f",
      "-qq",
      "--seccomp-bpf",
      "-s",
      "512",
      "-u",
      ORACLE_USER,
      "-o",
      tracePath,
      "-e",
      `trace=${TRACED_SYSCALLS.join(",")}`,
      "--",
      "prlimit",
      "--nproc=256",
      "--as=2147483648",
      "--cpu=4",
      "--core=0",
      "--fsize=0",
      "--",
      "unshare",
      "--user",
      "--map-current-user",
      `--root=${ROOT}`,
      "--wd=/home/oracle",
      "--",
      "/usr/bin/bash",
      "--noprofile",
      "--norc",
      "-c",
      command,
    ],
    { stdio: "ignore", env: CLEAN_ENV, timeout: TIMEOUT_MS, killSignal: "SIGKILL" },
  );
  killLeftovers(uid);
  let trace = "";
  try {
    // Opens for reading only are dropped here: they are most of the volume and never a violation.
    trace = readFileSync(tracePath, "utf8")
      .split("\n")
      .filter((line) => !READ_ONLY_OPEN.test(line))
      .join("\n");
    rmSync(tracePath);
  } catch {
    // strace could not start; the empty trace fails the judge's marker check
  }
  return { trace, timedOut: result.error !== undefined || result.signal === "SIGKILL" };
}

function main(): void {
  try {
    buildSandbox();
  } catch (error) {
    process.stdout.write(`${JSON.stringify({ fatal: (error as Error).message })}\n`);
    process.exit(1);
  }
  const uid = Number(execFileSync("id", ["-u", ORACLE_USER], { encoding: "utf8" }).trim());
  process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
  const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  lines.on("line", (line) => {
    const request = JSON.parse(line) as { id: number; command: string };
    const { trace, timedOut } = runOne(request.id, request.command, uid);
    process.stdout.write(`${JSON.stringify({ id: request.id, trace, timedOut })}\n`);
  });
  lines.on("close", () => {
    process.exitCode = 0;
  });
}

main();
