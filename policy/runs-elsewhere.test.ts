import assert from "node:assert/strict";
import { test } from "node:test";
import { loadClassifier } from "./classify.ts";
import { decideRun, type RunFacts } from "./decide-run.ts";
import { REFUSALS } from "./refusals.ts";
import type { RunsElsewhere } from "./runs-elsewhere.ts";

/**
 * What runs on another host, in a guest or a container runs outside every jail of oikos and on after
 * the client here is stopped (outside attack of 2026-12, second round; its execution oracle is
 * jobs/ssh/outside-attack-effects.test.ts): never auto-run, and the refusal says where to run it.
 */
const classifier = await loadClassifier();
const classify = (command: string) => classifier.classify(command, "host");

test("a read-only command run elsewhere asks (config_mutation), and says where, as data", () => {
  const cases: readonly [string, Omit<RunsElsewhere, "instead">, RunsElsewhere["instead"], RegExp][] = [
    [
      "ssh pve1 'echo started; sleep 290'",
      { via: "ssh", place: "pve1", command: "echo started; sleep 290" },
      "host_target",
      /run `echo started; sleep 290` on pve1 as its own target/,
    ],
    [
      "ssh -n root@nas zpool status",
      { via: "ssh", place: "nas", command: "zpool status" },
      "host_target",
      /on nas as its own target/,
    ],
    [
      "pct exec 101 -- cat /etc/os-release",
      { via: "pct exec", place: "101", command: "cat /etc/os-release" },
      "guest_target",
      /lxc:… entity, vmid 101.*jails inside the guest/,
    ],
    [
      "qm guest exec 100 -- uptime",
      { via: "qm guest exec", place: "100", command: "uptime" },
      "guest_target",
      /vm:… entity, vmid 100/,
    ],
    [
      "lxc-attach -n web -- ps aux",
      { via: "lxc-attach", place: "web", command: "ps aux" },
      "guest_target",
      /lxc:… entity for web/,
    ],
    [
      "docker exec -it web ls /",
      { via: "docker exec", place: "web", command: "ls /" },
      "ask",
      /no transport into a container/,
    ],
    [
      "docker compose exec -T db pg_isready",
      { via: "docker compose exec", place: "db", command: "pg_isready" },
      "ask",
      /no transport into a container/,
    ],
    [
      "kubectl exec -n prod -c app mypod -- ls",
      { via: "kubectl exec", place: "mypod", command: "ls" },
      "ask",
      /no transport into a pod/,
    ],
  ];
  for (const [command, where, instead, words] of cases) {
    const result = classify(command);
    assert.equal(result.risk, "config_mutation", command);
    assert.deepEqual(result.elsewhere, { ...where, instead }, command);
    assert.match(result.reasons[0] ?? "", /outside every jail of oikos/, command);
    assert.match(result.reasons[0] ?? "", words, command);
    assert.equal(result.grants, undefined, command);
  }
});

test("the inner command's own reading sets the risk: destructive stays destructive, unproven keeps its reason", () => {
  for (const command of [
    "ssh nas 'zfs destroy -r tank/old'",
    "pct exec 101 -- rm -rf /var/lib/mysql",
    "docker exec db rm -rf /data",
    "kubectl exec pod -- rm -rf /data",
    "lxc-attach -n web -- rm -rf /srv",
    // a watchdog opened there reboots that machine
    "ssh nas 'cat /dev/watchdog'",
  ]) {
    const result = classify(command);
    assert.equal(result.risk, "destructive", command);
    assert.equal(result.elsewhere, undefined, command);
  }
  const post = classify("ssh nas curl -X POST http://x/");
  assert.equal(post.risk, "config_mutation");
  assert.equal(post.elsewhere, undefined);
  assert.match(post.reasons[0] ?? "", /POST/);
});

const target = { slug: "host:pve1", type: "host", attributes: {} };
const facts = (command: string, more: Partial<RunFacts> = {}): RunFacts => ({
  command,
  targetSlug: target.slug,
  session: {
    state: "open",
    planState: "none",
    assentWindowOpen: false,
    destructiveWindowOpenForTarget: false,
    pendingApprovalExecutionId: null,
    failuresOfKey: 0,
    preplanReadOnlyCalls: 0,
  },
  target: { state: "runnable", entity: target, candidates: [] },
  lint: { ok: true },
  classification: classify(command),
  ...more,
});

test("the run gate's refusals carry where to run it instead (next step and detail)", () => {
  const command = "ssh nas 'zpool status -x'";
  const fanOut = decideRun(facts(command, { readOnlyOnly: true }));
  assert.equal(fanOut.kind, "refused");
  assert.ok(fanOut.kind === "refused");
  assert.equal(fanOut.code, "not_read_only");
  assert.match(
    fanOut.next_step,
    /^run `zpool status -x` on nas as its own target .* or use run for this command/,
  );
  assert.deepEqual(fanOut.detail?.runs_elsewhere, classify(command).elsewhere);

  const noPlan = decideRun(facts(command));
  assert.ok(noPlan.kind === "refused");
  assert.equal(noPlan.code, "plan_required");
  assert.ok(noPlan.next_step.startsWith("run `zpool status -x` on nas as its own target"), noPlan.next_step);
  assert.ok(noPlan.next_step.endsWith(REFUSALS.plan_required.nextStep), noPlan.next_step);

  // with an approved plan it is a change like any other: the operator's approval (no assent window open)
  const planned = decideRun(
    facts(command, {
      session: {
        ...(facts(command).session as Extract<RunFacts["session"], { state: "open" }>),
        planState: "approved",
      },
    }),
  );
  assert.equal(planned.kind, "needs_approval");

  // a command that does not run elsewhere keeps the table's next step
  const other = decideRun(facts("curl -X POST http://x/", { readOnlyOnly: true }));
  assert.ok(other.kind === "refused");
  assert.equal(other.next_step, REFUSALS.not_read_only.nextStep);
  assert.equal(other.detail, undefined);
});
