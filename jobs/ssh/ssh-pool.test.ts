import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { labAuth, labSshTarget } from "../../test-support/sshd/lab-targets.ts";
import { type SshLab, sshLabUnavailable, startSshLab } from "../../test-support/sshd/ssh-lab.ts";
import { SshConnectionLostError } from "./errors.ts";
import { InMemoryHostKeyStore } from "./host-key-store.ts";
import { SshPool } from "./ssh-pool.ts";
import { TransportRouter } from "./transport-router.ts";

const unavailable = await sshLabUnavailable();

/** Poll until `condition` holds; the bound only stops a broken test from hanging the suite. */
async function until(condition: () => boolean, giveUpAfterMs = 15_000): Promise<void> {
  const giveUpAt = Date.now() + giveUpAfterMs;
  while (!condition()) {
    if (Date.now() > giveUpAt) throw new Error("condition never became true");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("ssh connection pool against real sshd", {
  skip: unavailable ? `sshd unavailable: ${unavailable}` : false,
}, () => {
  let lab: SshLab;

  before(async () => {
    lab = await startSshLab({ hosts: [{ name: "alpha" }, { name: "beta" }, { name: "gamma" }] });
  });
  after(() => lab?.stop());

  function newPool(options: Partial<ConstructorParameters<typeof SshPool>[0]> = {}): SshPool {
    return new SshPool({ auth: labAuth(lab.hosts[0]!), hostKeys: new InMemoryHostKeyStore(), ...options });
  }

  test("the second command on a target reuses the open connection", async () => {
    const pool = newPool();
    const router = new TransportRouter({ pool });
    try {
      const target = labSshTarget(lab.host("alpha"));
      assert.equal((await router.exec(target, "true")).exitCode, 0);
      assert.equal((await router.exec(target, "true")).exitCode, 0);
      const stats = pool.stats();
      assert.equal(stats.connectionsOpened, 1);
      assert.equal(stats.connectionsReused, 1);
      assert.equal(stats.openConnections, 1);
    } finally {
      await pool.close();
    }
  });

  test("concurrent first commands to one target share one connection", async () => {
    const pool = newPool();
    const router = new TransportRouter({ pool });
    try {
      const target = labSshTarget(lab.host("alpha"));
      const results = await Promise.all(Array.from({ length: 5 }, () => router.exec(target, "echo ok")));
      assert.deepEqual(
        results.map((result) => result.stdout),
        Array(5).fill("ok\n"),
      );
      assert.equal(pool.stats().connectionsOpened, 1);
    } finally {
      await pool.close();
    }
  });

  test("channels per target are bounded; the rest wait their turn", async () => {
    const pool = newPool({ maxChannelsPerTarget: 2 });
    const router = new TransportRouter({ pool });
    const state = lab.host("beta").stateDir;
    // each command counts the commands running beside it through files in the state dir
    const command = `touch ${state}/run.$$; ls ${state} | grep -c '^run\\.'; sleep 0.3; rm ${state}/run.$$`;
    try {
      const target = labSshTarget(lab.host("beta"));
      const running = Array.from({ length: 6 }, () => router.exec(target, command));
      await until(() => pool.stats().waitingForChannel > 0);
      assert.equal(pool.stats().activeChannels, 2);
      const counts = (await Promise.all(running)).map((result) => Number(result.stdout.trim()));
      assert.ok(Math.max(...counts) <= 2, `at most 2 at once, saw ${counts.join(",")}`);
      assert.equal(pool.stats().waitingForChannel, 0);
    } finally {
      await pool.close();
    }
  });

  test("a command aborted while waiting for a channel never runs", async () => {
    const pool = newPool({ maxChannelsPerTarget: 1 });
    const router = new TransportRouter({ pool });
    const marker = join(lab.host("gamma").stateDir, "aborted-ran");
    try {
      const target = labSshTarget(lab.host("gamma"));
      const first = router.exec(target, "sleep 0.5");
      const controller = new AbortController();
      const second = router.exec(target, `touch ${marker}`, { signal: controller.signal });
      await until(() => pool.stats().waitingForChannel === 1);
      controller.abort();
      const result = await second;
      assert.equal(result.cancelled, true);
      assert.equal((await first).exitCode, 0);
      assert.equal(existsSync(marker), false);
      assert.equal(pool.stats().activeChannels, 0);
    } finally {
      await pool.close();
    }
  });

  test("with maxConnections reached, the least recently used idle connection is closed", async () => {
    const pool = newPool({ maxConnections: 2 });
    const router = new TransportRouter({ pool });
    try {
      for (const name of ["alpha", "beta", "gamma"]) {
        assert.equal((await router.exec(labSshTarget(lab.host(name)), "true")).exitCode, 0);
      }
      const stats = pool.stats();
      assert.equal(stats.openConnections, 2);
      assert.equal(stats.connectionsOpened, 3);
      assert.deepEqual(
        stats.targets.filter((target) => target.connected).map((target) => target.key.split(":")[1]),
        [String(lab.host("beta").port), String(lab.host("gamma").port)],
      );
    } finally {
      await pool.close();
    }
  });

  test("a connection killed by an sshd restart is replaced on the next command", async () => {
    const pool = newPool();
    const router = new TransportRouter({ pool });
    try {
      const target = labSshTarget(lab.host("gamma"));
      assert.equal((await router.exec(target, "true")).exitCode, 0);
      await lab.restartHost("gamma");
      const result = await router.exec(target, "echo again");
      assert.equal(result.stdout, "again\n");
      assert.equal(pool.stats().connectionsOpened, 2);
    } finally {
      await pool.close();
    }
  });

  test("a pooled connection found dead when a command starts is replaced, and the command runs once", async () => {
    const pool = newPool();
    const router = new TransportRouter({ pool });
    try {
      const target = labSshTarget(lab.host("beta"));
      assert.equal((await router.exec(target, "true")).exitCode, 0);
      // no await between the drop and the exec: the pool cannot have seen the close yet
      lab.dropConnections("beta");
      const result = await router.exec(target, "echo replaced");
      assert.equal(result.stdout, "replaced\n");
      const stats = pool.stats();
      assert.equal(stats.connectionsOpened, 2);
      assert.equal(stats.reconnects, 1);
    } finally {
      await pool.close();
    }
  });

  test("a connection dying mid-command reports an unknown outcome, not a failure", async () => {
    const pool = newPool();
    const router = new TransportRouter({ pool });
    const started = join(lab.host("alpha").stateDir, "started");
    try {
      const running = router.exec(labSshTarget(lab.host("alpha")), `touch ${started}; sleep 30`);
      const outcome = assert.rejects(running, SshConnectionLostError);
      await until(() => existsSync(started));
      await lab.restartHost("alpha");
      await outcome;
    } finally {
      await pool.close();
    }
  });

  test("idle connections are closed after idleTimeoutMs", async () => {
    const pool = newPool({ idleTimeoutMs: 50 });
    const router = new TransportRouter({ pool });
    try {
      await router.exec(labSshTarget(lab.host("beta")), "true");
      await until(() => pool.stats().openConnections === 0);
      assert.equal(pool.stats().connectionsClosed, 1);
      assert.equal((await router.exec(labSshTarget(lab.host("beta")), "echo back")).stdout, "back\n");
    } finally {
      await pool.close();
    }
  });

  test("a closed pool refuses new work", async () => {
    const pool = newPool();
    await pool.close();
    await assert.rejects(pool.run(labSshTarget(lab.host("alpha")).ssh!, "true"), /closed/);
  });
});
