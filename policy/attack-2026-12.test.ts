/**
 * Outside attack of 2026-12 (second round): what the proof called read-only and a careful operator
 * would not let run unasked. Their effects, executed: jobs/ssh/outside-attack-effects.test.ts.
 */
import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { type Classifier, loadClassifier } from "./classify.ts";

let classifier: Classifier;
before(async () => {
  classifier = await loadClassifier();
});
const risk = (command: string) => classifier.classify(command, "host").risk;

describe("network tools: no control character in what they send", () => {
  for (const command of [
    // a line of its own in any line protocol behind the port (memcached's flush_all)
    "curl -A $'x\\r\\nflush_all' http://127.0.0.1:11211/",
    // a second, pipelined HTTP request
    "curl -e $'x\\r\\n\\r\\nDELETE /api/items/1 HTTP/1.1\\r\\nHost: x' http://127.0.0.1:8080/",
    "curl -u $'a\\r\\nflush_all:b' http://127.0.0.1:11211/",
    "curl -A $'x\\nflush_all' http://127.0.0.1:11211/",
    "dig @127.0.0.1 $'x\\nFLUSHALL'",
  ]) {
    test(command, () => assert.notEqual(risk(command), "read_only"));
  }
  test("a plain header value still reads", () => {
    assert.equal(risk("curl -A probe -e https://example.com/ http://127.0.0.1:8080/"), "read_only");
  });
});

describe("DNS tools send queries, nothing else", () => {
  for (const command of [
    // \DDD escapes put CR LF into the query: over TCP to another port, a command line
    "dig @127.0.0.1 -p 6379 +tcp 'x\\013\\010FLUSHALL\\013\\010'",
    "host 'x\\010y' 127.0.0.1",
    "nslookup 'x\\010y' 127.0.0.1",
    // UPDATE and NOTIFY (a secondary transfers the zone again), by any prefix
    "dig @127.0.0.1 +opcode=update example.com",
    "dig @127.0.0.1 +opcode=notify example.com",
    "dig @127.0.0.1 +op=4 example.com",
    // DNS over HTTPS POSTs to any path
    "dig +https=/api/delete @127.0.0.1 example.com",
    "dig +http-plain @127.0.0.1 example.com",
  ]) {
    test(command, () => assert.notEqual(risk(command), "read_only"));
  }
  for (const command of ["dig @127.0.0.1 example.com", "dig +short -x 127.0.0.1", "host example.com"]) {
    test(`still read-only: ${command}`, () => assert.equal(risk(command), "read_only"));
  }
});

describe("ping does not flood", () => {
  for (const command of [
    "ping -c 100000 -i 0 127.0.0.1",
    "ping -c 3 -i0.001 127.0.0.1",
    "ping -c 10 -l 10 127.0.0.1",
    "ping -c3 -l3 127.0.0.1",
  ]) {
    test(command, () => assert.notEqual(risk(command), "read_only"));
  }
  for (const command of ["ping -c 3 127.0.0.1", "ping -c 3 -i 0.2 127.0.0.1", "ping -nc3 -i1 127.0.0.1"]) {
    test(`still read-only: ${command}`, () => assert.equal(risk(command), "read_only"));
  }
});

describe("what runs elsewhere", () => {
  for (const command of [
    // detached: runs on in the container after the run
    "docker exec -d web sleep 999",
    "docker exec --detach web sleep 999",
    "docker compose exec -d web sleep 999",
    // the URI form names a port as -p does
    "ssh ssh://127.0.0.1:2222 id",
    "ssh -o BatchMode=yes ssh://root@127.0.0.1:6379 id",
  ]) {
    test(command, () => assert.notEqual(risk(command), "read_only"));
  }
  // Not detached either: the command there runs on when the client here is stopped, outside every
  // jail of oikos, so it asks (policy/runs-elsewhere.ts; jobs/ssh/outside-attack-effects.test.ts).
  for (const command of ["docker exec web ls", "ssh backup id"]) {
    test(`asks: ${command}`, () => assert.equal(risk(command), "config_mutation"));
  }
});

test("lsipc reads the machine's IPC namespace outside the jail (the jail has one of its own)", () => {
  const result = classifier.classify("lsipc", "host");
  assert.equal(result.risk, "read_only");
  assert.deepEqual(result.grants, [
    { resource: "unjailed", needs: "the machine's IPC namespace", spec: "lsipc" },
  ]);
});
