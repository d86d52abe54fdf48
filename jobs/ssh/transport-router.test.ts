import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { labAuth, labSshTarget } from "../../test-support/sshd/lab-targets.ts";
import { FAKE_PCT, FAKE_QM } from "../../test-support/sshd/proxmox-fakes.ts";
import { type SshLab, sshLabUnavailable, startSshLab } from "../../test-support/sshd/ssh-lab.ts";
import { GuestAgentError, TransportRouteError } from "./errors.ts";
import { InMemoryHostKeyStore } from "./host-key-store.ts";
import { SshPool } from "./ssh-pool.ts";
import { type Target, TargetSchema } from "./target.ts";
import { TransportRouter } from "./transport-router.ts";

const unavailable = await sshLabUnavailable();

function processesMatching(needle: string): string {
  try {
    return execFileSync("pgrep", ["-af", needle], { encoding: "utf8" }).trim();
  } catch {
    return "";
  }
}

describe("transport routing", { skip: unavailable ? `sshd unavailable: ${unavailable}` : false }, () => {
  let lab: SshLab;
  let pool: SshPool;
  let router: TransportRouter;
  let pve: Target;

  before(async () => {
    lab = await startSshLab({ hosts: [{ name: "pve", toolbox: { pct: FAKE_PCT, qm: FAKE_QM } }] });
    pool = new SshPool({ auth: labAuth(lab.host("pve")), hostKeys: new InMemoryHostKeyStore() });
    router = new TransportRouter({ pool });
    pve = labSshTarget(lab.host("pve"), "host:pve");
  });
  after(async () => {
    await pool?.close();
    await lab?.stop();
  });

  test("pct-exec runs the command through pct exec on the owning host", async () => {
    const gitea: Target = { slug: "lxc:gitea", transport: "pct-exec", via: pve, vmid: 105 };
    const result = await router.exec(gitea, `echo "in 'ct'"; echo warn >&2; exit 4`);
    assert.equal(result.exitCode, 4);
    assert.equal(result.stdout, "in 'ct'\n");
    assert.equal(result.stderr, "warn\n");
    const calls = await readFile(join(lab.host("pve").stateDir, "pct-calls"), "utf8");
    assert.match(calls, /^105$/m);
  });

  test("pct-exec timeouts kill the command inside the container", async () => {
    const token = `64.${randomBytes(4).readUInt32BE()}`;
    const ct: Target = { slug: "lxc:slow", transport: "pct-exec", via: pve, vmid: 106 };
    const result = await router.exec(ct, `sleep ${token}`, { timeoutMs: 1000 });
    assert.equal(result.timedOut, true);
    assert.equal(processesMatching(token), "");
  });

  test("qm-guest-exec parses the guest agent's JSON into the result", async () => {
    const vm: Target = { slug: "vm:nas", transport: "qm-guest-exec", via: pve, vmid: 200 };
    const result = await router.exec(
      vm,
      `printf 'a "quoted" \\\\ back\\tline\\nsecond\\n'; echo oops >&2; exit 2`,
    );
    assert.equal(result.exitCode, 2);
    assert.equal(result.stdout, 'a "quoted" \\ back\tline\nsecond\n');
    assert.equal(result.stderr, "oops\n");
    assert.equal(result.timedOut, false);
    assert.match(await readFile(join(lab.host("pve").stateDir, "qm-calls"), "utf8"), /^200$/m);
  });

  test("qm-guest-exec without a reachable guest agent is a GuestAgentError", async () => {
    const vm: Target = { slug: "vm:dead", transport: "qm-guest-exec", via: pve, vmid: 999 };
    await assert.rejects(router.exec(vm, "true"), (error: unknown) => {
      assert.ok(error instanceof GuestAgentError);
      assert.match(error.message, /qm agent 999 ping/);
      assert.match(error.message, /guest-ping' failed/);
      return true;
    });
  });

  test("a GuestAgentError quoting remote stderr is redacted in its message and log text", async () => {
    const vm: Target = { slug: "vm:leaky", transport: "qm-guest-exec", via: pve, vmid: 998 };
    await assert.rejects(router.exec(vm, "true"), (error: unknown) => {
      assert.ok(error instanceof GuestAgentError);
      assert.match(error.message, /password=\[REDACTED\]/);
      assert.doesNotMatch(`${error.message} ${error.logMessage}`, /hunter2/);
      return true;
    });
  });

  test("a guest target whose owning host is local runs pct on this machine", async () => {
    // the toolbox is not on this process's PATH, so call the fake by absolute path through a local wrapper
    const local: Target = { slug: "local", transport: "local" };
    const result = await router.exec(
      local,
      `PATH=${lab.host("pve").toolboxDir}:$PATH pct exec 7 -- echo via-local`,
    );
    assert.equal(result.stdout, "via-local\n");
  });

  test("routes that cannot work are refused with a typed error", async () => {
    await assert.rejects(
      router.exec({ slug: "lxc:x", transport: "pct-exec", vmid: 1 }, "true"),
      TransportRouteError,
    );
    await assert.rejects(
      router.exec({ slug: "lxc:x", transport: "pct-exec", via: pve }, "true"),
      TransportRouteError,
    );
    await assert.rejects(router.exec({ slug: "h", transport: "ssh" }, "true"), TransportRouteError);
  });
});

describe("local transport", () => {
  const router = new TransportRouter({
    pool: new SshPool({ auth: { agent: "/nonexistent" }, hostKeys: new InMemoryHostKeyStore() }),
  });
  const local: Target = { slug: "local", transport: "local" };

  test("returns exit code and both streams", async () => {
    const result = await router.exec(local, "echo out; echo err >&2; exit 5");
    assert.deepEqual(
      { exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr, timedOut: result.timedOut },
      { exitCode: 5, stdout: "out\n", stderr: "err\n", timedOut: false },
    );
  });

  test("a timeout kills the whole process group", async () => {
    const token = `65.${randomBytes(4).readUInt32BE()}`;
    const result = await router.exec(local, `sleep ${token} & sleep ${token}`, { timeoutMs: 300 });
    assert.equal(result.timedOut, true);
    assert.equal(result.signal, "SIGTERM");
    assert.equal(processesMatching(token), "");
  });

  test("output is capped like the remote transports", async () => {
    const result = await router.exec(local, "seq 1 100000", { maxOutputBytes: 100 });
    assert.equal(result.truncated, true);
    assert.equal(result.outputBytes, 588_895);
    assert.ok(result.stdout.startsWith("1\n2\n"));
    assert.ok(result.stdout.endsWith("100000\n"));
  });
});

describe("target descriptions", () => {
  test("the schema accepts the four transports and rejects incomplete ones", () => {
    const host = { slug: "host:pve", transport: "ssh", ssh: { host: "10.0.0.2", username: "root" } };
    assert.equal(TargetSchema.parse(host).ssh?.port, 22);
    assert.ok(TargetSchema.safeParse({ slug: "lxc:a", transport: "pct-exec", via: host, vmid: 101 }).success);
    assert.ok(
      TargetSchema.safeParse({ slug: "vm:b", transport: "qm-guest-exec", via: host, vmid: 200 }).success,
    );
    assert.ok(TargetSchema.safeParse({ slug: "local", transport: "local" }).success);
    assert.equal(TargetSchema.safeParse({ slug: "lxc:a", transport: "pct-exec", vmid: 101 }).success, false);
    assert.equal(TargetSchema.safeParse({ slug: "lxc:a", transport: "pct-exec", via: host }).success, false);
    assert.equal(TargetSchema.safeParse({ slug: "h", transport: "ssh" }).success, false);
    assert.equal(TargetSchema.safeParse({ slug: "h", transport: "telnet" }).success, false);
    const nested = {
      slug: "lxc:c",
      transport: "pct-exec",
      vmid: 1,
      via: { slug: "lxc:a", transport: "pct-exec", via: host, vmid: 101 },
    };
    assert.equal(TargetSchema.safeParse(nested).success, false);
  });
});
