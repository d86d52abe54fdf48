import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { promisify } from "node:util";
import type { JailGrant } from "../../policy/jail-grant.ts";
import { type Listeners, startListeners } from "../../test-support/jail/listeners.ts";
import { labAuth, labSshTarget } from "../../test-support/sshd/lab-targets.ts";
import { type SshLab, sshLabUnavailable, startSshLab } from "../../test-support/sshd/ssh-lab.ts";
import type { ExecOptions, ExecResult } from "./exec-result.ts";
import { InMemoryHostKeyStore } from "./host-key-store.ts";
import type { JailLimits } from "./jail-settings.ts";
import { SshPool } from "./ssh-pool.ts";
import type { Target } from "./target.ts";
import { TransportRouter } from "./transport-router.ts";

/**
 * Containment (issue #27): whatever the proof says, a command that runs with nobody asked reaches
 * no network, no socket, no device, leaves no process and cannot exhaust memory or processes.
 * Every attempt aims only at what the test started — listeners and services counting the bytes
 * they receive, a loop device and a FIFO of its own — and each has an unjailed control that shows
 * the attempt works outside the jail. The oracle executes: bytes received, a device changed, a
 * process still alive.
 */
const run = promisify(execFile);
const unavailable = await sshLabUnavailable();
const root = process.getuid?.() === 0;

type Counter = "tcp" | "udp" | "unix" | "abstract";
interface Attempt {
  name: string;
  command: string;
  reaches: Counter;
}

/** `$TCP` `$UDP`: loopback ports; `$UNIX`: a socket path; `$ABS`: an abstract socket name. */
const REACH: Attempt[] = [
  {
    name: "TCP through /dev/tcp, output redirect",
    command: "echo secret > /dev/tcp/127.0.0.1/$TCP",
    reaches: "tcp",
  },
  {
    name: "TCP through /dev/tcp opened as input, then written",
    command: "exec 3</dev/tcp/127.0.0.1/$TCP && echo secret >&3",
    reaches: "tcp",
  },
  {
    name: "TCP through /dev/tcp read-write",
    command: "exec 3<>/dev/tcp/127.0.0.1/$TCP && echo secret >&3",
    reaches: "tcp",
  },
  { name: "UDP through /dev/udp", command: "echo secret > /dev/udp/127.0.0.1/$UDP", reaches: "udp" },
  {
    name: "TCP from perl's socket()",
    command: `perl -MSocket -e 'socket(my $s, AF_INET, SOCK_STREAM, 0) or die "socket: $!"; connect($s, pack_sockaddr_in($ARGV[0], inet_aton("127.0.0.1"))) or die "connect: $!"; syswrite $s, "secret"' $TCP`,
    reaches: "tcp",
  },
  {
    name: "a pathname Unix-socket service (docker.sock, D-Bus …)",
    command: `perl -MSocket -e 'socket(my $s, AF_UNIX, SOCK_STREAM, 0) or die "socket: $!"; connect($s, pack_sockaddr_un($ARGV[0])) or die "connect: $!"; syswrite $s, "secret"' $UNIX`,
    reaches: "unix",
  },
  {
    name: "an abstract Unix-socket service",
    command: `perl -MSocket -e 'socket(my $s, AF_UNIX, SOCK_STREAM, 0) or die "socket: $!"; connect($s, pack_sockaddr_un("\\0" . $ARGV[0])) or die "connect: $!"; syswrite $s, "secret"' $ABS`,
    reaches: "abstract",
  },
];

function expand(command: string, listeners: Listeners): string {
  return command
    .replaceAll("$TCP", String(listeners.tcpPort))
    .replaceAll("$UDP", String(listeners.udpPort))
    .replaceAll("$UNIX", listeners.unixPath)
    .replaceAll("$ABS", listeners.abstractName);
}

function assertJailed(result: ExecResult, what: string): void {
  assert.equal(result.jail?.state, "jailed", `${what} did not run in the jail: ${result.stderr}`);
}

/** Waits until the listeners have had time to count what an unjailed control sent (UDP has no handshake). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

/** Processes whose command line holds `marker` (e.g. a sleep of a length no one else uses). */
async function running(marker: string): Promise<string[]> {
  const { stdout } = await run("pgrep", ["-a", "-f", marker]).catch(() => ({ stdout: "" }));
  return stdout.split("\n").filter((line) => line.trim() !== "" && !line.includes("pgrep"));
}

interface Where {
  router: TransportRouter;
  target: Target;
  stop: () => Promise<void>;
  root: boolean;
}

function containmentSuite(name: string, skip: string | false, setup: () => Promise<Where>) {
  describe(name, { skip }, () => {
    let router: TransportRouter;
    let target: Target;
    let stop: () => Promise<void>;
    let asRoot: boolean;
    let listeners: Listeners;
    const jailed = (command: string, options: ExecOptions = {}) =>
      router.exec(target, command, { jail: true, timeoutMs: 60_000, ...options });

    before(async () => {
      ({ router, target, stop, root: asRoot } = await setup());
      listeners = await startListeners();
    });
    after(async () => {
      await listeners?.close();
      await stop?.();
    });

    for (const attempt of REACH) {
      test(`nothing reached: ${attempt.name}`, async () => {
        const before = listeners.received();
        const result = await jailed(expand(attempt.command, listeners));
        assertJailed(result, attempt.name);
        await settle();
        assert.deepEqual(
          listeners.received(),
          before,
          `${attempt.name} reached a listener: ${result.stdout}${result.stderr}`,
        );
        // the control: without the jail, the same command reaches its listener
        await router.exec(target, expand(attempt.command, listeners), { timeoutMs: 60_000 });
        await settle();
        assert.ok(
          listeners.received()[attempt.reaches] > before[attempt.reaches],
          `control: unjailed, ${attempt.name} reaches nothing: the attempt proves nothing`,
        );
      });
    }

    test("the jail says what it hid: the network and the socket", async () => {
      const result = await jailed(expand(REACH[0]!.command, listeners));
      assert.match(result.stderr, /Network is unreachable/);
      const socket = await jailed(expand(REACH[5]!.command, listeners));
      assert.match(socket.stderr, /Address family not supported by protocol/);
    });

    test("a memory hog is bounded (test-sized: 64 MiB per process)", async () => {
      const hog = `perl -e '$x = "a" x (160 * 1024 * 1024); print length($x), "\\n"'`;
      const limits: Partial<JailLimits> = { memoryMiB: 64 };
      const result = await jailed(hog, { jailLimits: limits });
      assertJailed(result, "memory hog");
      assert.notEqual(result.stdout, "167772160\n", "the jailed hog got its 160 MiB");
      assert.notEqual(result.exitCode, 0);
      const control = await router.exec(target, hog, { timeoutMs: 60_000 });
      assert.equal(control.stdout, "167772160\n", `control: ${control.stderr}`);
    });

    test("a fork loop is bounded (test-sized), and nothing it started is left running", async () => {
      const marker = `oikos-fork-loop-${process.pid}-${asRoot ? "root" : "user"}`;
      // perl's fork() gives up at once when the kernel refuses (bash retries, then dies): the count is what started
      const loop = `perl -e 'my $n = 0; for (1 .. 700) { my $p = fork(); last unless defined $p; if (!$p) { sleep 30; exit } $n++ } print "$n\\n"; # ${marker}'`;
      const result = await jailed(loop, { jailLimits: { processes: 350 } });
      assertJailed(result, "fork loop");
      const started = Number(result.stdout.trim());
      assert.ok(
        Number.isInteger(started) && started > 10 && started <= 350,
        `the jail let ${result.stdout.trim()} processes start`,
      );
      await settle();
      assert.deepEqual(await running(marker), [], "the jail left processes running");
      // the control: without the jail all 700 start (then the test stops them)
      const control = await router.exec(target, `${loop}; pkill -f '${marker}'`, { timeoutMs: 60_000 });
      assert.equal(control.stdout.trim(), "700", `control: ${control.stderr}`);
    });

    test("CPU time is bounded (test-sized: 1 s per process)", async () => {
      const spin = "perl -e '1 while 1'";
      const result = await jailed(spin, { jailLimits: { cpuSeconds: 1 }, timeoutMs: 30_000 });
      assertJailed(result, "spin");
      assert.equal(result.timedOut, false, "killed by its CPU bound, not by the time limit");
      assert.ok(
        result.signal === "SIGKILL" || result.signal === "SIGXCPU" || result.exitCode !== 0,
        JSON.stringify(result),
      );
    });

    test("output is bounded: a flood keeps its head and tail (test-sized: 64 KiB), says it was cut, and stops at the time limit", async () => {
      const flood = "yes oikos-flood-line";
      const result = await jailed(flood, { maxOutputBytes: 64 * 1024, timeoutMs: 1_500 });
      assertJailed(result, "flood");
      assert.equal(result.timedOut, true, "the flood ran until its time limit");
      assert.equal(result.truncated, true);
      assert.ok(result.outputBytes > 1024 * 1024, `only ${result.outputBytes} bytes were produced`);
      assert.ok(result.stdout.length <= 80 * 1024, `${result.stdout.length} characters kept`);
      await settle();
      assert.deepEqual(await running("oikos-flood-line"), [], "the flood is still running");
    });

    test("nothing is left running: background jobs, setsid, nohup, double forks", async () => {
      const marker = `sleep 309${asRoot ? 1 : 2}${process.pid % 100}`;
      const result = await jailed(
        `${marker} & setsid ${marker} & nohup ${marker} >/dev/null 2>&1 & ( ( ${marker} & ) & ) ; disown -a; echo started`,
      );
      assertJailed(result, "leftovers");
      assert.equal(result.stdout, "started\n");
      await settle();
      assert.deepEqual(await running(marker), [], "the jail left processes running");
    });

    test("no device but null, zero, full, random, urandom; no terminal", async () => {
      const result = await jailed(
        "for d in null zero full random urandom tty console ptmx kmsg mem vda sda loop0 zram0 vsock; do [ -e /dev/$d ] || continue; if ( exec 3</dev/$d ) 2>/dev/null; then echo open $d; else echo refused $d; fi; done",
      );
      assertJailed(result, "devices");
      const opened = result.stdout.split("\n").filter((line) => line.startsWith("open "));
      assert.ok(opened.length >= 5, result.stdout);
      for (const line of opened) assert.match(line, /^open (null|zero|full|random|urandom)$/);
    });
  });
}

containmentSuite(
  "containment over ssh as an unprivileged login (RLIMIT_NPROC bounds processes)",
  unavailable ? `sshd unavailable: ${unavailable}` : false,
  async () => {
    const lab: SshLab = await startSshLab({ hosts: [{ name: "contain" }] });
    const pool = new SshPool({ auth: labAuth(lab.host("contain")), hostKeys: new InMemoryHostKeyStore() });
    return {
      router: new TransportRouter({ pool }),
      target: labSshTarget(lab.host("contain")),
      root: false,
      stop: async () => {
        await pool.close();
        await lab.stop();
      },
    };
  },
);

containmentSuite(
  "containment as root on this machine (the PID namespace's pid_max bounds processes)",
  root ? false : "needs root",
  async () => ({
    router: new TransportRouter({
      pool: new SshPool({ auth: { privateKey: "" }, hostKeys: new InMemoryHostKeyStore() }),
    }),
    target: { slug: "local", transport: "local" },
    root: true,
    stop: async () => {},
  }),
);

/** Devices and FIFOs need root to set up (a loop device, a FIFO root owns): the local transport. */
describe("devices, grants and FIFOs (root, local transport)", { skip: root ? false : "needs root" }, () => {
  const router = new TransportRouter({
    pool: new SshPool({ auth: { privateKey: "" }, hostKeys: new InMemoryHostKeyStore() }),
  });
  const local: Target = { slug: "local", transport: "local" };
  let dir: string;
  let disk: string;
  let spare: string;
  const jailed = (command: string, grants: JailGrant[] = []) =>
    router.exec(local, command, { jail: true, jailGrants: grants, timeoutMs: 60_000 });

  before(async () => {
    dir = await mkdtemp("/var/lib/oikos-jail-devices-");
    await chmod(dir, 0o755);
    const image = async (name: string) => {
      const file = join(dir, name);
      await writeFile(file, Buffer.alloc(8 * 1024 * 1024));
      await run("mkfs.ext4", ["-q", "-L", "oikos-lab", file]);
      return (await run("losetup", ["-f", "--show", file])).stdout.trim();
    };
    disk = await image("disk.img");
    spare = await image("spare.img");
  });
  after(async () => {
    for (const device of [disk, spare]) if (device) await run("losetup", ["-d", device]).catch(() => {});
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const head = (device: string) => `head -c 1100 ${device} | tail -c 76 | od -An -c | head -2`;

  test("a device read outside a grant is refused, and said so; the control reads it", async () => {
    const result = await jailed(head(disk));
    assertJailed(result, "device read");
    assert.equal(result.stdout.trim(), "");
    assert.match(result.stderr, new RegExp(`${disk}.*Permission denied`));
    const control = await router.exec(local, head(disk));
    assert.notEqual(control.stdout.trim(), "", control.stderr);
  });

  test("a granted device reads the same as unjailed; it cannot be written or detached (LOOP_CLR_FD)", async () => {
    const grant: JailGrant[] = [{ resource: "device", path: disk }];
    const read = await jailed(`blkid ${disk}; ${head(disk)}`, grant);
    const plain = await router.exec(local, `blkid ${disk}; ${head(disk)}`);
    assertJailed(read, "granted read");
    assert.equal(read.stdout, plain.stdout);
    assert.match(read.stdout, /LABEL="oikos-lab"/);
    const before = (await run("sha256sum", [disk])).stdout;
    const write = await jailed(
      `echo evil | dd of=${disk} bs=512 seek=1 conv=notrunc; losetup -d ${disk}`,
      grant,
    );
    assertJailed(write, "granted write");
    assert.match(write.stderr, /Permission denied/);
    assert.match(write.stderr, /detach failed/);
    assert.equal((await run("sha256sum", [disk])).stdout, before, "the granted device was written");
    assert.match(
      (await run("losetup", ["-l", "-n", "-O", "NAME"])).stdout,
      new RegExp(disk),
      "the jail detached it",
    );
    // the controls, on the spare: unjailed, the same writes change it and detach it
    const spareBefore = (await run("sha256sum", [spare])).stdout;
    await router.exec(local, `echo evil | dd of=${spare} bs=512 seek=1 conv=notrunc`);
    assert.notEqual(
      (await run("sha256sum", [spare])).stdout,
      spareBefore,
      "control: the write changes nothing",
    );
    await router.exec(local, `losetup -d ${spare}`);
    assert.doesNotMatch((await run("losetup", ["-l", "-n", "-O", "NAME"])).stdout, new RegExp(`${spare}\\b`));
    spare = "";
  });

  test("every block device (block_devices): lsblk -f and blkid read as unjailed", async () => {
    const command = `blkid ${disk}; lsblk -f -n -o NAME,FSTYPE,LABEL ${disk}`;
    const result = await jailed(command, [{ resource: "block_devices" }]);
    const plain = await router.exec(local, command);
    assertJailed(result, "block devices");
    assert.equal(result.stdout, plain.stdout);
  });

  test("grants the jail cannot make fail closed, naming the grant: a terminal, process info, the restricted kernel log", async () => {
    const cases: [JailGrant, RegExp][] = [
      [{ resource: "device", path: "/dev/tty1" }, /is not a disk/],
      [{ resource: "process_info" }, /CAP_SYS_PTRACE/],
    ];
    const restricted = (await run("cat", ["/proc/sys/kernel/dmesg_restrict"])).stdout.trim() !== "0";
    if (restricted) cases.push([{ resource: "kernel_log" }, /dmesg_restrict = 1/]);
    for (const [grant, why] of cases) {
      const result = await jailed("echo RAN", [grant]);
      assert.equal(result.stdout, "", "the command ran");
      assert.equal(result.jail?.state, "failed");
      if (result.jail?.state === "failed") {
        assert.equal(result.jail.kind, "grant");
        assert.equal(result.jail.resource, grant.resource);
        assert.match(result.jail.reason, why);
      }
    }
  });

  test("a granted resource that does not exist here is no error: the command finds it missing, as unjailed", async () => {
    const command = "ls /dev/zfs /dev/oikos-no-such-disk 2>&1; echo done";
    const grants: JailGrant[] = [
      { resource: "zfs" },
      { resource: "device", path: "/dev/oikos-no-such-disk" },
    ];
    const result = await jailed(command, grants);
    assertJailed(result, "missing resources");
    assert.equal(result.stdout, (await router.exec(local, command)).stdout);
  });

  test("a FIFO cannot be written from the jail (a read-only mount does not stop it); the control can", async () => {
    const fifo = join(dir, "control.fifo");
    await run("mkfifo", [fifo]);
    const reader = run("timeout", ["10", "cat", fifo]);
    const result = await jailed(`timeout 2 bash -c 'echo through-the-fifo > ${fifo}'`);
    assertJailed(result, "fifo");
    assert.match(result.stderr, /Permission denied/);
    await router.exec(local, `echo control > ${fifo}`);
    const { stdout } = await reader;
    assert.equal(stdout, "control\n", "the jailed write reached the reader, or the control did not");
  });
});
