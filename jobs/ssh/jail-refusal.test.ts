import assert from "node:assert/strict";
import { test } from "node:test";
import type { ExecResult } from "./exec-result.ts";
import { jailRefusalNote } from "./jail-refusal.ts";

function jailed(stderr: string, exitCode = 1): ExecResult {
  return {
    exitCode,
    signal: null,
    stdout: "",
    stderr,
    outputBytes: stderr.length,
    truncated: false,
    durationMs: 1,
    timedOut: false,
    cancelled: false,
    jail: {
      state: "jailed",
      facts: { engine: "unshare", net: "private", pids: "pid_max:1024", scratch: "/var/local" },
    },
  };
}

test("EROFS as bash, coreutils and sed print it: the path, and that the command belongs in a plan", () => {
  const cases: [string, string | null][] = [
    ["bash: line 1: /var/lib/app/state: Read-only file system", "/var/lib/app/state"],
    ["touch: cannot touch '/etc/motd': Read-only file system", "/etc/motd"],
    ["mkdir: cannot create directory ‘/srv/new’: Read-only file system", "/srv/new"],
    ["sed: couldn't open temporary file /etc/sedAb12: Read-only file system", "/etc/sedAb12"],
    ["chattr: Read-only file system while setting flags on /etc/hosts", null],
  ];
  for (const [stderr, path] of cases) {
    const note = jailRefusalNote(jailed(`some noise\n${stderr}\n`));
    const what = path === null ? "a write" : `a write to ${path}`;
    assert.equal(
      note,
      `the read-only jail refused ${what}: this command changes the target — propose it in a plan`,
    );
  }
});

test("EPERM from a privileged operation is named as the jail's refusal", () => {
  const note = jailRefusalNote(jailed("mount: /mnt: must be superuser to use mount."));
  assert.match(note ?? "", /^the read-only jail refused an operation that needs privileges \(mount: \/mnt/);
});

test("nothing to say when it succeeded, was not jailed, or failed for another reason", () => {
  assert.equal(jailRefusalNote(jailed("bash: line 1: /x: Read-only file system", 0)), null);
  assert.equal(
    jailRefusalNote({ ...jailed("bash: line 1: /x: Read-only file system"), jail: undefined }),
    null,
  );
  assert.equal(jailRefusalNote(jailed("cat: /nope: No such file or directory")), null);
});
