import assert from "node:assert/strict";
import { test } from "node:test";
import { SYSCALL_EFFECTS, TRACED_SYSCALLS } from "./constants.ts";
import { judgeTrace } from "./judge.ts";
import { observe } from "./observe.ts";

// The one syscall table drives the trace list, the judge and the observed floor: every traced
// syscall that changes state must be a violation for the judge and raise the observed floor.
const START =
  '100 execve("/usr/bin/bash", ["/usr/bin/bash", "--noprofile", "--norc", "-c", "x"], 0x0 /* 1 var */) = 0';
const trace = (call: string) => `${START}\n101 ${call} = -1 EPERM (Operation not permitted)\n`;

test("every state-changing syscall in the table is a violation and raises the observed floor", () => {
  const changing = TRACED_SYSCALLS.filter((s) =>
    ["removes", "changes", "system", "powers"].includes(SYSCALL_EFFECTS[s]),
  );
  assert.ok(changing.length > 50);
  for (const syscall of changing) {
    const call = `${syscall}("/etc/hosts", 0)`;
    const judged = judgeTrace(trace(call), new Set());
    assert.equal(judged.violations.length, 1, `${syscall}: judged a violation`);
    const seen = observe(trace(call));
    assert.notEqual(seen.floor, "read_only", `${syscall}: observed floor`);
  }
  for (const syscall of TRACED_SYSCALLS.filter((s) => SYSCALL_EFFECTS[s] === "powers")) {
    assert.equal(observe(trace(`${syscall}(0)`)).floor, "destructive", syscall);
  }
});

test("signals: init and every process are destructive wherever the target sits in the arguments", () => {
  for (const call of [
    "kill(1, SIGTERM)",
    "tkill(1, SIGKILL)",
    "tgkill(1, 1, SIGTERM)",
    "kill(-1, SIGKILL)",
  ]) {
    assert.equal(observe(trace(call)).floor, "destructive", call);
    assert.equal(judgeTrace(trace(call), new Set()).violations.length, 1, call);
  }
  assert.equal(observe(trace("tgkill(101, 101, SIGTERM)")).floor, "read_only");
  assert.equal(judgeTrace(trace("kill(101, 0)"), new Set()).violations.length, 0);
});

test("reads and spawns are not violations; writes and unnamed programs are", () => {
  assert.equal(judgeTrace(trace('openat(AT_FDCWD, "/etc/hosts", O_RDONLY)'), new Set()).violations.length, 0);
  assert.equal(judgeTrace(trace("clone(child_stack=NULL, flags=SIGCHLD)"), new Set()).violations.length, 0);
  assert.equal(
    judgeTrace(trace('openat(AT_FDCWD, "/etc/hosts", O_WRONLY|O_TRUNC)'), new Set()).violations.length,
    1,
  );
  assert.equal(observe(trace('openat(AT_FDCWD, "/etc/hosts", O_WRONLY|O_TRUNC)')).floor, "destructive");
  assert.equal(judgeTrace(trace('execve("/usr/bin/rm", ["rm"], 0x0)'), new Set(["ls"])).violations.length, 1);
  assert.equal(judgeTrace(trace('execve("/usr/bin/ls", ["ls"], 0x0)'), new Set(["ls"])).violations.length, 0);
});
