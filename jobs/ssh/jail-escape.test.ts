import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { access, chmod, copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { createScratchTree, type ScratchTree } from "../../test-support/jail/scratch-tree.ts";
import { ensureLabUser } from "../../test-support/sshd/lab-prerequisites.ts";
import { labAuth, labSshTarget } from "../../test-support/sshd/lab-targets.ts";
import { type SshLab, sshLabUnavailable, startSshLab } from "../../test-support/sshd/ssh-lab.ts";
import { commandWords } from "./command-words.ts";
import type { ExecResult } from "./exec-result.ts";
import { InMemoryHostKeyStore } from "./host-key-store.ts";
import { jailRefusalNote } from "./jail-refusal.ts";
import { SshPool } from "./ssh-pool.ts";
import type { Target } from "./target.ts";
import { TransportRouter } from "./transport-router.ts";

/**
 * Escape attempts against the read-only jail, run over a real loopback sshd as the unprivileged lab
 * user. They aim only at a scratch tree the test made (owned by that user, so every write would
 * succeed without the jail: the unjailed control run proves it) and at a process the test started.
 * The oracle executes: after each attempt the tree is compared with its snapshot and the process
 * must still be alive. Nothing here calls reboot(2) or signals anything the test did not start.
 */

const unavailable = await sshLabUnavailable();
const NESTED_USERNS = fileURLToPath(
  new URL("../../test-support/jail/nested-userns-remount.py", import.meta.url),
);
const python = await access("/usr/bin/python3").then(
  () => "/usr/bin/python3",
  () => null,
);

interface Attempt {
  name: string;
  /** `$S`: the scratch root; `$PID`: the test's own process outside the jail. */
  command: string;
  /** Without the jail this changes the tree (the control that shows the attempt is real). */
  changesUnjailed: boolean;
}

const WRITES: Attempt[] = [
  { name: "redirect over a config file", command: "echo evil > $S/etc/app.conf", changesUnjailed: true },
  { name: "append to a log", command: "echo evil >> $S/var/log/app.log", changesUnjailed: true },
  { name: "truncate with an empty redirect", command: ": > $S/var/log/app.log", changesUnjailed: true },
  { name: "truncate(1)", command: "truncate -s 0 $S/etc/hosts", changesUnjailed: true },
  { name: "chmod", command: "chmod 600 $S/etc/app.conf", changesUnjailed: true },
  { name: "chown to itself", command: "chown $(id -u):$(id -g) $S/etc/app.conf", changesUnjailed: true },
  {
    name: "history -w",
    command: "set -o history; history -s evil; history -w $S/home/.bash_history",
    changesUnjailed: true,
  },
  { name: "sort -o in place", command: "sort -o $S/home/notes.txt $S/home/notes.txt", changesUnjailed: true },
  { name: "sed -i", command: "sed -i s/8080/1/ $S/etc/app.conf", changesUnjailed: true },
  { name: "tee", command: "echo evil | tee $S/etc/new.conf", changesUnjailed: true },
  {
    name: "dd conv=notrunc",
    command: "dd if=/dev/zero of=$S/etc/app.conf bs=1 count=1 conv=notrunc",
    changesUnjailed: true,
  },
  { name: "touch", command: "touch $S/etc/hosts", changesUnjailed: true },
  {
    name: "cp, mv, ln, mkdir",
    command: "cp $S/etc/hosts $S/etc/h2; mv $S/etc/hosts $S/h; ln -s / $S/l; mkdir $S/d",
    changesUnjailed: true,
  },
  { name: "rm -rf", command: "rm -rf $S/home $S/var", changesUnjailed: true },
  {
    name: "a writer left behind in the background",
    command: "(sleep 1; echo late > $S/etc/app.conf) & disown; echo started",
    changesUnjailed: true,
  },
];

const PRIVILEGE: Attempt[] = [
  {
    name: "remount / read-write",
    command: "mount -o remount,rw /; echo evil > $S/etc/app.conf",
    changesUnjailed: false,
  },
  {
    name: "mount a tmpfs over the tree",
    command: "mount -t tmpfs none $S/etc; echo evil > $S/etc/app.conf",
    changesUnjailed: false,
  },
  {
    name: "unshare -Urm, then remount",
    command: "unshare -Urm sh -c 'mount -o remount,bind,rw $S; echo evil > $S/etc/app.conf'",
    changesUnjailed: false,
  },
  {
    name: "write through another process's /proc/PID/root",
    command: "echo evil > /proc/$PID/root$S/etc/app.conf",
    changesUnjailed: true,
  },
  {
    name: "write through another process's /proc/PID/cwd",
    command: "echo evil > /proc/$PID/cwd/etc/app.conf",
    changesUnjailed: false,
  },
  { name: "kill the outside process", command: "kill -9 $PID", changesUnjailed: false },
  {
    name: "kill -1 (every process it may signal)",
    command: "kill -9 -1; echo survived",
    changesUnjailed: false,
  },
  {
    name: "pkill by name (it finds the pid in /proc)",
    command: "pkill -9 -x -u $(id -u) sleep",
    changesUnjailed: false,
  },
  { name: "mknod", command: "mknod $S/etc/null c 1 3", changesUnjailed: false },
];

function expand(command: string, scratch: string, pid: number): string {
  return command.replaceAll("$S", scratch).replaceAll("$PID", String(pid));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function assertJailed(result: ExecResult, what: string): void {
  assert.equal(result.jail?.state, "jailed", `${what} did not run in the jail: ${result.stderr}`);
}

describe("the read-only jail against escape attempts (lab user over ssh)", {
  skip: unavailable ? `sshd unavailable: ${unavailable}` : false,
}, () => {
  let lab: SshLab;
  let pool: SshPool;
  let router: TransportRouter;
  let target: Target;
  let tree: ScratchTree;
  let control: ScratchTree;
  let initial: string[];
  let outside: ChildProcess;

  before(async () => {
    lab = await startSshLab({ hosts: [{ name: "jail" }] });
    pool = new SshPool({ auth: labAuth(lab.host("jail")), hostKeys: new InMemoryHostKeyStore() });
    router = new TransportRouter({ pool });
    target = labSshTarget(lab.host("jail"));
    const user = await ensureLabUser();
    tree = await createScratchTree(user);
    control = await createScratchTree(user);
    // the test's own process outside the jail, as the lab user: it must survive every attempt
    outside = spawn("runuser", ["-u", user.username, "--", "sleep", "3600"], {
      stdio: "ignore",
      cwd: tree.root,
    });
    await new Promise((resolve) => outside.once("spawn", resolve));
    initial = await tree.snapshot();
  });
  after(async () => {
    if (outside?.pid !== undefined) await run("pkill", ["-KILL", "-P", String(outside.pid)]).catch(() => {});
    outside?.kill("SIGKILL");
    await pool?.close();
    await lab?.stop();
    await tree?.remove();
    await control?.remove();
  });

  /** The `sleep` runuser started (runuser itself stays as its parent). */
  async function sleeperPid(): Promise<number> {
    const found = await router.exec(target, `pgrep -P ${outside.pid} -x sleep`);
    const pid = Number(found.stdout.trim());
    assert.ok(Number.isInteger(pid) && pid > 0, `no sleep under runuser ${outside.pid}: ${found.stdout}`);
    return pid;
  }

  for (const attempt of [...WRITES, ...PRIVILEGE]) {
    test(`jailed: ${attempt.name}`, async () => {
      const pid = await sleeperPid();
      const result = await router.exec(target, expand(attempt.command, tree.root, pid), { jail: true });
      assertJailed(result, attempt.name);
      assert.deepEqual(await tree.snapshot(), initial, `${attempt.name} changed the tree: ${result.stderr}`);
      if (attempt.name === "redirect over a config file") {
        assert.equal(
          jailRefusalNote(result),
          `the read-only jail refused a write to ${tree.root}/etc/app.conf: this command changes the target — propose it in a plan`,
        );
      }
      assert.ok(alive(pid), `${attempt.name} killed the outside process`);
      if (attempt.changesUnjailed) {
        const before = await control.snapshot();
        await router.exec(target, expand(attempt.command, control.root, pid));
        if (attempt.name.includes("background")) await router.exec(target, "sleep 1.5");
        assert.notDeepEqual(
          await control.snapshot(),
          before,
          `control: ${attempt.name} changes nothing unjailed`,
        );
        await control.remove();
        control = await createScratchTree(await ensureLabUser());
      }
    });
  }

  test("jailed: a new user and mount namespace (full capabilities there) cannot make the tree writable", {
    skip: python ? false : "no /usr/bin/python3 on this machine",
  }, async () => {
    // The script goes in the command itself: the jail has a private /tmp, and a checkout under /tmp
    // (as CI's clean clone may be) is not visible inside it.
    const script = (await readFile(NESTED_USERNS, "utf8")).replaceAll("'", "'\\''");
    const result = await router.exec(target, `${python} -c '${script}' ${tree.root}`, { jail: true });
    assertJailed(result, "nested user namespace");
    assert.match(result.stdout, /^unshare ok$/m, "the attempt really got its own namespaces");
    assert.doesNotMatch(result.stdout, /^remount-rw ok|^remount-root-rw ok|^remount-bind-rw ok|^WROTE/m);
    assert.deepEqual(await tree.snapshot(), initial);
  });

  test("jailed: the background writer was stopped with the jail, the tree is still unchanged", async () => {
    await router.exec(target, "sleep 1.5");
    assert.deepEqual(await tree.snapshot(), initial);
  });

  test("jailed: a mount made on the host after the jail started is not writable inside", async () => {
    const mnt = `${tree.root}/mnt`;
    await mkdir(mnt);
    const go = `${tree.root}/go`;
    let started!: () => void;
    const ready = new Promise<void>((resolve) => {
      started = resolve;
    });
    const jailed = router.exec(
      target,
      `echo started; until [ -e ${go} ]; do sleep 0.05; done; echo evil > ${mnt}/file; ls -A ${mnt}`,
      {
        jail: true,
        onOutput: (stream, text) => stream === "stdout" && text.includes("started") && started(),
      },
    );
    // a jail that fails to start never prints "started": then the run's own result ends the wait
    await Promise.race([ready, jailed]);
    await run("mount", ["-t", "tmpfs", "-o", "size=1m,mode=1777", "oikos-jail-test", mnt]);
    try {
      await run("touch", [go]);
      const result = await jailed;
      assertJailed(result, "later mount");
      assert.match(result.stderr, /Read-only file system/);
      await assert.rejects(access(`${mnt}/file`), "the jailed command wrote into the host's new mount");
    } finally {
      await run("umount", [mnt]);
    }
  });

  test("jailed: the real /tmp, /var/tmp and /dev/shm are seen read-only; TMPDIR is a private scratch space", async () => {
    const name = `oikos-jail-probe-${process.pid}`;
    const marker = `/tmp/oikos-jail-seen-${process.pid}`;
    await writeFile(marker, "written outside\n", { mode: 0o644 });
    try {
      const result = await router.exec(
        target,
        `for d in /tmp /var/tmp /dev/shm; do [ -d $d ] || continue; echo x > $d/${name} && echo wrote $d; done
         cat ${marker}
         echo scratch > "$TMPDIR/${name}" && cat "$TMPDIR/${name}"`,
        { jail: true },
      );
      assertJailed(result, "scratch space");
      assert.doesNotMatch(result.stdout, /wrote/);
      assert.match(result.stderr, /\/tmp\/oikos-jail-probe-\d+: Read-only file system/);
      assert.equal(result.stdout, "written outside\nscratch\n", "the real /tmp is seen; TMPDIR is writable");
      for (const dir of ["/tmp", "/var/tmp", "/dev/shm"]) {
        await assert.rejects(access(`${dir}/${name}`), `${dir}/${name} appeared on the host`);
      }
      const scratch = result.jail?.state === "jailed" ? result.jail.facts.scratch : "";
      await assert.rejects(access(`${scratch}/${name}`), "the scratch file appeared on the host");
    } finally {
      await rm(marker, { force: true });
    }
  });

  test("jailed: a setuid-root binary runs without gaining root (user namespace and no_new_privs)", async () => {
    const suid = `${tree.root}/suid-id`;
    await copyFile("/usr/bin/id", suid);
    await chmod(suid, 0o4755);
    const user = await ensureLabUser();
    const unjailed = await router.exec(target, `${suid} -u`);
    assert.equal(unjailed.stdout, "0\n", "control: the setuid bit works without the jail");
    const jailed = await router.exec(target, `${suid} -u`, { jail: true });
    assertJailed(jailed, "setuid");
    assert.equal(jailed.stdout, `${user.uid}\n`);
    initial = await tree.snapshot();
  });

  test("jailed: child PID namespace, no_new_privs, no capabilities at all", async () => {
    const result = await router.exec(
      target,
      "grep -E '^(NSpid|NoNewPrivs|CapEff|CapPrm|CapBnd|CapAmb):' /proc/self/status",
      {
        jail: true,
      },
    );
    assertJailed(result, "status");
    const status = Object.fromEntries(
      result.stdout
        .trim()
        .split("\n")
        .map((line) => line.split(/:\s+/) as [string, string]),
    );
    assert.equal(status.NSpid?.split(/\s+/).length, 2, `in a child PID namespace: ${status.NSpid}`);
    assert.equal(status.NoNewPrivs, "1");
    for (const set of ["CapEff", "CapPrm", "CapBnd", "CapAmb"])
      assert.equal(BigInt(`0x${status[set]}`), 0n, set);
  });
});

function run(program: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: "ignore" });
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${program} exited ${code}`))));
  });
}

/** Root on this machine through the local transport: only what cannot change the machine when it fails. */
describe("the read-only jail against escape attempts (root, local transport)", {
  skip: process.getuid?.() === 0 ? false : "needs root",
}, () => {
  const router = new TransportRouter({
    pool: new SshPool({ auth: { privateKey: "" }, hostKeys: new InMemoryHostKeyStore() }),
  });
  const local: Target = { slug: "local", transport: "local" };
  let tree: ScratchTree;
  let initial: string[];
  let outside: ChildProcess;

  before(async () => {
    tree = await createScratchTree({ uid: 0, gid: 0 });
    outside = spawn("sleep", ["3600"], { stdio: "ignore", cwd: tree.root });
    await new Promise((resolve) => outside.once("spawn", resolve));
    initial = await tree.snapshot();
  });
  after(async () => {
    outside?.kill("SIGKILL");
    await tree?.remove();
  });

  const ROOT_ATTEMPTS = [
    "echo evil > $S/etc/app.conf",
    "chmod 000 $S/etc/app.conf; chown 1:1 $S/etc/hosts; chattr +i $S/etc/hosts",
    "mknod $S/etc/null c 1 3",
    "mount -o remount,rw /; mount --bind $S/home $S/etc; echo evil > $S/etc/app.conf",
    "echo evil > /proc/$PID/root$S/etc/app.conf; echo evil > /proc/1/root$S/etc/app.conf",
    "kill -9 $PID",
    "unshare -Urm sh -c 'mount -o remount,bind,rw $S && echo evil > $S/etc/app.conf'",
  ];
  for (const command of ROOT_ATTEMPTS) {
    test(`jailed as root: ${command}`, async () => {
      const pid = outside.pid ?? 0;
      const result = await router.exec(local, expand(command, tree.root, pid), { jail: true });
      assertJailed(result, command);
      assert.deepEqual(await tree.snapshot(), initial, `${command} changed the tree: ${result.stderr}`);
      assert.ok(alive(pid), "the outside process was killed");
    });
  }

  test("jailed as root: kernel files cannot even be opened for writing, raw disks not opened at all", async () => {
    // open for append and never write: a broken jail still changes nothing
    const result = await router.exec(
      local,
      `for f in /proc/sys/kernel/hostname /proc/sys/vm/drop_caches /proc/sysrq-trigger /sys/kernel/uevent_helper /sys/fs/cgroup/cgroup.procs /sys/fs/cgroup/cgroup.freeze; do
         [ -e $f ] || continue; if ( exec 3>>$f ) 2>/dev/null; then echo "OPENED $f"; else echo "refused $f"; fi
       done
       disk=$(awk '$2 == "/" {print $1}' /proc/mounts); [ -b "$disk" ] && { head -c 1 "$disk" >/dev/null 2>&1 && echo "READ $disk" || echo "refused $disk"; }`,
      { jail: true },
    );
    assertJailed(result, "kernel files");
    assert.doesNotMatch(result.stdout, /OPENED|READ/);
    assert.match(result.stdout, /refused \/proc\/sys\/kernel\/hostname/);
  });

  test("jailed as root: child PID namespace, no CAP_SYS_BOOT, CAP_SYS_ADMIN or CAP_DAC_OVERRIDE, no_new_privs", async () => {
    const result = await router.exec(
      local,
      "grep -E '^(NSpid|NoNewPrivs|CapEff|CapBnd):' /proc/self/status",
      { jail: true },
    );
    assertJailed(result, "status");
    const status = Object.fromEntries(
      result.stdout
        .trim()
        .split("\n")
        .map((line) => line.split(/:\s+/) as [string, string]),
    );
    assert.equal(status.NSpid?.split(/\s+/).length, 2);
    assert.equal(status.NoNewPrivs, "1");
    const CAP_DAC_READ_SEARCH = 1n << 2n;
    for (const set of ["CapEff", "CapBnd"]) {
      assert.equal(
        BigInt(`0x${status[set]}`) & ~CAP_DAC_READ_SEARCH,
        0n,
        `${set}: only dac_read_search is kept`,
      );
    }
  });

  test("jailed as root: mount points whose paths hold a space or a newline are read-only too", async () => {
    // in a mount namespace of its own, so the machine never sees these mounts
    const base = await mkdtemp("/var/lib/oikos-jail-odd-");
    const spaced = `${base}/with space`;
    const newline = `${base}/new\nline`;
    const jailed = `touch "${spaced}/x" "${newline}/x"; ls -A "${spaced}" "${newline}"`;
    const script = [
      `mkdir "$1" "$2" && mount -t tmpfs odd1 "$1" && mount -t tmpfs odd2 "$2" || exit 99`,
      `shift 2; exec "$@"`,
    ].join("\n");
    try {
      const result = await capture("unshare", [
        "--mount",
        "--propagation",
        "private",
        "--",
        "bash",
        "-c",
        script,
        "odd",
        spaced,
        newline,
        ...commandWords(jailed, { jail: true }),
      ]);
      assert.notEqual(result.code, 99, result.stderr);
      assert.match(result.stderr, /^oikos-jail:ready /);
      assert.equal((result.stderr.match(/Read-only file system/g) ?? []).length, 2, result.stderr);
      assert.doesNotMatch(result.stdout, /^x$/m);
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});

function capture(
  program: string,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}
