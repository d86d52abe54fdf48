import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { labAuth, labSshTarget } from "../../test-support/sshd/lab-targets.ts";
import { type SshLab, sshLabUnavailable, startSshLab } from "../../test-support/sshd/ssh-lab.ts";
import { createSshTransport } from "./create-ssh-transport.ts";
import {
  HostKeyChangedError,
  HostKeyUnknownError,
  SshAuthFailedError,
  SshConnectionFailedError,
  SshConnectionRefusedError,
  SshKeyInvalidError,
} from "./errors.ts";
import { InMemoryHostKeyStore } from "./host-key-store.ts";
import { KnownHostsFileStore } from "./known-hosts-store.ts";
import { SshPool } from "./ssh-pool.ts";
import { hostPort } from "./target.ts";

const unavailable = await sshLabUnavailable();

describe("connecting: host keys, auth and refusals", {
  skip: unavailable ? `sshd unavailable: ${unavailable}` : false,
}, () => {
  let lab: SshLab;
  let dir: string;

  before(async () => {
    lab = await startSshLab({ hosts: [{ name: "keys" }, { name: "down" }, { name: "known" }] });
    dir = await mkdtemp(join(tmpdir(), "oikos-ssh-connect-"));
  });
  after(async () => {
    await lab?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  test("trust on first use remembers the host key fingerprint", async () => {
    const hostKeys = new InMemoryHostKeyStore();
    const pool = new SshPool({ auth: labAuth(lab.host("keys")), hostKeys });
    try {
      const endpoint = labSshTarget(lab.host("keys")).ssh!;
      assert.equal((await pool.run(endpoint, "true")).exitCode, 0);
      assert.equal(await hostKeys.get(hostPort(endpoint)), lab.host("keys").hostKeyFingerprint);
    } finally {
      await pool.close();
    }
  });

  test("a changed host key is refused and the message names both fingerprints and the fix", async () => {
    const hostKeys = new InMemoryHostKeyStore();
    const endpoint = labSshTarget(lab.host("keys")).ssh!;
    const where = hostPort(endpoint);
    const oldFingerprint = lab.host("keys").hostKeyFingerprint;
    await hostKeys.remember(where, oldFingerprint);
    const { hostKeyFingerprint: newFingerprint } = await lab.restartHost("keys", { newHostKey: true });
    assert.notEqual(newFingerprint, oldFingerprint);
    const pool = new SshPool({ auth: labAuth(lab.host("keys")), hostKeys });
    try {
      const error = await pool.run(endpoint, "touch /tmp/should-not-run").then(
        () => assert.fail("connected despite a changed host key"),
        (caught: unknown) => caught,
      );
      assert.ok(error instanceof HostKeyChangedError);
      assert.equal(error.code, "ssh_host_key_changed");
      assert.ok(error.message.includes(where));
      assert.ok(error.message.includes(oldFingerprint));
      assert.ok(error.message.includes(newFingerprint));
      assert.match(error.message, /ssh-keygen -R "\[127\.0\.0\.1\]:\d+"/);
      assert.equal(await hostKeys.get(where), oldFingerprint, "the remembered key is not overwritten");
      assert.equal(pool.stats().openConnections, 0);
    } finally {
      await pool.close();
    }
  });

  test("with trust on first use off, an unknown host is refused", async () => {
    const pool = new SshPool({
      auth: labAuth(lab.host("keys")),
      hostKeys: new InMemoryHostKeyStore(),
      trustOnFirstUse: false,
    });
    try {
      await assert.rejects(pool.run(labSshTarget(lab.host("keys")).ssh!, "true"), HostKeyUnknownError);
    } finally {
      await pool.close();
    }
  });

  test("a known_hosts file entry is honoured with trust on first use off", async () => {
    const host = lab.host("known");
    const path = join(dir, "known_hosts");
    await writeFile(path, `[127.0.0.1]:${host.port} ${host.hostPublicKey}\n`);
    const pool = new SshPool({
      auth: labAuth(host),
      hostKeys: new KnownHostsFileStore(path),
      trustOnFirstUse: false,
    });
    try {
      assert.equal((await pool.run(labSshTarget(host).ssh!, "echo known")).stdout, "known\n");
    } finally {
      await pool.close();
    }
  });

  test("createSshTransport with a known_hosts file verifies strictly", async () => {
    const host = lab.host("known");
    const path = join(dir, "strict_known_hosts");
    await writeFile(path, `[127.0.0.1]:${lab.host("keys").port} ${lab.host("keys").hostPublicKey}\n`);
    const keyPath = join(dir, "lab-client-key");
    await writeFile(keyPath, host.privateKey, { mode: 0o600 });
    const { pool, router } = createSshTransport({ privateKeyPath: keyPath, knownHostsFile: path });
    try {
      await assert.rejects(router.exec(labSshTarget(host), "true"), HostKeyUnknownError);
      assert.equal((await router.exec(labSshTarget(lab.host("keys")), "echo listed")).stdout, "listed\n");
    } finally {
      await pool.close();
    }
  });

  test("a key the server does not accept fails as an auth error naming the user", async () => {
    const keyPath = join(dir, "stranger");
    execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", keyPath]);
    const pool = new SshPool({ auth: { privateKeyPath: keyPath }, hostKeys: new InMemoryHostKeyStore() });
    try {
      const endpoint = labSshTarget(lab.host("keys")).ssh!;
      await assert.rejects(pool.run(endpoint, "true"), (error: unknown) => {
        assert.ok(error instanceof SshAuthFailedError);
        assert.ok(error.message.includes(endpoint.username));
        assert.ok(!error.message.includes("PRIVATE KEY"), "no key material in the message");
        return true;
      });
    } finally {
      await pool.close();
    }
  });

  test("an unusable key is a key error, not a connection error", async () => {
    const keyPath = join(dir, "garbage");
    await writeFile(
      keyPath,
      "-----BEGIN OPENSSH PRIVATE KEY-----\nnot a key\n-----END OPENSSH PRIVATE KEY-----\n",
    );
    for (const auth of [{ privateKeyPath: keyPath }, { privateKeyPath: join(dir, "absent") }]) {
      const pool = new SshPool({ auth, hostKeys: new InMemoryHostKeyStore() });
      try {
        await assert.rejects(pool.run(labSshTarget(lab.host("keys")).ssh!, "true"), SshKeyInvalidError);
      } finally {
        await pool.close();
      }
    }
  });

  test("a host whose sshd is down is a connection-refused error", async () => {
    await lab.stopHost("down");
    const pool = new SshPool({ auth: labAuth(lab.host("down")), hostKeys: new InMemoryHostKeyStore() });
    try {
      await assert.rejects(pool.run(labSshTarget(lab.host("down")).ssh!, "true"), SshConnectionRefusedError);
    } finally {
      await pool.close();
    }
  });

  test("an unresolvable host name is a connection failure", async () => {
    const pool = new SshPool({ auth: labAuth(lab.host("keys")), hostKeys: new InMemoryHostKeyStore() });
    try {
      await assert.rejects(
        pool.run({ host: "no-such-host.invalid", port: 22, username: "x" }, "true"),
        SshConnectionFailedError,
      );
    } finally {
      await pool.close();
    }
  });
});
