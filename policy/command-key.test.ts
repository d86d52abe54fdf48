import assert from "node:assert/strict";
import { test } from "node:test";
import { canonicalCommand, commandKey } from "./command-key.ts";

const SAME: readonly (readonly [string, string])[] = [
  ['echo "a b"', "echo 'a b'"],
  ['echo "a b"', "echo a\\ b"],
  ["ls   -la    /srv", "ls -la /srv"],
  ["  ls -la  ", "ls -la"],
  ["ls;ls", "ls ; ls"],
  ["ls&&df -h", "ls && df -h"],
  ["cat x|grep y", "cat x | grep y"],
  ["chown -R a:b /srv/x", "chown -R 'a:b' \"/srv/x\""],
  ["ls \\\n  -la", "ls -la"],
  ["ls\ndf", "ls; df"],
  ["ls;", "ls"],
  ["echo 'it''s'", "echo its"],
  ['echo "$HOME"', "echo $HOME"],
  ["docker compose logs --tail=50 # recent", "docker compose logs --tail=50"],
  ["'rm' -rf /tmp/x", "rm -rf /tmp/x"],
];

const DIFFERENT: readonly (readonly [string, string])[] = [
  ["echo '$HOME'", "echo $HOME"],
  ["echo '*'", "echo *"],
  ["ls -la", "ls -al"],
  ["ls /srv", "ls /srv/"],
  ["echo 'a b'", "echo a b"],
  ["rm -rf /tmp/x", "rm -rf /tmp/y"],
  ["ls | grep x", "ls ; grep x"],
];

for (const [a, b] of SAME) {
  test(`same retry key: ${JSON.stringify(a)} == ${JSON.stringify(b)}`, () => {
    assert.equal(
      commandKey("lxc:web", a),
      commandKey("lxc:web", b),
      `${canonicalCommand(a)} vs ${canonicalCommand(b)}`,
    );
  });
}

for (const [a, b] of DIFFERENT) {
  test(`different retry key: ${JSON.stringify(a)} != ${JSON.stringify(b)}`, () => {
    assert.notEqual(
      commandKey("lxc:web", a),
      commandKey("lxc:web", b),
      `${canonicalCommand(a)} vs ${canonicalCommand(b)}`,
    );
  });
}

test("the key is a sha256 hex digest and depends on the target", () => {
  const key = commandKey("lxc:web", "uptime");
  assert.match(key, /^[0-9a-f]{64}$/);
  assert.notEqual(key, commandKey("lxc:db", "uptime"));
  assert.equal(key, commandKey(" LXC:web ", "uptime"));
});
