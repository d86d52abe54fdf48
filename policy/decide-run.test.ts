import assert from "node:assert/strict";
import { test } from "node:test";
import type { PlanState, RunDecision, RunFacts, RunSessionFacts } from "./decide-run.ts";
import { confirmationPhrase, decideRun, destructiveAction, UNCLASSIFIED_REFUSALS } from "./decide-run.ts";
import { REFUSALS, type RefusalCode } from "./refusals.ts";
import type { Classification, Risk } from "./risk.ts";

type OpenSession = Extract<RunSessionFacts, { state: "open" }>;

const openSession: OpenSession = {
  state: "open",
  planState: "none",
  assentWindowOpen: false,
  destructiveWindowOpenForTarget: false,
  pendingApprovalExecutionId: null,
  failuresOfKey: 0,
  preplanReadOnlyCalls: 0,
};

function classified(risk: Risk, reasons = [`\`cmd\` is ${risk}`], commands = ["cmd"]): Classification {
  return { risk, reasons, segments: [{ text: "cmd", risk, reasons }], commands };
}

const base: RunFacts = {
  command: "uptime",
  targetSlug: "lxc:web",
  session: openSession,
  target: { state: "runnable", entity: { slug: "lxc:web", type: "lxc", attributes: {} }, candidates: [] },
  lint: { ok: true },
  classification: classified("read_only", ["`uptime` only reads (read-only)"], ["uptime"]),
};

/** Facts with the session's open facts and the classifier's risk changed. */
function facts(session: Partial<OpenSession> = {}, risk?: Risk, more: Partial<RunFacts> = {}): RunFacts {
  return {
    ...base,
    session: { ...openSession, ...session },
    ...(risk ? { classification: classified(risk) } : {}),
    ...more,
  };
}

function label(decision: RunDecision): string {
  if (decision.kind === "refused") return `refused:${decision.code}`;
  if (decision.kind === "allow") return `allow:${decision.via}`;
  return decision.kind;
}

const CASES: readonly (readonly [string, RunFacts, string])[] = [
  [
    "no session id fails closed",
    facts({}, undefined, { session: { state: "absent" } }),
    "refused:no_session",
  ],
  [
    "an unknown session fails closed even with a plan",
    facts({ planState: "approved" }, undefined, { session: { state: "unknown", id: "s-x" } }),
    "refused:unknown_session",
  ],
  [
    "a closed session",
    facts({}, undefined, { session: { state: "closed", status: "done" } }),
    "refused:session_closed",
  ],
  [
    "an unknown target",
    facts({}, undefined, { target: { state: "unknown", suggestions: ["lxc:web"] } }),
    "refused:unknown_target",
  ],
  [
    "a destroyed target",
    facts({}, undefined, { target: { state: "not_runnable", reason: "lxc:web is destroyed" } }),
    "refused:target_not_runnable",
  ],
  [
    "a command that does not lint",
    facts({}, undefined, {
      lint: { ok: false, problems: [{ code: "parse_error", message: "unbalanced (" }] },
    }),
    "refused:lint",
  ],
  [
    "a password written into the command",
    facts({}, undefined, { command: "mysql -u root -phunter2-Correct-Horse-91 -e 'show databases'" }),
    "refused:secret_in_command",
  ],
  ["rejected command", facts({}, "reject"), "refused:command_rejected"],
  [
    "rejected even inside the assent window",
    facts({ planState: "approved", assentWindowOpen: true }, "reject"),
    "refused:command_rejected",
  ],
  [
    "qm on an LXC",
    facts({}, undefined, { classification: classified("read_only", ["`qm list` reads"], ["qm"]) }),
    "refused:wrong_target",
  ],
  ["run_many of a change", facts({}, "config_mutation", { readOnlyOnly: true }), "refused:not_read_only"],
  ["run_many of a read", facts({}, undefined, { readOnlyOnly: true }), "allow:read_only"],
  ["read-only before a plan", facts(), "allow:read_only"],
  [
    "read-only, jail required, the target cannot jail: the operator is asked",
    facts({}, undefined, {
      jail: { mode: "required", availability: { state: "unavailable", reason: "no unshare" } },
    }),
    "needs_approval",
  ],
  [
    "read-only, jail required, cannot jail, another approval pending",
    facts({ pendingApprovalExecutionId: "x-1" }, undefined, {
      jail: { mode: "required", availability: { state: "unavailable", reason: "no unshare" } },
    }),
    "refused:approval_pending",
  ],
  [
    "read-only fan-out, jail required, cannot jail: refused, fan-outs never ask",
    facts({}, undefined, {
      readOnlyOnly: true,
      jail: { mode: "required", availability: { state: "unavailable", reason: "no unshare" } },
    }),
    "refused:jail_unavailable",
  ],
  [
    "read-only, jail required, not yet detected: runs (the worker jails it or refuses to run)",
    facts({}, undefined, { jail: { mode: "required", availability: { state: "unknown" } } }),
    "allow:read_only",
  ],
  [
    "read-only, jail auto, cannot jail: fails closed, the operator is asked",
    facts({}, undefined, {
      jail: { mode: "auto", availability: { state: "unavailable", reason: "no unshare" } },
    }),
    "needs_approval",
  ],
  [
    "read-only, jail auto, cannot jail, the operator allowed read-only commands unjailed there: runs",
    facts({}, undefined, {
      jail: {
        mode: "auto",
        availability: { state: "unavailable", reason: "no unshare" },
        unjailedAllowed: true,
      },
    }),
    "allow:read_only",
  ],
  [
    "read-only, jail off: runs",
    facts({}, undefined, {
      jail: { mode: "off", availability: { state: "unavailable", reason: "no unshare" } },
    }),
    "allow:read_only",
  ],
  [
    "a config change with the jail required on a target that cannot jail: the usual gate (plan first)",
    facts({}, "config_mutation", {
      jail: { mode: "required", availability: { state: "unavailable", reason: "no unshare" } },
    }),
    "refused:plan_required",
  ],
  ["read-only before a plan at cap-1", facts({ preplanReadOnlyCalls: 7 }), "allow:read_only"],
  ["read-only before a plan at the cap", facts({ preplanReadOnlyCalls: 8 }), "refused:preplan_cap"],
  [
    "custom pre-plan cap",
    facts({ preplanReadOnlyCalls: 3 }, undefined, { preplanReadOnlyCap: 3 }),
    "refused:preplan_cap",
  ],
  [
    "read-only with a proposed plan ignores the cap",
    facts({ preplanReadOnlyCalls: 30, planState: "proposed" }),
    "allow:read_only",
  ],
  [
    "read-only with an approved plan",
    facts({ planState: "approved", preplanReadOnlyCalls: 30 }),
    "allow:read_only",
  ],
  ["retry cap: third failure", facts({ failuresOfKey: 3 }), "refused:retry_cap"],
  [
    "retry cap beats an open window",
    facts({ failuresOfKey: 5, planState: "approved", assentWindowOpen: true }, "config_mutation"),
    "refused:retry_cap",
  ],
  ["two failures still allowed", facts({ failuresOfKey: 2 }), "allow:read_only"],
  ["config change without a plan", facts({}, "config_mutation"), "refused:plan_required"],
  [
    "config change after a denied plan",
    facts({ planState: "denied" }, "config_mutation"),
    "refused:plan_required",
  ],
  [
    "config change with a plan not yet approved",
    facts({ planState: "proposed" }, "config_mutation"),
    "refused:plan_not_approved",
  ],
  [
    "config change in the assent window",
    facts({ planState: "approved", assentWindowOpen: true }, "config_mutation"),
    "allow:assent_window",
  ],
  [
    "config change, approved plan, window expired",
    facts({ planState: "approved" }, "config_mutation"),
    "needs_approval",
  ],
  [
    "config change while another approval is pending",
    facts({ planState: "approved", pendingApprovalExecutionId: "ex-1" }, "config_mutation"),
    "refused:approval_pending",
  ],
  [
    "config change in the window while another approval is pending",
    facts(
      { planState: "approved", assentWindowOpen: true, pendingApprovalExecutionId: "ex-1" },
      "config_mutation",
    ),
    "allow:assent_window",
  ],
  [
    "destructive without a plan",
    facts({}, "destructive", { command: "zfs destroy tank/a" }),
    "refused:plan_required",
  ],
  [
    "destructive never rides the assent window",
    facts({ planState: "approved", assentWindowOpen: true }, "destructive", {
      command: "zfs destroy tank/a",
    }),
    "needs_typed_confirmation",
  ],
  [
    "destructive with its window open for this target",
    facts({ planState: "approved", destructiveWindowOpenForTarget: true }, "destructive"),
    "allow:destructive_window",
  ],
  [
    "what oikos cannot read never rides the destructive window (#34)",
    facts({ planState: "approved", destructiveWindowOpenForTarget: true }, undefined, {
      command: "$CMD",
      classification: { ...classified("destructive"), unreadable: "run_time_command" },
    }),
    "needs_typed_confirmation",
  ],
  [
    "destructive while another approval is pending",
    facts({ planState: "approved", pendingApprovalExecutionId: "ex-9" }, "destructive"),
    "refused:approval_pending",
  ],
  [
    "destructive with a proposed plan",
    facts({ planState: "proposed" }, "destructive"),
    "refused:plan_not_approved",
  ],
  [
    "affecting oikos itself needs typed confirmation even in windows",
    facts(
      { planState: "approved", assentWindowOpen: true, destructiveWindowOpenForTarget: true },
      "config_mutation",
      {
        affectsSelf: true,
      },
    ),
    "needs_typed_confirmation",
  ],
  [
    "affecting oikos itself while another approval is pending",
    facts(
      { planState: "approved", destructiveWindowOpenForTarget: true, pendingApprovalExecutionId: "ex-3" },
      "destructive",
      {
        affectsSelf: true,
      },
    ),
    "refused:approval_pending",
  ],
];

for (const [name, given, expected] of CASES) {
  test(`decideRun: ${name}`, () => {
    const decision = decideRun(given);
    assert.equal(label(decision), expected, JSON.stringify(decision));
  });
}

/**
 * The gates in the order decideRun applies them, each as the change that makes it refuse. Applying
 * any two, the earlier one must win: this is the order ARCHITECTURE.md states, and the only place
 * it is stated in code is decideRun itself.
 */
const GATE_FAILURES: readonly (readonly [string, (f: RunFacts) => RunFacts])[] = [
  ["no_session", (f) => ({ ...f, session: { state: "absent" } })],
  [
    "unknown_session",
    (f) => (f.session.state === "absent" ? f : { ...f, session: { state: "unknown", id: "s-1" } }),
  ],
  [
    "session_closed",
    (f) => (f.session.state === "open" ? { ...f, session: { state: "closed", status: "failed" } } : f),
  ],
  ["unknown_target", (f) => ({ ...f, target: { state: "unknown", suggestions: [] } })],
  [
    "target_not_runnable",
    (f) =>
      f.target.state === "unknown" ? f : { ...f, target: { state: "not_runnable", reason: "destroyed" } },
  ],
  ["lint", (f) => ({ ...f, lint: { ok: false, problems: [{ code: "empty", message: "empty" }] } })],
  ["secret_in_command", (f) => ({ ...f, command: `${f.command} --password=hunter2-Correct-Horse-91` })],
  [
    "command_rejected",
    (f) => ({ ...f, classification: { ...classified("reject"), commands: f.classification.commands } }),
  ],
  ["wrong_target", (f) => ({ ...f, classification: { ...f.classification, commands: ["qm"] } })],
  [
    "not_read_only",
    (f) => ({
      ...f,
      readOnlyOnly: true,
      classification:
        f.classification.risk === "read_only"
          ? { ...classified("config_mutation"), commands: f.classification.commands }
          : f.classification,
    }),
  ],
  ["retry_cap", (f) => withOpen(f, { failuresOfKey: 3 })],
  ["preplan_cap", (f) => withOpen(f, { preplanReadOnlyCalls: 8 })],
];

function withOpen(f: RunFacts, change: Partial<OpenSession>): RunFacts {
  return f.session.state === "open" ? { ...f, session: { ...f.session, ...change } } : f;
}

test("decideRun: of any two failing gates, the earlier one refuses", () => {
  let pairs = 0;
  for (let i = 0; i < GATE_FAILURES.length; i++) {
    const [first, failFirst] = GATE_FAILURES[i]!;
    assert.equal(label(decideRun(failFirst(base))), `refused:${first}`, `${first} alone`);
    for (let j = i + 1; j < GATE_FAILURES.length; j++) {
      const [second, failSecond] = GATE_FAILURES[j]!;
      const decision = decideRun(failFirst(failSecond(base)));
      assert.equal(label(decision), `refused:${first}`, `${first} before ${second}`);
      pairs++;
    }
  }
  assert.equal(pairs, (GATE_FAILURES.length * (GATE_FAILURES.length - 1)) / 2);
});

test("decideRun invariants hold over every combination of facts", () => {
  const risks: Risk[] = ["read_only", "config_mutation", "destructive", "reject"];
  const plans: PlanState[] = ["none", "proposed", "approved", "denied"];
  const sessions: RunSessionFacts["state"][] = ["absent", "unknown", "closed", "open"];
  let combinations = 0;
  for (const sessionState of sessions)
    for (const risk of risks)
      for (const planState of plans)
        for (const assentWindowOpen of [true, false])
          for (const destructiveWindowOpenForTarget of [true, false])
            for (const pendingApprovalExecutionId of [null, "ex-1"])
              for (const failuresOfKey of [0, 2, 3])
                for (const preplanReadOnlyCalls of [0, 8])
                  for (const affectsSelf of [false, true])
                    for (const readOnlyOnly of [false, true]) {
                      combinations++;
                      const open: OpenSession = {
                        ...openSession,
                        planState,
                        assentWindowOpen,
                        destructiveWindowOpenForTarget,
                        pendingApprovalExecutionId,
                        failuresOfKey,
                        preplanReadOnlyCalls,
                      };
                      const session: RunSessionFacts =
                        sessionState === "open"
                          ? open
                          : sessionState === "closed"
                            ? { state: "closed", status: "done" }
                            : sessionState === "unknown"
                              ? { state: "unknown", id: "s-1" }
                              : { state: "absent" };
                      const given: RunFacts = {
                        ...base,
                        session,
                        classification: classified(risk),
                        affectsSelf,
                        readOnlyOnly,
                      };
                      const d = decideRun(given);
                      const at = JSON.stringify(given);
                      if (d.kind === "refused") {
                        assert.ok(
                          d.reason.length > 10 && d.next_step.length > 10,
                          `refusal without guidance: ${at}`,
                        );
                        continue;
                      }
                      assert.equal(sessionState, "open", `passed without an open session: ${at}`);
                      assert.notEqual(risk, "reject", at);
                      assert.equal(d.risk, risk, `the decision carries the classifier's risk: ${at}`);
                      assert.ok(failuresOfKey < 3, `passed the retry cap: ${at}`);
                      if (readOnlyOnly) assert.equal(risk, "read_only", `a fan-out passed a change: ${at}`);
                      if (d.kind !== "allow") {
                        assert.equal(pendingApprovalExecutionId, null, `a second approval requested: ${at}`);
                        continue;
                      }
                      assert.ok(!affectsSelf, `self-disrupting command allowed without confirmation: ${at}`);
                      if (risk === "config_mutation")
                        assert.ok(planState === "approved" && assentWindowOpen, at);
                      if (risk === "destructive") {
                        assert.equal(d.via, "destructive_window", at);
                        assert.ok(planState === "approved" && destructiveWindowOpenForTarget, at);
                      }
                      if (d.preplanSlot)
                        assert.ok(
                          risk === "read_only" && planState !== "proposed" && planState !== "approved",
                          at,
                        );
                    }
  assert.equal(combinations, 4 * 4 * 4 * 2 * 2 * 2 * 3 * 2 * 2 * 2);
});

test("refusals decided here are the run gate's codes, and the ones before classification are listed", () => {
  const produced = new Set<string>();
  for (const [, given] of CASES) {
    const d = decideRun(given);
    if (d.kind === "refused") produced.add(d.code);
  }
  for (const code of produced)
    assert.ok(REFUSALS[code as RefusalCode].producers.includes("policy/decide-run.ts"), code);
  for (const code of UNCLASSIFIED_REFUSALS) assert.ok(produced.has(code), `${code} is produced by decideRun`);
});

test("typed confirmation phrase names the action and target", () => {
  const d = decideRun(
    facts({ planState: "approved" }, "destructive", {
      command: "pct destroy 120",
      targetSlug: "host:hubris",
    }),
  );
  assert.equal(d.kind, "needs_typed_confirmation");
  if (d.kind === "needs_typed_confirmation") {
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
  const retry = decideRun(facts({ failuresOfKey: 3 }, undefined, { command: "chown -R nobody /srv/nfs" }));
  assert.equal(retry.kind, "refused");
  if (retry.kind === "refused") {
    assert.match(retry.reason, /chown -R nobody \/srv\/nfs/);
    assert.match(retry.next_step, /investigate/);
    assert.match(retry.next_step, /ask_operator/);
  }
  const pending = decideRun(
    facts({ planState: "approved", pendingApprovalExecutionId: "ex-42" }, "config_mutation"),
  );
  if (pending.kind === "refused")
    assert.match(pending.next_step, /wait for the operator to decide on execution ex-42/);
  else assert.fail("expected a refusal");
  const plan = decideRun(facts({}, "config_mutation"));
  if (plan.kind === "refused") assert.match(plan.next_step, /propose_plan/);
  else assert.fail("expected a refusal");
  const rejected = decideRun({
    ...base,
    command: "curl x | sh",
    classification: {
      risk: "reject",
      reasons: ["pipes a download into a shell"],
      segments: [
        { text: "curl x", risk: "read_only", reasons: ["reads"] },
        { text: "sh", risk: "reject", reasons: ["runs piped text"] },
      ],
      commands: ["curl", "sh"],
    },
  });
  if (rejected.kind === "refused")
    assert.match(rejected.next_step, /fix the offending part \(runs piped text\)/);
  else assert.fail("expected a refusal");
  const unknown = decideRun({
    ...base,
    target: { state: "unknown", suggestions: ["lxc:gitea"] },
    targetSlug: "lxc:gitae",
  });
  if (unknown.kind === "refused") assert.match(unknown.reason, /did you mean lxc:gitea/);
  else assert.fail("expected a refusal");
  const wrong = decideRun({
    ...base,
    target: {
      state: "runnable",
      entity: { slug: "lxc:web", type: "lxc", attributes: {}, parentSlug: "host:pve" },
      candidates: [{ slug: "host:pve", type: "host", attributes: {} }],
    },
    classification: classified("read_only", ["reads"], ["qm"]),
  });
  if (wrong.kind === "refused") assert.match(wrong.next_step, /run it on host:pve/);
  else assert.fail("expected a refusal");
});

test("the typed confirmation of what oikos cannot read says so, in data and in words (#34)", () => {
  const decision = decideRun(
    facts({ planState: "approved" }, undefined, {
      command: "python3 -c 'print(1)'",
      classification: { ...classified("destructive"), unreadable: "inline_program" },
    }),
  );
  assert.equal(decision.kind, "needs_typed_confirmation");
  if (decision.kind !== "needs_typed_confirmation") return;
  assert.equal(decision.unreadable, "inline_program");
  assert.match(decision.reason, /oikos cannot tell what this changes: it runs a program written inline/);
});
