import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { after, before, describe, test } from "node:test";
import type { JailGrant } from "../../policy/jail-grant.ts";
import { labAuth, labSshTarget } from "../../test-support/sshd/lab-targets.ts";
import { type SshLab, sshLabUnavailable, startSshLab } from "../../test-support/sshd/ssh-lab.ts";
import { InMemoryHostKeyStore } from "./host-key-store.ts";
import { SshPool } from "./ssh-pool.ts";
import type { Target } from "./target.ts";
import { TransportRouter } from "./transport-router.ts";

/**
 * Ordinary read-only commands give the same output jailed and unjailed. What the jail changes on
 * purpose is left out of the comparison: its private scratch tmpfs (mounted on an empty directory,
 * named `oikos-jail`: a line of its own in `df`), and the processes of the two runs themselves in
 * `ps`. The real /tmp, /var/tmp and /dev/shm are seen as they are (read-only).
 */
const unavailable = await sshLabUnavailable();
/** journalctl with something to show on this machine (a container often has no journal). */
const journal = await new Promise<boolean>((resolve) =>
  execFile("journalctl", ["-n", "1", "-q", "--no-pager"], (error, stdout) =>
    resolve(!error && stdout.trim() !== ""),
  ),
);

interface Case {
  command: string;
  /** Lines that differ by design (see above); the rest must be identical. */
  normalise?: (stdout: string) => string[];
  skip?: string | false;
  /** What the jail opens (the proof names these for the tools that need them). */
  grants?: JailGrant[];
}

const lines = (stdout: string): string[] => stdout.split("\n");

const CASES: Case[] = [
  { command: "cat /etc/os-release" },
  // /proc's link count is the number of processes, and /tmp's link count and time move whenever any
  // process makes or removes a directory there between the two runs: volatile, not the jail's doing
  {
    command: "ls -la /",
    normalise: (stdout) =>
      lines(stdout)
        .filter((line) => !line.startsWith("total "))
        .filter((line) => !line.endsWith(" tmp"))
        .map((line) => (line.endsWith(" proc") ? line.replace(/^(\S+\s+)\d+/, "$1N") : line)),
  },
  { command: "grep -r oikos-test /etc/passwd /etc/group" },
  { command: "grep -rs -l root /etc/ssh /etc/default" },
  // what other processes make in /tmp between the two runs is volatile (the jail sees it as it is)
  { command: "find / -maxdepth 2 -not -path '/proc/*' -not -path '/tmp/*' 2>/dev/null | sort" },
  // usage figures move while other processes write: the mounts and their sizes must agree; the
  // jail's own scratch mount is left out, and so is the tmpfs jail-escape.test.ts mounts on the host
  // for a moment (a file running beside this one: CI saw it in one of the two runs)
  {
    command: "df -h --output=source,fstype,size,target",
    normalise: (stdout) =>
      lines(stdout)
        .filter((line) => !line.startsWith("oikos-jail ") && !line.startsWith("oikos-jail-test "))
        .sort(),
  },
  // the host's sockets are read through netlink in the host's network namespace: the netlink grant
  { command: "ss -tln | awk 'NR == 1 || $4 ~ /:SSHPORT$/'", grants: [{ resource: "netlink" }] },
  {
    command: "journalctl -n 5 --no-pager -o cat --until=-1min",
    skip: journal ? false : "no journal on this machine",
  },
  { command: "uname -a; id; nproc; hostname" },
];

describe("ordinary read-only commands: the same output jailed and unjailed (root login, oikos's default)", {
  skip: unavailable ? `sshd unavailable: ${unavailable}` : false,
}, () => {
  let lab: SshLab;
  let pool: SshPool;
  let router: TransportRouter;
  let target: Target;

  before(async () => {
    lab = await startSshLab({ hosts: [{ name: "same" }], loginAsRoot: true });
    pool = new SshPool({ auth: labAuth(lab.host("same")), hostKeys: new InMemoryHostKeyStore() });
    router = new TransportRouter({ pool });
    target = labSshTarget(lab.host("same"));
  });
  after(async () => {
    await pool?.close();
    await lab?.stop();
  });

  for (const item of CASES) {
    test(item.command, { skip: item.skip ?? false }, async () => {
      const command = item.command.replaceAll("SSHPORT", String(lab.host("same").port));
      const normalise = item.normalise ?? lines;
      const plain = await router.exec(target, command);
      const jailed = await router.exec(target, command, { jail: true, jailGrants: item.grants ?? [] });
      assert.equal(jailed.jail?.state, "jailed", jailed.stderr);
      assert.equal(jailed.exitCode, plain.exitCode, jailed.stderr);
      assert.ok(plain.stdout.length > 0, "the command printed something");
      assert.deepEqual(normalise(jailed.stdout), normalise(plain.stdout));
    });
  }

  test("ps aux: the jailed run sees every process, the sshd of this lab included", async () => {
    const sshd = "pgrep -o -f 'sshd -D -f .*/hosts/same/'";
    const pid = (await router.exec(target, sshd)).stdout.trim();
    assert.match(pid, /^\d+$/);
    const jailed = await router.exec(target, "ps aux", { jail: true });
    assert.equal(jailed.jail?.state, "jailed");
    const plain = await router.exec(target, "ps aux");
    const words = (line: string | undefined) => line?.split(/\s+/);
    assert.deepEqual(words(lines(jailed.stdout)[0]), words(lines(plain.stdout)[0]), "the same columns");
    const pids = (stdout: string) => new Set(lines(stdout).map((line) => line.split(/\s+/)[1]));
    assert.ok(pids(jailed.stdout).has(pid), `the lab's sshd (${pid}) is listed inside the jail`);
    assert.ok(pids(jailed.stdout).has("1"), "PID 1 of the machine is listed: /proc is the machine's");
    const owner = (stdout: string, of: string) =>
      lines(stdout)
        .find((line) => line.split(/\s+/)[1] === of)
        ?.split(/\s+/)[0];
    assert.equal(owner(jailed.stdout, "1"), owner(plain.stdout, "1"), "owners read as without the jail");
  });
});

/**
 * A login that is not root may map only its own uid into the jail's user namespace (the kernel's
 * rule): everything else it owns nothing of shows as nobody/nogroup. Names, modes and contents agree.
 */
describe("a non-root login: the same output except foreign owners, which show as nobody", {
  skip: unavailable ? `sshd unavailable: ${unavailable}` : false,
}, () => {
  let lab: SshLab;
  let pool: SshPool;

  before(async () => {
    lab = await startSshLab({ hosts: [{ name: "plain" }] });
    pool = new SshPool({ auth: labAuth(lab.host("plain")), hostKeys: new InMemoryHostKeyStore() });
  });
  after(async () => {
    await pool?.close();
    await lab?.stop();
  });

  test("ls -la / without the owner columns", async () => {
    const router = new TransportRouter({ pool });
    const target = labSshTarget(lab.host("plain"));
    const command = "ls -la --time-style=+%s /";
    const withoutOwners = (stdout: string) =>
      lines(stdout)
        .filter((line) => !line.endsWith(" tmp"))
        .map((line) =>
          line
            .split(/\s+/)
            .filter((_, i) => i !== 2 && i !== 3 && i !== 1)
            .join(" "),
        );
    const plain = await router.exec(target, command);
    const jailed = await router.exec(target, command, { jail: true });
    assert.equal(jailed.jail?.state, "jailed");
    assert.deepEqual(withoutOwners(jailed.stdout), withoutOwners(plain.stdout));
    assert.match(
      jailed.stdout,
      / nobody /,
      "foreign owners read as nobody: if not, this test and docs/jail.md are out of date",
    );
  });
});
