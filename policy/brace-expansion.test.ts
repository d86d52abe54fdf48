import assert from "node:assert/strict";
import { test } from "node:test";
import { expandArgvBraces, expandBraceWord } from "./brace-expansion.ts";
import { loadClassifier } from "./classify.ts";

const classifier = await loadClassifier();
const classify = (command: string) => classifier.classify(command, "host");

test("brace expansion makes the words bash makes", () => {
  assert.deepEqual(expandBraceWord("{destroy,-r}"), ["destroy", "-r"]);
  assert.deepEqual(expandBraceWord("/d{e,}v/x"), ["/dev/x", "/dv/x"]);
  assert.deepEqual(expandBraceWord("{a,b}{c,d}"), ["ac", "ad", "bc", "bd"]);
  assert.deepEqual(expandBraceWord("x{a,{b,c}}y"), ["xay", "xby", "xcy"]);
  assert.deepEqual(expandBraceWord("{1..3}"), ["1", "2", "3"]);
  assert.deepEqual(expandBraceWord("{3..1}"), ["3", "2", "1"]);
  assert.deepEqual(expandBraceWord("{a..e..2}"), ["a", "c", "e"]);
  assert.deepEqual(expandBraceWord("{x}{,y}"), ["{x}", "{x}y"]);
  for (const literal of ["{}", "{a}", "a{b,c", "plain", ["$", "{x,y}"].join("")])
    assert.equal(expandBraceWord(literal), null, literal);
  assert.equal(expandBraceWord("{1..1000}"), null, "too many words: not expanded");
});

test("a verb or option spelled in braces is judged as the words bash runs", () => {
  for (const [command, risk] of [
    ["zfs {destroy,-r} tank/x", "destructive"],
    ["qm {stop,x} 100", "destructive"],
    ["pct {destroy,-h} 101", "destructive"],
    ["find {/tmp,-delete}", "destructive"],
    ["r{m,} -rf /srv/x", "destructive"],
    ["ip link set eth0 {up,down}", "config_mutation"],
  ] as const) {
    assert.equal(classify(command).risk, risk, command);
  }
  assert.equal(classify("ls {a,b}{c,d}").risk, "read_only");
});

test("brace text bash reads differently than a plain group is flagged uncertain, never judged as literal", () => {
  const plain = (raw: string) => ({ value: raw, raw, dynamic: "none" as const });
  for (const word of ["{x..},rm}", "{p#..},-i}", "{ab},c}", "x{},c}", "{+1..3}"]) {
    const expanded = expandArgvBraces([plain("env"), plain(word), plain("ls")]);
    assert.ok(expanded?.uncertain, word);
  }
  assert.deepEqual(
    expandArgvBraces([plain("ls"), plain("{,a}")])?.argv.map((a) => a.value),
    ["ls", "a"],
    "bash drops the empty word",
  );
  assert.equal(expandArgvBraces([plain("find"), plain("."), plain("-exec"), plain("{}")]), null);
  for (const command of [
    "sed -e {p#..},-i} /tmp/f",
    "env -u {x..},rm} ls /tmp/victim",
    "sort {x..},-o} out in",
  ]) {
    assert.notEqual(classify(command).risk, "read_only", command);
  }
});
