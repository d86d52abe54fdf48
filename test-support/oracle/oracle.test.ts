import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { loadClassifier } from "../../policy/classify.ts";
import { BUILTINS, type BuiltinCheck } from "../../policy/proof/builtins.ts";
import { checkClassifier, describeFindings } from "./check-classifier.ts";
import { generate } from "./fuzz.ts";
import { judgeTrace } from "./judge.ts";
import { OracleSandbox, oracleUnavailable } from "./sandbox.ts";

/**
 * The execution oracle: read_only claims checked by what the commands do. The fuzz count is
 * fixed for `npm test` (1,000: about 9 s of CPU; the suite is bound by its CPU); `ORACLE_FUZZ_COUNT`
 * raises it (the bench mode in bench/oracle.bench.ts runs more).
 */
const SEED = 16_2026;
const COUNT = Number(process.env.ORACLE_FUZZ_COUNT ?? 1000);
const unavailable = oracleUnavailable();
const classifier = await loadClassifier();
let sandbox: OracleSandbox | undefined;

before(async () => {
  if (!unavailable) sandbox = await OracleSandbox.start(2);
});
after(async () => {
  await sandbox?.close();
});

const MARKER =
  '9     execve("/usr/bin/bash", ["/usr/bin/bash", "--noprofile", "--norc", "-c", "x"], 0x1 /* 6 vars */) = 0';

test("the judge: writes, unnamed programs, signals outside the tree and reboots are violations", () => {
  const trace = [
    '9     execve("/usr/bin/prlimit", ["prlimit"], 0x1 /* 6 vars */) = 0',
    '9     openat(AT_FDCWD, "/proc/self/uid_map", O_WRONLY) = 3',
    MARKER,
    '9     openat(AT_FDCWD, "/dev/tty", O_RDWR|O_NONBLOCK) = -1 EACCES (Permission denied)',
    "9     clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|SIGCHLD, child_tidptr=0x7f) = 12",
    '12    execve("/usr/bin/touch", ["ls", "/tmp/x"], 0x5 /* 9 vars */) = 0',
    '12    openat(AT_FDCWD, "/tmp/x", O_WRONLY|O_CREAT|O_NOCTTY|O_NONBLOCK, 0666) = -1 EROFS (Read-only file system)',
    '12    openat(AT_FDCWD, "/dev/null", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3',
    "12    kill(12, SIGTERM)                 = 0",
    "12    kill(1, SIGKILL)                  = -1 EPERM (Operation not permitted)",
    "12    reboot(LINUX_REBOOT_MAGIC1, LINUX_REBOOT_MAGIC2, LINUX_REBOOT_CMD_RESTART) = -1 EPERM",
    '12    unlinkat(AT_FDCWD, "/etc/hosts", 0) = -1 EROFS (Read-only file system)',
  ].join("\n");
  const judgement = judgeTrace(trace, new Set(["ls"]));
  assert.equal(judgement.started, true);
  const why = judgement.violations.map((v) => v.why);
  assert.deepEqual(why, [
    "runs `touch`, which the classifier did not name",
    "opens `/tmp/x` for writing",
    "sends SIGKILL to process 1, outside its own tree",
    "reboot changes state",
    "unlinkat changes state",
  ]);
  assert.equal(judgeTrace(trace, new Set(["ls", "touch"])).violations.length, 4);
  assert.equal(judgeTrace("no marker here", new Set()).started, false);
});

test("the fuzzer is deterministic and covers the five classes", () => {
  const a = generate(SEED, 500);
  assert.deepEqual(a, generate(SEED, 500));
  const families = new Set(a.map((c) => c.family));
  for (const family of ["benign", "parse", "builtin", "environment", "flags", "destruction"]) {
    assert.ok(families.has(family as never), `no ${family} cases`);
  }
});

test("the sandbox observes attempts and lets none succeed", { skip: unavailable ?? false }, async () => {
  const runs = await (sandbox as OracleSandbox).run([
    "cat /etc/hostname",
    "echo x > /tmp/oracle-probe",
    "kill -9 1",
    "hash -p /usr/bin/touch ls; ls /tmp/oracle-probe",
    "sleep 30",
  ]);
  const [cat, write, kill, hash, sleep] = runs.map((run) =>
    judgeTrace(run.trace, new Set(["cat", "ls", "sleep"])),
  );
  assert.deepEqual(cat?.violations, []);
  assert.equal(cat?.started, true);
  assert.match(write?.violations[0]?.why ?? "", /opens `\/tmp\/oracle-probe` for writing/);
  assert.match(write?.violations[0]?.line ?? "", /EROFS/);
  assert.match(kill?.violations[0]?.why ?? "", /to process 1/);
  assert.match(hash?.violations[0]?.why ?? "", /runs `touch`/);
  assert.equal(runs[4]?.timedOut, true);
  assert.deepEqual(sleep?.violations, []);
});

test(`${COUNT} generated commands: no command classified read_only changes anything`, {
  skip: unavailable ?? false,
}, async (t) => {
  const cases = generate(SEED, COUNT);
  const report = await checkClassifier(classifier, sandbox as OracleSandbox, cases);
  t.diagnostic(
    `oracle: ${report.generated} generated, ${report.readOnly} distinct read_only executed, ` +
      `${report.timedOut} timed out, ${report.findings.length} findings; ${JSON.stringify(report.byFamily)}`,
  );
  assert.equal(report.generated, COUNT, "every generated command was classified");
  assert.ok(
    report.executed >= 300,
    `only ${report.executed} commands ran: the oracle must exercise the classifier`,
  );
  assert.deepEqual(report.notStarted, [], "every read_only command must reach the sandbox's bash");
  assert.equal(report.findings.length, 0, describeFindings(report.findings));
});

test("a planted weakness in the closed builtin set is caught by the oracle", {
  skip: unavailable ?? false,
}, async () => {
  const table = BUILTINS as Map<string, BuiltinCheck>;
  const original = { hash: table.get("hash"), printf: table.get("printf") };
  // The weakness: `hash` and `printf` join the closed set with their arguments unchecked.
  table.set("hash", () => null);
  table.set("printf", () => null);
  try {
    const cases = generate(SEED, COUNT).filter((c) => c.family === "builtin");
    const report = await checkClassifier(classifier, sandbox as OracleSandbox, cases);
    assert.ok(report.findings.length > 0, "the oracle must catch read_only commands that run programs");
    const commands = report.findings.map((f) => f.command).join("\n");
    assert.match(commands, /hash -p|printf -v/);
  } finally {
    table.set("hash", original.hash as BuiltinCheck);
    table.set("printf", original.printf as BuiltinCheck);
  }
});
