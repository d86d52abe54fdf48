import assert from "node:assert/strict";
import { test } from "node:test";
import { loadClassifier } from "../classify.ts";
import { ALL_RULES, DUPLICATE_NAMES, RULES } from "./index.ts";

const classifier = await loadClassifier();

test("no command name is claimed by two rules", () => {
  assert.deepEqual(DUPLICATE_NAMES, []);
});

test("every command family the classifier must cover has a rule", () => {
  const required = [
    "qm",
    "pct",
    "pvesh",
    "pvecm",
    "vzdump",
    "zfs",
    "zpool",
    "lvs",
    "lvremove",
    "docker",
    "docker-compose",
    "systemctl",
    "journalctl",
    "apt",
    "apt-get",
    "dpkg",
    "exportfs",
    "mount",
    "umount",
    "iptables",
    "nft",
    "ip",
    "rclone",
    "curl",
    "wget",
    "find",
    "sed",
    "awk",
    "git",
    "psql",
    "mysql",
    "cat",
    "ls",
    "stat",
    "df",
    "du",
    "grep",
    "head",
    "tail",
    "wc",
    "ps",
    "ss",
    "netstat",
    "free",
    "uptime",
    "hostname",
    "id",
    "whoami",
    "cp",
    "mv",
    "rm",
    "chmod",
    "chown",
    "mkdir",
    "ln",
    "touch",
    "truncate",
    "shred",
    "mkfs",
    "wipefs",
    "dd",
    "reboot",
    "shutdown",
    "kill",
    "pkill",
    "sudo",
    "env",
    "nice",
    "nohup",
    "timeout",
    "command",
    "exec",
    "xargs",
    "bash",
    "sh",
    "ssh",
    "kubectl",
    "tee",
    "sort",
    "eval",
  ];
  const missing = required.filter((name) => !RULES.has(name));
  assert.deepEqual(missing, []);
});

test("every rule carries at least one example", () => {
  for (const rule of ALL_RULES)
    assert.ok(rule.examples.length > 0, `rule for ${rule.names.join(", ")} has no examples`);
});

/**
 * A rule grades risk; the read-only proof (policy/proof/) decides whether read_only may stand. A
 * rule example the table calls read-only but the proof does not cover comes out config_mutation,
 * and only with the proof's reason: that is the one allowed difference.
 */
const UNPROVEN = "cannot be proven read-only";

for (const rule of ALL_RULES) {
  test(`rule examples: ${rule.names.slice(0, 4).join(", ")}`, (t) => {
    for (const [command, expected] of rule.examples) {
      const result = classifier.classify(command, "host");
      const unproven =
        expected === "read_only" &&
        result.risk === "config_mutation" &&
        result.reasons.some((reason) => reason.includes(UNPROVEN));
      if (unproven) {
        t.diagnostic(`rule-level read-only, not proven: ${command}`);
        continue;
      }
      assert.equal(result.risk, expected, `${command}\n  got ${result.risk}: ${result.reasons.join(" | ")}`);
      assert.ok(result.reasons.length > 0, `${command} has no reasons`);
    }
  });
}
