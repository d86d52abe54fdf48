import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { labAuth, labSshTarget } from "../../test-support/sshd/lab-targets.ts";
import { FAKE_PCT, FAKE_QM } from "../../test-support/sshd/proxmox-fakes.ts";
import { type SshLab, sshLabUnavailable, startSshLab } from "../../test-support/sshd/ssh-lab.ts";
import { commandWords } from "./command-words.ts";
import { InMemoryHostKeyStore } from "./host-key-store.ts";
import { JAIL_READY_PREFIX } from "./jail-script.ts";
import { SshPool } from "./ssh-pool.ts";
import type { Target } from "./target.ts";
import { TransportRouter } from "./transport-router.ts";
import { sshCommandLine } from "./transport-ssh.ts";

const unavailable = await sshLabUnavailable();

/**
 * Everything a classifier could be fooled by: quotes of both kinds, backslashes, expansions, globs,
 * a comment with a trailing backslash, newlines, tabs, non-ASCII. Never run: it follows `exit`.
 */
const PAYLOAD = [
  `a'b"c\\d $(touch /nope) \`y\` \${z} ~ * ? [a] { } ; & | < > !x`,
  "# comment \\",
  "\tline with tab ünïcødé 💾 $'\\x41' \\\\",
  "'unterminated",
  "", // the fake qm's JSON encoder ends output with a newline: give it one to keep
].join("\n");

/** Prints exactly the string bash was given with -c, then stops before the payload. */
const ECHO_SELF = `printf '%s' "$BASH_EXECUTION_STRING"; exit 0\n${PAYLOAD}`;

/** dash reads `$'\'` as `$` + `'\'` and runs the middle command; bash reads one ANSI-C string. */
const BASH_NOT_DASH = `echo $'\\' ; echo SECOND ; #'`;

describe("the command wrapper's words", () => {
  test("bash without profile or rc file; the command is one word of its own", () => {
    assert.deepEqual(commandWords("ls -la /"), [
      "env",
      "-u",
      "BASH_ENV",
      "-u",
      "ENV",
      "bash",
      "--noprofile",
      "--norc",
      "-c",
      "ls -la /",
    ]);
    const timed = commandWords("uptime", { timeoutSeconds: 30, killAfterSeconds: 5 });
    assert.deepEqual(timed.slice(0, 6), ["timeout", "-s", "TERM", "-k", "5", "30"]);
    assert.equal(timed.at(-1), "uptime");
  });

  test("jailed: the jail's POSIX-mode bash gets the script, then oikos-jail, the command, its settings, the filter", () => {
    const words = commandWords("cat /etc/hosts", { jail: true });
    assert.deepEqual(words.slice(0, 5), ["bash", "--posix", "--noprofile", "--norc", "-c"]);
    assert.match(words[5]!, /unshare/);
    assert.deepEqual(words.slice(6, 10), ["oikos-jail", "cat /etc/hosts", "net=private", "unix=0"]);
    assert.match(words.at(-2)!, /^bpf=\d/);
    assert.match(words.at(-1)!, /^perl=/);
    const granted = commandWords("blkid /dev/vda", {
      jail: true,
      jailGrants: [{ resource: "device", path: "/dev/vda" }, { resource: "netlink" }],
    });
    assert.ok(
      granted.includes("dev=/dev/vda") && granted.includes("net=host"),
      granted.slice(6, 12).join(" "),
    );
  });

  test("sh only when asked, and never with the jail", () => {
    assert.deepEqual(commandWords("uname -s", { shell: "sh" }), ["env", "-u", "ENV", "sh", "-c", "uname -s"]);
    assert.throws(() => commandWords("true", { shell: "sh", jail: true }), RangeError);
  });

  test("the SSH line quotes each word so the login shell gives them back unchanged", () => {
    const line = sshCommandLine("echo 'x'", { timeoutMs: 2_000 });
    assert.equal(
      line,
      `exec timeout -s TERM -k 5 2 env -u BASH_ENV -u ENV bash --noprofile --norc -c 'echo '\\''x'\\''' </dev/null`,
    );
  });
});

describe("every transport runs the exact command under bash", {
  skip: unavailable ? `sshd unavailable: ${unavailable}` : false,
}, () => {
  let lab: SshLab;
  let pool: SshPool;
  let router: TransportRouter;
  const targets: Record<string, Target> = {};

  before(async () => {
    lab = await startSshLab({ hosts: [{ name: "wrap", toolbox: { pct: FAKE_PCT, qm: FAKE_QM } }] });
    pool = new SshPool({ auth: labAuth(lab.host("wrap")), hostKeys: new InMemoryHostKeyStore() });
    router = new TransportRouter({ pool });
    const host = labSshTarget(lab.host("wrap"), "host:wrap");
    targets.local = { slug: "local", transport: "local" };
    targets.ssh = host;
    targets["pct-exec"] = { slug: "lxc:wrap", transport: "pct-exec", via: host, vmid: 301 };
    targets["qm-guest-exec"] = { slug: "vm:wrap", transport: "qm-guest-exec", via: host, vmid: 302 };
  });
  after(async () => {
    await pool?.close();
    await lab?.stop();
  });

  for (const transport of ["local", "ssh", "pct-exec", "qm-guest-exec"]) {
    test(`${transport}: byte for byte what was given, read by bash, not a login shell`, async () => {
      const target = targets[transport]!;
      const self = await router.exec(target, ECHO_SELF);
      assert.equal(self.exitCode, 0, self.stderr);
      assert.equal(self.stdout, ECHO_SELF);

      const dialect = await router.exec(target, BASH_NOT_DASH);
      assert.equal(dialect.stdout, "' ; echo SECOND ; #\n");

      const shell = await router.exec(
        target,
        `shopt -q login_shell && echo login || echo plain; [[ $- == *i* ]] && echo interactive || echo batch`,
      );
      assert.equal(shell.stdout, "plain\nbatch\n");
    });

    test(`${transport}: jailed, the same command runs in the jail with the ready line taken out`, async () => {
      const target = targets[transport]!;
      const result = await router.exec(target, ECHO_SELF, { jail: true });
      assert.equal(result.exitCode, 0, result.stderr);
      assert.equal(result.jail?.state, "jailed");
      assert.equal(result.stdout, ECHO_SELF);
      assert.equal(result.stderr, "");

      const inside = await router.exec(target, "awk '/^NSpid/ {print NF}' /proc/self/status; echo warn >&2", {
        jail: true,
      });
      assert.equal(inside.stdout, "3\n", "NSpid lists the host pid and the jail's pid");
      assert.equal(inside.stderr, "warn\n");
      assert.ok(!inside.stderr.includes(JAIL_READY_PREFIX));
    });
  }

  test("local: $BASH_ENV is not read, jailed or not", async () => {
    const dir = await mkdtemp(join(tmpdir(), "oikos-bashenv-"));
    const rc = join(dir, "rc");
    await writeFile(rc, "echo RC-FILE-READ\n");
    const before = process.env.BASH_ENV;
    process.env.BASH_ENV = rc;
    try {
      for (const jail of [false, true]) {
        const result = await router.exec(
          targets.local!,
          'echo cmd; [ -n "$BASH_ENV" ] && echo set || echo unset',
          { jail },
        );
        assert.equal(result.stdout, "cmd\nunset\n", `jail: ${jail}`);
      }
    } finally {
      if (before === undefined) delete process.env.BASH_ENV;
      else process.env.BASH_ENV = before;
      await rm(dir, { recursive: true, force: true });
    }
  });

  test("live output of a jailed run never shows the ready line, even split across chunks", async () => {
    const seen: string[] = [];
    const result = await router.exec(targets.ssh!, "echo one; echo two >&2", {
      jail: true,
      onOutput: (stream, text) => seen.push(`${stream}:${text}`),
    });
    assert.equal(result.exitCode, 0);
    assert.deepEqual(seen.sort(), ["stderr:two\n", "stdout:one\n"]);
  });
});
