import assert from "node:assert/strict";
import { createHmac, randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { fingerprintOf, InMemoryHostKeyStore } from "./host-key-store.ts";
import { KnownHostsFileStore, knownHostsName } from "./known-hosts-store.ts";

const dir = await mkdtemp(join(tmpdir(), "oikos-known-hosts-"));
after(() => rm(dir, { recursive: true, force: true }));

const keyA = randomBytes(51);
const keyB = randomBytes(51);
const keyC = randomBytes(51);
const b64 = (key: Buffer) => key.toString("base64");

function hashed(name: string): string {
  const salt = randomBytes(20);
  return `|1|${salt.toString("base64")}|${createHmac("sha1", salt).update(name).digest("base64")}`;
}

test("known_hosts names: bare host on 22, [host]:port otherwise", () => {
  assert.equal(knownHostsName("pve.lan:22"), "pve.lan");
  assert.equal(knownHostsName("10.0.0.5:2222"), "[10.0.0.5]:2222");
  assert.equal(knownHostsName("[::1]:2200"), "[::1]:2200");
});

test("reads plain, bracketed-port, hashed and wildcard entries", async () => {
  const path = join(dir, "known_hosts");
  await writeFile(
    path,
    [
      "# comment",
      `pve.lan,10.0.0.2 ssh-ed25519 ${b64(keyA)}`,
      `[10.0.0.5]:2222 ssh-ed25519 ${b64(keyB)} comment`,
      `${hashed("nas.lan")} ecdsa-sha2-nistp256 ${b64(keyC)}`,
      `*.lab,!secret.lab ssh-ed25519 ${b64(keyA)}`,
      `@cert-authority *.lan ssh-ed25519 ${b64(keyC)}`,
      "",
    ].join("\n"),
  );
  const store = new KnownHostsFileStore(path);
  assert.equal(await store.get("pve.lan:22"), fingerprintOf(keyA));
  assert.equal(await store.get("10.0.0.2:22"), fingerprintOf(keyA));
  assert.equal(await store.get("10.0.0.5:2222"), fingerprintOf(keyB));
  assert.equal(await store.get("10.0.0.5:22"), null);
  assert.equal(await store.get("nas.lan:22"), fingerprintOf(keyC));
  assert.equal(await store.get("web.lab:22"), fingerprintOf(keyA));
  assert.equal(await store.get("secret.lab:22"), null);
});

test("several keys for one host are all accepted", async () => {
  const path = join(dir, "multi");
  await writeFile(path, `pve.lan ssh-ed25519 ${b64(keyA)}\npve.lan ssh-rsa ${b64(keyB)}\n`);
  const store = new KnownHostsFileStore(path);
  assert.deepEqual(await store.getAll("pve.lan:22"), [fingerprintOf(keyA), fingerprintOf(keyB)]);
});

test("keys learned on first use go to the overlay, the file wins", async () => {
  const overlay = new InMemoryHostKeyStore();
  const store = new KnownHostsFileStore([join(dir, "missing"), join(dir, "multi")], { overlay });
  await store.remember("new.lan:22", "SHA256:learned");
  assert.equal(await store.get("new.lan:22"), "SHA256:learned");
  assert.equal(await overlay.get("new.lan:22"), "SHA256:learned");
  await store.remember("pve.lan:22", "SHA256:other");
  assert.equal(await store.get("pve.lan:22"), fingerprintOf(keyA));
});
