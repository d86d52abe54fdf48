import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { labAuth, labSshTarget } from "../../test-support/sshd/lab-targets.ts";
import {
  type LabHost,
  type SshLab,
  sshLabUnavailable,
  startSshLab,
} from "../../test-support/sshd/ssh-lab.ts";
import { InMemoryHostKeyStore } from "./host-key-store.ts";
import { SshPool } from "./ssh-pool.ts";
import type { Target } from "./target.ts";
import { TransportRouter } from "./transport-router.ts";
import { sshCommandLine } from "./transport-ssh.ts";

const unavailable = await sshLabUnavailable();

/** Processes of the lab user whose command line contains `needle` (pgrep excludes itself). */
function remoteProcesses(username: string, needle: string): string {
  try {
    return execFileSync("pgrep", ["-u", username, "-af", needle], { encoding: "utf8" }).trim();
  } catch {
    return ""; // pgrep exits 1 when nothing matches
  }
}

describe("exec over ssh against a real sshd", {
  skip: unavailable ? `sshd unavailable: ${unavailable}` : false,
}, () => {
  let lab: SshLab;
  let host: LabHost;
  let pool: SshPool;
  let router: TransportRouter;
  let target: Target;

  before(async () => {
    lab = await startSshLab({ hosts: [{ name: "hubris" }] });
    host = lab.host("hubris");
    pool = new SshPool({ auth: labAuth(host), hostKeys: new InMemoryHostKeyStore() });
    router = new TransportRouter({ pool });
    target = labSshTarget(host);
  });
  after(async () => {
    await pool?.close();
    await lab?.stop();
  });

  test("returns exit code, stdout and stderr separately", async () => {
    const result = await router.exec(target, "echo out; echo err >&2; whoami");
    assert.equal(result.exitCode, 0);
    assert.equal(result.stdout, `out\n${host.username}\n`);
    assert.equal(result.stderr, "err\n");
    assert.equal(result.timedOut, false);
    assert.equal(result.truncated, false);
    assert.equal(result.outputBytes, result.stdout.length + result.stderr.length);
  });

  test("a failing command is a result with its exit code, not an exception", async () => {
    const result = await router.exec(target, "ls /definitely/not/here; exit 3");
    assert.equal(result.exitCode, 3);
    assert.match(result.stderr, /No such file or directory/);
    assert.equal(result.timedOut, false);
  });

  test("quotes survive the timeout wrapping", async () => {
    const result = await router.exec(target, `printf '%s|' "a b" 'it'"'"'s' $HOME`);
    assert.equal(result.stdout, `a b|it's|/home/${host.username}|`);
  });

  test("a timeout kills the remote process and is recorded as timed out", async () => {
    const token = `60.${randomBytes(4).readUInt32BE()}`;
    const marker = join(host.stateDir, `marker-${token}`);
    const result = await router.exec(target, `sleep ${token}; touch ${marker}`, { timeoutMs: 1000 });
    assert.equal(result.timedOut, true);
    assert.notEqual(result.exitCode, 0);
    assert.equal(remoteProcesses(host.username, token), "", "no process of the command is left on the host");
    assert.equal(existsSync(marker), false);
  });

  test("children the command started in the background are killed too", async () => {
    const token = `61.${randomBytes(4).readUInt32BE()}`;
    // The router's wrapping, with the host's timeout(1) far behind oikos's 1 s timer: on a loaded
    // machine 1.2 s vs 2 s could go either way.
    const wrapped = sshCommandLine(`sleep ${token} & wait`, { timeoutMs: 10_000 });
    const result = await pool.run(target.ssh!, wrapped, { timeoutMs: 1000 });
    assert.equal(result.timedOut, true);
    assert.equal(
      result.signal,
      "SIGTERM",
      "killed by the TERM oikos sent over the channel, not by timeout(1)",
    );
    assert.equal(remoteProcesses(host.username, token), "");
  });

  test("the host-side timeout(1) alone kills the command (no help from oikos's timer)", async () => {
    const token = `63.${randomBytes(4).readUInt32BE()}`;
    const wrapped = sshCommandLine(`sleep ${token}`, { timeoutMs: 1_000 });
    const result = await pool.run(target.ssh!, wrapped, { timeoutMs: 30_000 });
    assert.equal(result.exitCode, 124); // timeout(1)'s "timed out" status
    assert.equal(result.timedOut, false);
    assert.equal(remoteProcesses(host.username, token), "");
  });

  test("stdin is closed, so a command that reads it does not hang", async () => {
    const result = await router.exec(target, "cat; read answer || echo eof", { timeoutMs: 30_000 });
    assert.equal(result.timedOut, false);
    assert.equal(result.stdout, "eof\n");
  });

  test("output is capped to head and tail with the total size recorded", async () => {
    const result = await router.exec(target, "seq 1 100000", { maxOutputBytes: 1024 });
    assert.equal(result.exitCode, 0);
    assert.equal(result.truncated, true);
    assert.equal(result.outputBytes, 588_895); // bytes of `seq 1 100000`
    assert.ok(result.stdout.startsWith("1\n2\n3\n"));
    assert.ok(result.stdout.endsWith("99999\n100000\n"));
    assert.match(result.stdout, /bytes omitted, 588895 bytes in total/);
    assert.ok(result.stdout.length < 1200);
  });

  test("live output reaches onOutput before the command ends", async () => {
    const seen: string[] = [];
    const result = await router.exec(target, "echo one; echo two >&2", {
      onOutput: (stream, text) => seen.push(`${stream}:${text}`),
    });
    assert.equal(result.exitCode, 0);
    assert.deepEqual(seen.sort(), ["stderr:two\n", "stdout:one\n"]);
  });

  test("aborting cancels the remote command", async () => {
    const token = `62.${randomBytes(4).readUInt32BE()}`;
    const controller = new AbortController();
    const running = router.exec(target, `echo started; sleep ${token}`, {
      signal: controller.signal,
      onOutput: () => controller.abort(),
    });
    const result = await running;
    assert.equal(result.cancelled, true);
    assert.equal(result.timedOut, false);
    assert.equal(remoteProcesses(host.username, token), "");
  });
});
