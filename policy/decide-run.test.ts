import assert from "node:assert/strict";
import { test } from "node:test";
import type { PlanState, RunDecision, RunFacts } from "./decide-run.ts";
import { confirmationPhrase, decideRun, destructiveAction, runGateOrder } from "./decide-run.ts";
import type { Risk } from "./risk.ts";

const base: RunFacts = {
  sessionKnown: true,
  risk: "read_only",
  reasons: ["`uptime` only reads (read-only)"],
  command: "uptime",
  targetSlug: "lxc:web",
  planState: "none",
  assentWindowOpen: false,
  destructiveWindowOpenForTarget: false,
  pendingApprovalExecutionId: null,
  failuresOfKey: 0,
  preplanReadOnlyCalls: 0,
};

function kind(decision: RunDecision): string {
  if (decision.decision === "refuse") return `refuse:${decision.code}`;
  if (decision.decision === "allow") return `allow:${decision.via}`;
  return decision.decision;
}

const CASES: readonly (readonly [string, Partial<RunFacts>, string])[] = [
  ["unknown session fails closed", { sessionKnown: false }, "refuse:session_unknown"],
  [
    "unknown session even for read-only with a plan",
    { sessionKnown: false, planState: "approved" },
    "refuse:session_unknown",
  ],
  ["rejected command", { risk: "reject", reasons: ["pipes into sh"] }, "refuse:command_rejected"],
  [
    "rejected even inside the assent window",
    { risk: "reject", planState: "approved", assentWindowOpen: true },
    "refuse:command_rejected",
  ],
  ["read-only before a plan", {}, "allow:read_only"],
  ["read-only before a plan at cap-1", { preplanReadOnlyCalls: 7 }, "allow:read_only"],
  ["read-only before a plan at the cap", { preplanReadOnlyCalls: 8 }, "refuse:preplan_cap"],
  ["custom pre-plan cap", { preplanReadOnlyCalls: 3, preplanReadOnlyCap: 3 }, "refuse:preplan_cap"],
  [
    "read-only with a proposed plan ignores the cap",
    { preplanReadOnlyCalls: 30, planState: "proposed" },
    "allow:read_only",
  ],
  ["read-only with an approved plan", { planState: "approved", preplanReadOnlyCalls: 30 }, "allow:read_only"],
  ["retry cap: third failure", { failuresOfKey: 3 }, "refuse:retry_cap"],
  [
    "retry cap beats an open window",
    { failuresOfKey: 5, risk: "config_mutation", planState: "approved", assentWindowOpen: true },
    "refuse:retry_cap",
  ],
  ["two failures still allowed", { failuresOfKey: 2 }, "allow:read_only"],
  ["config change without a plan", { risk: "config_mutation" }, "refuse:plan_required"],
  [
    "config change with a plan not yet approved",
    { risk: "config_mutation", planState: "proposed" },
    "refuse:plan_not_approved",
  ],
  [
    "config change in the assent window",
    { risk: "config_mutation", planState: "approved", assentWindowOpen: true },
    "allow:assent_window",
  ],
  [
    "config change, approved plan, window expired",
    { risk: "config_mutation", planState: "approved" },
    "needs_approval",
  ],
  [
    "config change while another approval is pending",
    { risk: "config_mutation", planState: "approved", pendingApprovalExecutionId: "ex-1" },
    "refuse:approval_pending",
  ],
  [
    "config change in window while another approval is pending",
    {
      risk: "config_mutation",
      planState: "approved",
      assentWindowOpen: true,
      pendingApprovalExecutionId: "ex-1",
    },
    "allow:assent_window",
  ],
  [
    "config change after a completed plan needs a new plan",
    { risk: "config_mutation", planState: "completed", assentWindowOpen: true },
    "refuse:plan_required",
  ],
  [
    "config change after a rejected plan",
    { risk: "config_mutation", planState: "rejected" },
    "refuse:plan_required",
  ],
  [
    "destructive without a plan",
    { risk: "destructive", command: "zfs destroy tank/a" },
    "refuse:plan_required",
  ],
  [
    "destructive never rides the assent window",
    { risk: "destructive", planState: "approved", assentWindowOpen: true, command: "zfs destroy tank/a" },
    "needs_typed_confirmation",
  ],
  [
    "destructive with its window open for this target",
    { risk: "destructive", planState: "approved", destructiveWindowOpenForTarget: true },
    "allow:destructive_window",
  ],
  [
    "destructive while another approval is pending",
    { risk: "destructive", planState: "approved", pendingApprovalExecutionId: "ex-9" },
    "refuse:approval_pending",
  ],
  [
    "destructive with a proposed plan",
    { risk: "destructive", planState: "proposed" },
    "refuse:plan_not_approved",
  ],
  [
    "affecting oikos itself needs typed confirmation even in windows",
    {
      risk: "config_mutation",
      planState: "approved",
      assentWindowOpen: true,
      destructiveWindowOpenForTarget: true,
      affectsSelf: true,
    },
    "needs_typed_confirmation",
  ],
];

for (const [name, facts, expected] of CASES) {
  test(`decideRun: ${name}`, () => {
    const decision = decideRun({ ...base, ...facts });
    assert.equal(kind(decision), expected, JSON.stringify(decision));
  });
}

test("decideRun invariants hold over every combination of facts", () => {
  const risks: Risk[] = ["read_only", "config_mutation", "destructive", "reject"];
  const plans: PlanState[] = ["none", "proposed", "approved", "rejected", "completed"];
  let combinations = 0;
  for (const sessionKnown of [true, false])
    for (const risk of risks)
      for (const planState of plans)
        for (const assentWindowOpen of [true, false])
          for (const destructiveWindowOpenForTarget of [true, false])
            for (const pendingApprovalExecutionId of [null, "ex-1"])
              for (const failuresOfKey of [0, 2, 3])
                for (const preplanReadOnlyCalls of [0, 8])
                  for (const affectsSelf of [false, true]) {
                    combinations++;
                    const facts: RunFacts = {
                      ...base,
                      sessionKnown,
                      risk,
                      planState,
                      assentWindowOpen,
                      destructiveWindowOpenForTarget,
                      pendingApprovalExecutionId,
                      failuresOfKey,
                      preplanReadOnlyCalls,
                      affectsSelf,
                    };
                    const d = decideRun(facts);
                    const label = JSON.stringify(facts);
                    if (d.decision === "refuse") {
                      assert.ok(
                        d.reason.length > 10 && d.nextStep.length > 10,
                        `refusal without guidance: ${label}`,
                      );
                    }
                    if (d.decision !== "allow") continue;
                    assert.ok(sessionKnown, `allowed without a session: ${label}`);
                    assert.notEqual(risk, "reject", label);
                    assert.ok(failuresOfKey < 3, `allowed past the retry cap: ${label}`);
                    assert.ok(!affectsSelf, `self-disrupting command allowed without confirmation: ${label}`);
                    if (risk === "config_mutation")
                      assert.ok(planState === "approved" && assentWindowOpen, label);
                    if (risk === "destructive") {
                      assert.equal(d.via, "destructive_window", label);
                      assert.ok(planState === "approved" && destructiveWindowOpenForTarget, label);
                    }
                  }
  assert.equal(combinations, 2 * 4 * 5 * 2 * 2 * 2 * 3 * 2 * 2);
});

test("typed confirmation phrase names the action and target and parses as typed consent grammar", () => {
  const d = decideRun({
    ...base,
    risk: "destructive",
    planState: "approved",
    command: "pct destroy 120",
    targetSlug: "host:hubris",
  });
  assert.equal(d.decision, "needs_typed_confirmation");
  if (d.decision === "needs_typed_confirmation") {
    assert.equal(d.phrase, "confirm destroy host:hubris");
    assert.match(d.reason, /pct destroy 120/);
  }
  assert.equal(destructiveAction("rm -rf /srv"), "delete");
  assert.equal(destructiveAction("mkfs.ext4 /dev/sdb"), "wipe");
  assert.equal(destructiveAction("systemctl reboot"), "reboot");
  assert.equal(destructiveAction("weird-thing"), "run");
  assert.equal(confirmationPhrase("zfs rollback tank@a", "host:nas"), "confirm rollback host:nas");
});

test("refusals name the command and the next correct action", () => {
  const retry = decideRun({ ...base, failuresOfKey: 3, command: "chown -R nobody /srv/nfs" });
  assert.equal(retry.decision, "refuse");
  if (retry.decision === "refuse") {
    assert.match(retry.reason, /chown -R nobody \/srv\/nfs/);
    assert.match(retry.nextStep, /investigate/);
    assert.match(retry.nextStep, /ask_operator/);
  }
  const pending = decideRun({
    ...base,
    risk: "config_mutation",
    planState: "approved",
    pendingApprovalExecutionId: "ex-42",
  });
  if (pending.decision === "refuse")
    assert.match(pending.nextStep, /wait for the operator to decide on execution ex-42/);
  else assert.fail("expected a refusal");
  const plan = decideRun({ ...base, risk: "config_mutation" });
  if (plan.decision === "refuse") assert.match(plan.nextStep, /propose_plan/);
  else assert.fail("expected a refusal");
});

test("runGateOrder lists the gates in ARCHITECTURE order", () => {
  assert.deepEqual(
    runGateOrder.map((gate) => gate.gate.split(" ")[0]),
    ["session", "target", "command", "target", "classifier", "retry", "plan", "risk:"],
  );
});
