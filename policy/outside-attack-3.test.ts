import assert from "node:assert/strict";
import { test } from "node:test";
import { borrowAttacks, MUST_ASK, STILL_READ_ONLY } from "../test-support/oracle/outside-attack-3.ts";
import { loadClassifier } from "./classify.ts";
import { grantKey } from "./jail-grant.ts";

/** The third outside attack (test-support/oracle/outside-attack-3.ts); its execution oracle is jobs/ssh/jail-borrow.test.ts. */
const classifier = await loadClassifier();
const classify = (command: string) => classifier.classify(command, "host");

test("grants are per tool: no piece borrows another piece's network, socket or unjailed run", () => {
  const attacks = borrowAttacks();
  assert.ok(attacks.length >= 200, `${attacks.length} generated`);
  const borrowed = attacks.filter((command) => classify(command).risk === "read_only");
  assert.deepEqual(borrowed, []);
});

test("the refusal of a borrowed grant says to run the pieces separately", () => {
  const result = classify("docker ps >/dev/null 2>&1; psql -h /tmp/attack/sock/pg -c 'select 1'");
  assert.notEqual(result.risk, "read_only");
  assert.match(result.reasons[0] ?? "", /`psql` would run with socket:docker .* run `docker` on its own/);
});

test("the attacker's rows ask (git transports and URLs, clients aimed anywhere, DNS from outside the jail, pvesh handlers that act)", () => {
  const autoRun = MUST_ASK.filter((command) => classify(command).risk === "read_only");
  assert.deepEqual(autoRun, []);
  for (const [command, words] of [
    ["iptables -L", /use `iptables -L -n`/],
    ["git -C /r remote show origin", /add `-n`/],
    ["docker -H unix:///x ps", /run it without -H/],
    ["redis-cli -h 10.0.0.1 get k", /without -h/],
    ["pvesh get /nodes/x/scan/nfs", /\/cluster\/resources/],
  ] as const) {
    assert.match(classify(command).reasons[0] ?? "", words, command);
  }
});

test("look-alikes in the spelling the proof keeps still auto-run, each with its own grant", () => {
  const asked = STILL_READ_ONLY.filter((command) => classify(command).risk !== "read_only");
  assert.deepEqual(
    asked.map((command) => `${command}: ${classify(command).reasons[0]}`),
    [],
  );
  assert.deepEqual((classify("docker ps | grep web").grants ?? []).map(grantKey), ["socket:docker"]);
  assert.deepEqual((classify("iptables -L -n").grants ?? []).map(grantKey), [
    "unjailed:CAP_NET_ADMIN:iptables",
  ]);
});

test("systemd-cgls needs the machine's processes (jailed it printed an empty tree, exit 0): it says so", () => {
  assert.deepEqual((classify("systemd-cgls --no-pager").grants ?? []).map(grantKey), ["process_info"]);
});
