/**
 * Outside attack of 2026-12 (second round): what a command that runs with nobody asked can still do,
 * executed on a real sshd lab. Each attack runs the way oikos would run it — through the classifier,
 * and when that says read_only, inside the jail with exactly the grants it names (or, for attacks on
 * the jail itself, jailed whatever the proof says) — and each has an unjailed control that shows the
 * oracle sees the effect when nothing contains it. The commands tried and the measurement:
 * test-support/attack-2026-12/ (measure.ts).
 */
import assert from "node:assert/strict";
import { chmod, chown, mkdir, readFile, writeFile } from "node:fs/promises";
import { after, before, describe, test } from "node:test";
import { type Classifier, loadClassifier } from "../../policy/classify.ts";
import type { JailGrant } from "../../policy/jail-grant.ts";
import {
  createMessageQueue,
  keyringSyscalls,
  processesRunning,
  queuesOwnedBy,
  removeQueue,
  startDatagramListener,
  startLineListener,
} from "../../test-support/attack-2026-12/oracles.ts";
import { ensureLoginUser, type LabUser } from "../../test-support/sshd/lab-prerequisites.ts";
import { type SshLab, sshLabUnavailable, startSshLab } from "../../test-support/sshd/ssh-lab.ts";
import type { ExecResult } from "./exec-result.ts";
import { InMemoryHostKeyStore } from "./host-key-store.ts";
import { readJailedStderr } from "./jail-script.ts";
import type { JailLimits } from "./jail-settings.ts";
import { SshPool } from "./ssh-pool.ts";
import type { SshEndpoint } from "./target.ts";
import { execSsh } from "./transport-ssh.ts";

const unavailable = await sshLabUnavailable();

/** The jail started and handed over to the command (its ready line came first). */
function assertJailed(result: ExecResult): void {
  assert.equal(readJailedStderr(result.stderr).run.state, "jailed", result.stderr);
}
/** Its own login: its ~/.ssh/config names the second lab host, for the command that runs elsewhere. */
const ATTACK_USER = "oikos-attack";
const OTHER_HOST = "oikos-attack-other";

describe("outside attack 2026-12: no command that auto-runs has an effect", {
  skip: unavailable ? `sshd unavailable: ${unavailable}` : false,
}, () => {
  let lab: SshLab;
  let pool: SshPool;
  let classifier: Classifier;
  let user: LabUser;
  let endpoint: SshEndpoint;

  before(async () => {
    user = await ensureLoginUser(ATTACK_USER);
    lab = await startSshLab({ hosts: [{ name: "target" }, { name: "other" }], loginAs: user });
    const other = lab.host("other");
    const dotSsh = `${user.home}/.ssh`;
    await mkdir(dotSsh, { recursive: true, mode: 0o700 });
    await writeFile(`${dotSsh}/lab_key`, await readFile(lab.privateKeyPath), { mode: 0o600 });
    await writeFile(`${dotSsh}/known_hosts_lab`, `[127.0.0.1]:${other.port} ${other.hostPublicKey}\n`);
    await writeFile(
      `${dotSsh}/config`,
      [
        `Host ${OTHER_HOST}`,
        "  HostName 127.0.0.1",
        `  Port ${other.port}`,
        "  IdentityFile ~/.ssh/lab_key",
        "  UserKnownHostsFile ~/.ssh/known_hosts_lab",
        "  StrictHostKeyChecking yes",
        "  BatchMode yes",
        "",
      ].join("\n"),
    );
    for (const file of ["", "/lab_key", "/known_hosts_lab", "/config"])
      await chown(`${dotSsh}${file}`, user.uid, user.gid);
    await chmod(dotSsh, 0o700);
    const target = lab.host("target");
    endpoint = { host: target.host, port: target.port, username: target.username };
    pool = new SshPool({ auth: { privateKey: lab.privateKey }, hostKeys: new InMemoryHostKeyStore() });
    classifier = await loadClassifier();
  });
  after(async () => {
    await pool?.close();
    await lab?.stop();
  });

  const jailed = (
    command: string,
    grants: readonly JailGrant[] = [],
    jailLimits: Partial<JailLimits> = {},
  ): Promise<ExecResult> =>
    execSsh(pool, endpoint, command, { jail: true, jailGrants: grants, jailLimits, timeoutMs: 20_000 });
  const unjailed = (command: string, timeoutMs = 20_000): Promise<ExecResult> =>
    execSsh(pool, endpoint, command, { timeoutMs });
  /** What oikos does with a command nobody approved: nothing unless read_only, then jailed with its grants. */
  const autoRun = async (command: string, timeoutMs = 20_000): Promise<ExecResult | null> => {
    const verdict = classifier.classify(command, "host");
    if (verdict.risk !== "read_only") return null;
    return execSsh(pool, endpoint, command, { jail: true, jailGrants: verdict.grants, timeoutMs });
  };
  const perl = (code: string) => {
    assert.ok(!code.includes("'"), "the perl code is one single-quoted word");
    return `perl -e '${code}'`;
  };

  test("jail: a System V message queue of another process receives nothing (IPC namespace)", async () => {
    const queue = createMessageQueue();
    try {
      const send = perl(`msgsnd(${queue.id}, pack("l! a*", 1, "from-the-jail"), 0) or die "msgsnd: $!\\n"`);
      const inside = await jailed(send);
      assertJailed(inside);
      assert.equal(await queue.messages(), 0, `the jailed command's message arrived: ${inside.stderr}`);
      const control = await unjailed(send);
      assert.equal(control.exitCode, 0, control.stderr);
      assert.equal(await queue.messages(), 1, "control: the unjailed message arrives");
    } finally {
      queue.remove();
    }
  });

  test("jail: no System V object is left behind in the machine's namespace", async () => {
    const before = await queuesOwnedBy(user.uid);
    const made = async () => (await queuesOwnedBy(user.uid)).filter((id) => !before.includes(id));
    try {
      const inside = await jailed("ipcmk -Q");
      assertJailed(inside);
      assert.deepEqual(await made(), [], "the jailed command left a queue behind");
      const control = await unjailed("ipcmk -Q");
      assert.equal(control.exitCode, 0, control.stderr);
      assert.equal((await made()).length, 1, "control: the unjailed queue stays");
    } finally {
      for (const id of await made()) removeQueue(id);
    }
  });

  test("jail: a datagram socket pair cannot send to a pathname datagram socket (/dev/log, notify)", async () => {
    const listener = await startDatagramListener();
    try {
      const send = perl(
        `socketpair(my $a, my $b, 1, 2, 0) or die "socketpair: $!\\n"; ` +
          `defined(send($a, "from-the-jail", 0, pack("S a108", 1, "${listener.path}"))) or die "send: $!\\n"`,
      );
      const inside = await jailed(send);
      assertJailed(inside);
      const control = await unjailed(send);
      assert.equal(control.exitCode, 0, control.stderr);
      // the control's datagram is queued after the jailed one would have been: when it is there, so is that
      for (let i = 0; i < 500 && !listener.received().includes("got:"); i++)
        await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(listener.received(), "got:from-the-jail\n", "exactly one datagram: the control's");
    } finally {
      await listener.close();
    }
  });

  test("jail: no key is added to the login's keyrings, which outlive the run", {
    skip: keyringSyscalls() === null ? `no keyring syscall numbers for ${process.arch}` : false,
  }, async () => {
    const calls = keyringSyscalls()!;
    const description = `oikos-attack-${process.pid}-${Date.now()}`;
    const add = perl(
      `my ($t, $d, $p) = ("user", "${description}", "x"); my $id = syscall(${calls.addKey}, $t, $d, $p, 1, -4); ` +
        `print "$id\\n"; $id > 0 or die "add_key: $!\\n"`,
    );
    const listed = async () => (await unjailed("cat /proc/keys")).stdout.includes(description);
    const inside = await jailed(add);
    assertJailed(inside);
    assert.equal(await listed(), false, "the jailed command's key is in the login's keyring");
    const control = await unjailed(add);
    assert.equal(control.exitCode, 0, control.stderr);
    try {
      assert.equal(await listed(), true, "control: the unjailed key is there");
    } finally {
      await unjailed(perl(`syscall(${calls.keyctl}, 21, ${Number(control.stdout.trim())})`)); // KEYCTL_INVALIDATE
    }
  });

  test("proof: a header value with a line break does not auto-run (a line of its own for memcached, a second HTTP request)", async () => {
    const listener = await startLineListener();
    try {
      const command = `curl -sS -m 3 -A $'x\\r\\nflush_all' http://127.0.0.1:${listener.port}/`;
      const run = await autoRun(command);
      const injected = () => listener.received().includes("\r\nflush_all\r\n");
      const seen = listener.received();
      assert.equal(
        injected(),
        false,
        `auto-run sent an injected line: ${JSON.stringify(seen)} (${run?.stderr})`,
      );
      const control = await unjailed(command);
      assert.ok(injected(), `control: curl sends it unjailed (${control.stderr})`);
    } finally {
      await listener.close();
    }
  });

  test("proof: `ssh ssh://host:port` does not auto-run (the port `-p` may not name)", async () => {
    const listener = await startLineListener();
    try {
      const command = `ssh -o BatchMode=yes -o ConnectTimeout=3 ssh://127.0.0.1:${listener.port} id`;
      await autoRun(command, 6_000);
      assert.equal(listener.received(), "", "the auto-run ssh reached the listener");
      await unjailed(command, 6_000);
      assert.match(listener.received(), /^SSH-2\.0-/, "control: ssh sends its banner there");
    } finally {
      await listener.close();
    }
  });

  // RLIMIT_AS bounds what a process maps; a memfd's pages are no address space until mapped (512 MiB
  // were written under a 256 MiB bound): the jail refuses memfd_create
  test("jail: memory held in a memfd stays within the jail's memory bound", async () => {
    const fill = perl(
      `my $n = "oikos"; my $fd = syscall(319, $n, 0); $fd >= 0 or die "memfd: $!\\n"; open(my $f, ">&=", $fd) or die; ` +
        `my $b = "x" x (1 << 20); my $w = 0; for (1 .. 512) { syswrite($f, $b) == length($b) or last; $w++ } print "wrote $w MiB\\n"`,
    );
    const inside = await jailed(fill, [], { memoryMiB: 256 });
    assertJailed(inside);
    const wrote = Number(/wrote ([0-9]+) MiB/.exec(inside.stdout)?.[1] ?? 0);
    assert.ok(wrote <= 256, `one jailed process held ${wrote} MiB under a 256 MiB bound`);
    const control = await unjailed(`ulimit -v ${256 * 1024}; ${fill}`);
    assert.match(
      control.stdout,
      /wrote 512 MiB/,
      "control: outside the jail a memfd holds 512 MiB past RLIMIT_AS",
    );
  });

  // a System V segment's pages are no address space once detached: segment after segment, each
  // written through shmwrite (attach, write, detach), then removed so the control leaves nothing
  test("jail: System V shared memory stays within the jail's memory bound", async () => {
    const fill = perl(
      `my @ids; my $mib = 0; my $b = "x" x (1 << 20); for (1 .. 8) { my $id = shmget(0, 64 << 20, 0600) // last; push @ids, $id; ` +
        `for my $m (0 .. 63) { shmwrite($id, $b, $m << 20, 1 << 20) or last } $mib += 64 } ` +
        `print "held $mib MiB\n"; shmctl($_, 0, 0) for @ids`,
    );
    const inside = await jailed(fill, [], { memoryMiB: 256 });
    assertJailed(inside);
    const held = Number(/held ([0-9]+) MiB/.exec(inside.stdout)?.[1] ?? 0);
    assert.ok(held <= 256, `the jailed run held ${held} MiB of shared memory under a 256 MiB bound`);
    const control = await unjailed(`ulimit -v ${256 * 1024}; ${fill}`);
    assert.match(
      control.stdout,
      /held 512 MiB/,
      "control: outside the jail the segments hold 512 MiB past RLIMIT_AS",
    );
  });

  test("proof: a command run on another host through ssh does not auto-run (nothing left running there)", async () => {
    // `ssh HOST 'cmd'` runs cmd on HOST outside every jail of oikos, and a command there without a
    // terminal runs on when the jailed ssh is killed at its time limit: it asks (policy/runs-elsewhere.ts),
    // and the refusal says to run it on HOST as its own target. Same for pct exec, docker/kubectl exec.
    const words = ["sleep", `${290 + (process.pid % 997) / 1000}`];
    const command = `ssh ${OTHER_HOST} 'echo started; ${words.join(" ")}'`;
    let left: { pid: number; uid: number }[] = [];
    try {
      const run = await autoRun(command, 6_000);
      if (run) {
        assert.match(run.stdout, /started/, `the remote command never started: ${run.stderr}`);
        left = await processesRunning(words);
      }
      assert.deepEqual(left, [], "the remote command still runs after the auto-run ended");
      assert.equal(run, null, "the command ran with nobody asked");
      const verdict = classifier.classify(command, "host");
      assert.equal(verdict.elsewhere?.instead, "host_target");
      assert.equal(verdict.elsewhere?.place, OTHER_HOST);
    } finally {
      for (const { pid } of left) process.kill(pid, "SIGKILL");
    }
  });

  test("control: the unjailed run leaves the remote command running (the oracle sees it)", async () => {
    const words = ["sleep", `${280 + (process.pid % 997) / 1000}`];
    const run = await unjailed(`ssh ${OTHER_HOST} 'echo started; ${words.join(" ")}'`, 6_000);
    assert.match(run.stdout, /started/, run.stderr);
    const left = await processesRunning(words);
    for (const { pid } of left) process.kill(pid, "SIGKILL");
    assert.equal(left.length, 1);
    assert.equal(left[0]?.uid, user.uid);
  });
});
