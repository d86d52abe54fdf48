import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { after, before, describe, test } from "node:test";
import { promisify } from "node:util";
import { hiddenByJail } from "../../policy/jail-hidden.ts";
import { DIAGNOSTICS } from "../../test-support/diagnostics/corpus.ts";
import { type DiagnosticsLab, startDiagnosticsLab } from "../../test-support/diagnostics/lab.ts";
import {
  KNOWN_DIFFERENCES,
  type Outcome,
  runDiagnosticsLab,
  SLOW,
} from "../../test-support/diagnostics/lab-outcomes.ts";
import { runInLab } from "../../test-support/diagnostics/lab-runner.ts";

/**
 * The daily-diagnostics corpus on real resources (issue #27): every row this machine can run, with
 * the grants the proof gives it, once unjailed and once in a jail of its own, as in production — on
 * a loop block device with a GPT and an ext4 filesystem, in a network namespace with a veth pair,
 * nftables and iptables rules, against a loopback HTTP listener and a tmux server (a Unix-socket
 * service). The oracle is the output; what each outcome means: test-support/diagnostics/lab-outcomes.ts.
 * A difference that the jailed result does not report in data is a silent lie and fails the test.
 */
const run = promisify(execFile);
const root = process.getuid?.() === 0;
const runAll = process.env.OIKOS_DIAGNOSTICS_ALL === "1";

describe("the daily diagnostics on real resources: jailed with the proof's grants vs unjailed", {
  skip: root ? false : "needs root (loop devices, a network namespace)",
}, () => {
  let lab: DiagnosticsLab;
  let outcomes: Outcome[] = [];
  let timing: [number, string][] = [];
  const tmuxSession = `oikos-diag-${process.pid}`;

  before(async () => {
    lab = await startDiagnosticsLab();
    await run("tmux", ["new-session", "-d", "-s", tmuxSession, "sleep 600"]).catch(() => {});
    ({ outcomes, timing } = await runDiagnosticsLab(lab, { all: runAll }));
  });
  after(async () => {
    await run("tmux", ["kill-session", "-t", tmuxSession]).catch(() => {});
    await lab?.stop();
  });

  test("no silent lie: every runnable row is the same, reported in data, fails closed or runs unjailed by name", (t) => {
    const by = (kind: Outcome["kind"]) => outcomes.filter((outcome) => outcome.kind === kind);
    const notHere = DIAGNOSTICS.filter((row) => row.lab.runs === "not_here");
    t.diagnostic(
      `${DIAGNOSTICS.length} rows: ${by("same").length} same, ${by("reported").length} reported, ${by("fails_closed").length} fail closed, ${by("unjailed_by_spec").length} unjailed by spec, ${by("not_installed").length} not installed, ${notHere.length} not runnable here`,
    );
    for (const outcome of outcomes) {
      const command = outcome.row.command;
      if (outcome.kind === "reported")
        t.diagnostic(`reported: ${command}: ${KNOWN_DIFFERENCES[command]?.why}`);
      if (outcome.kind === "fails_closed") t.diagnostic(`fails closed: ${command}: ${outcome.why}`);
      if (outcome.kind === "unjailed_by_spec")
        t.diagnostic(`unjailed (needs ${outcome.needs}): ${command}; jailed anyway: ${outcome.blindInJail}`);
      if (outcome.kind === "not_installed") t.diagnostic(`not installed here: ${command}`);
      if (outcome.kind === "asks") t.diagnostic(`asks (not proven read-only): ${command}: ${outcome.why}`);
    }
    for (const [ms, c] of timing.sort((a, b) => b[0] - a[0]).slice(0, 12))
      t.diagnostic(`${ms.toFixed(0)} ms ${c}`);
    if (!runAll)
      for (const [command, why] of Object.entries(SLOW))
        t.diagnostic(`sampled out (time): ${command}: ${why}`);
    const reasons = new Map<string, number>();
    for (const row of notHere)
      if (row.lab.runs === "not_here") reasons.set(row.lab.why, (reasons.get(row.lab.why) ?? 0) + 1);
    for (const [why, count] of reasons) t.diagnostic(`not runnable here (${count}): ${why}`);
    assert.deepEqual(
      by("silent_lie").map((outcome) =>
        outcome.kind === "silent_lie" ? `${outcome.row.command}: ${outcome.diff}` : "",
      ),
      [],
    );
  });

  test("the lab's resources are real and seen: the disk, the partition, the namespace's rules, the listener", () => {
    const same = new Set(outcomes.filter((o) => o.kind === "same").map((o) => o.row.command));
    for (const command of [
      "blkid",
      "lsblk -f",
      "fdisk -l /dev/sda",
      "sfdisk -d /dev/sda",
      "tune2fs -l /dev/sda1",
    ])
      assert.ok(same.has(command), `${command} did not read the same jailed`);
    for (const command of ["ip a", "ip route", "bridge link show", "ss -tln"])
      assert.ok(same.has(command), `${command} did not read the same jailed`);
    assert.ok(
      same.has("curl -sI https://pve.lan:8006/"),
      "the listener was not reached jailed with the network grant",
    );
    assert.ok(lab.requests() >= 4, `the listener answered ${lab.requests()} requests`);
    assert.ok(
      same.has("tmux ls"),
      "tmux ls did not list the lab's session jailed with the tmux socket grant",
    );
  });

  test("every unjailed-by-spec row that runs here is blind inside the jail (its spec's 'needs' is true)", () => {
    const seeing = outcomes.filter((o) => o.kind === "unjailed_by_spec" && o.blindInJail === "");
    assert.deepEqual(
      seeing.map((o) => o.row.command),
      [],
    );
  });

  test("the Unix-socket service is reached only through its grant", async () => {
    const plain = await runInLab("tmux ls", { jail: false });
    assert.match(plain.stdout, new RegExp(tmuxSession));
    const granted = await runInLab("tmux ls", {
      jail: true,
      grants: [{ resource: "socket", service: "tmux" }],
    });
    assert.equal(granted.stdout, plain.stdout);
    const hidden = await runInLab("tmux ls", { jail: true, grants: [] });
    assert.equal(hidden.jail?.state, "jailed");
    assert.doesNotMatch(hidden.stdout, new RegExp(tmuxSession), "tmux answered without its grant");
    assert.ok(
      hiddenByJail({ result: hidden, grants: [], net: "private" }).hidden.some(
        (item) => item.kind === "socket",
      ),
      `not reported: ${hidden.stderr}`,
    );
  });
});
