import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { describe, test } from "node:test";
import { JAIL_TRANSIENT_ATTEMPTS } from "../../policy/jail.ts";
import type { ExecOptions, ExecResult } from "../ssh/exec-result.ts";
import { InMemoryHostKeyStore } from "../ssh/host-key-store.ts";
import { readJailedStderr } from "../ssh/jail-script.ts";
import { SshPool } from "../ssh/ssh-pool.ts";
import type { Target } from "../ssh/target.ts";
import { TransportRouter } from "../ssh/transport-router.ts";
import { runUnderJailPlan } from "./jailed-run.ts";

const target: Target = { slug: "host:t", transport: "local" };

/** A runner that answers each jailed attempt with the next stderr the jail script prints (its protocol lines). */
function scripted(stderrs: string[]): {
  exec: (t: Target, c: string, o?: ExecOptions) => Promise<ExecResult>;
  calls: ExecOptions[];
} {
  const calls: ExecOptions[] = [];
  return {
    calls,
    async exec(_target, _command, options = {}) {
      calls.push(options);
      const stderr = options.jail ? (stderrs.shift() ?? "") : "";
      const read = options.jail ? readJailedStderr(stderr) : undefined;
      const jailed = read?.run.state === "jailed";
      return {
        exitCode: options.jail && !jailed ? 125 : 0,
        signal: null,
        stdout: jailed || !options.jail ? "ran\n" : "",
        stderr: read?.stderr ?? "",
        outputBytes: 0,
        truncated: false,
        durationMs: 1,
        timedOut: false,
        cancelled: false,
        ...(read ? { jail: read.run } : {}),
      };
    },
  };
}

const READY = "oikos-jail:ready engine=unshare net=private pids=pid_max:1024 scratch=/var/local\n";

describe("runUnderJailPlan: fail closed, transient failures tried again, never recorded", () => {
  test("a transient failure is tried again and then runs jailed; the target is only ever recorded available", async () => {
    const runner = scripted([
      "bash: fork: retry: Resource temporarily unavailable\n",
      "oikos-jail:transient:could not fork\n",
      READY,
    ]);
    const run = await runUnderJailPlan(runner, target, "true", {}, "require", null);
    assert.equal(run.jailed, true);
    assert.equal(run.attempts, 3);
    assert.deepEqual(run.detected, { state: "available" });
    assert.equal(run.engine, "unshare");
    assert.ok(
      runner.calls.every((call) => call.jail === true),
      "never unjailed",
    );
  });

  test(`${JAIL_TRANSIENT_ATTEMPTS} transient failures: the command does not run, and nothing is recorded against the target`, async () => {
    const runner = scripted(
      Array(JAIL_TRANSIENT_ATTEMPTS).fill("unshare: unshare failed: Cannot allocate memory\n"),
    );
    const run = await runUnderJailPlan(runner, target, "true", {}, "require", null);
    assert.equal(run.jailed, false);
    assert.equal(run.detected, null);
    assert.equal(run.attempts, JAIL_TRANSIENT_ATTEMPTS);
    assert.match(String(run.reason), /after 3 attempts .*try again in a moment$/);
    assert.equal(runner.calls.length, JAIL_TRANSIENT_ATTEMPTS);
    assert.ok(runner.calls.every((call) => call.jail === true));
  });

  test("a target that cannot jail: no retry, no unjailed run, detected unavailable; the old 'prefer' plan is followed as require", async () => {
    for (const plan of ["require", "prefer"] as const) {
      const runner = scripted(["unshare: unshare failed: Operation not permitted\n"]);
      const run = await runUnderJailPlan(runner, target, "true", {}, plan, null);
      assert.equal(run.jailed, false);
      assert.equal(run.result.stdout, "", "it did not run");
      assert.deepEqual(run.detected, {
        state: "unavailable",
        reason: "unshare: unshare failed: Operation not permitted",
      });
      assert.equal(runner.calls.length, 1);
    }
  });

  test("a grant the target cannot make: the command does not run, the grant is learned, the target is not marked", async () => {
    const runner = scripted(["oikos-jail:grant:kernel_log:kernel.dmesg_restrict = 1\n"]);
    const run = await runUnderJailPlan(runner, target, "dmesg", {}, "require", null, [
      { resource: "kernel_log" },
    ]);
    assert.equal(run.jailed, false);
    assert.equal(run.detected, null);
    assert.deepEqual(run.grantUnavailable, { resource: "kernel_log", reason: "kernel.dmesg_restrict = 1" });
    assert.deepEqual(runner.calls[0]?.jailGrants, [{ resource: "kernel_log" }]);
  });

  test("plan off: unjailed, with the plan's note", async () => {
    const runner = scripted([]);
    const run = await runUnderJailPlan(
      runner,
      target,
      "true",
      {},
      "off",
      "unjailed: needs x (proven by spec y)",
    );
    assert.equal(run.jailed, false);
    assert.equal(run.note, "unjailed: needs x (proven by spec y)");
    assert.equal(runner.calls[0]?.jail, false);
  });
});

describe("runUnderJailPlan on this machine (root, local transport): what the jail hid is said, in data and words", {
  skip: process.getuid?.() === 0 ? false : "needs root",
}, () => {
  const router = new TransportRouter({
    pool: new SshPool({ auth: { privateKey: "" }, hostKeys: new InMemoryHostKeyStore() }),
  });
  test("a device read without a grant, and the network", async () => {
    const run = await runUnderJailPlan(
      router,
      target,
      "head -c 1 /dev/vda >/dev/null; head -c 1 /dev/sda >/dev/null; echo x > /dev/tcp/127.0.0.1/22; true",
      {},
      "require",
      null,
    );
    assert.equal(run.jailed, true);
    assert.ok(
      run.hidden.some((item) => item.kind === "network"),
      JSON.stringify(run.hidden),
    );
    if (existsSync("/dev/vda"))
      assert.ok(
        run.hidden.some((item) => item.kind === "device" && item.what === "/dev/vda"),
        JSON.stringify(run.hidden),
      );
    assert.match(String(run.note), /^the read-only jail hid .*the network.* from this command/);
  });

  test("another process's working directory: unjailed it reads, jailed it is hidden and said so", async () => {
    const command = `readlink /proc/${process.pid}/cwd`;
    const plain = await runUnderJailPlan(router, target, command, {}, "off", null);
    assert.equal(plain.result.stdout, `${process.cwd()}\n`, "control: unjailed, the link reads");
    const run = await runUnderJailPlan(router, target, command, {}, "require", null);
    assert.equal(run.jailed, true);
    assert.equal(run.result.stdout, "", "the jail hid it");
    assert.deepEqual(
      run.hidden.map((item) => item.kind),
      ["process_info"],
    );
    assert.match(String(run.note), /cannot read other processes' files under \/proc/);
  });

  test("what the jail shows of its own (the mount table) and a capability it does not hold are said too", async () => {
    const mounts = await runUnderJailPlan(router, target, "findmnt -no OPTIONS /", {}, "require", null);
    assert.equal(mounts.jailed, true);
    assert.match(mounts.result.stdout, /^ro,nodev/, "the jail's own mount options");
    assert.deepEqual(
      mounts.hidden.map((item) => item.kind),
      ["mount_table"],
    );
    assert.match(String(mounts.note), /the mounts it printed are the jail's own/);
    if (!existsSync("/usr/bin/ping")) return;
    const ping = await runUnderJailPlan(router, target, "ping -c 1 127.0.0.1", {}, "require", null, [
      { resource: "network" },
    ]);
    assert.equal(ping.jailed, true);
    assert.ok(
      ping.hidden.some((item) => item.kind === "capability"),
      `${JSON.stringify(ping.hidden)} ${ping.result.stderr}`,
    );
  });
});
