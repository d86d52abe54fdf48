import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { loadClassifier } from "./classify.ts";
import { decideRun, type RunFacts } from "./decide-run.ts";
import type { JailFacts } from "./jail.ts";
import type { Classification } from "./risk.ts";
import {
  DEFAULT_GRANT_DAYS,
  findCoveringGrant,
  grantBasisOf,
  grantDurationMs,
  isGrantReaction,
  jailFingerprint,
  judgeGrant,
  MAX_GRANT_DAYS,
  parseGrantPhrase,
  type StandingGrantFacts,
  stableJson,
} from "./standing-grant.ts";

const classifier = await loadClassifier();
const DAY = 86_400_000;
const NOW = new Date("2026-12-02T10:00:00Z");
const TARGET = "lxc:bridges";
const COMMAND = "systemctl restart whatsapp-bridge";
const ROUTING = { transport: "ssh", slug: TARGET, ssh: { host: "10.0.0.5", port: 22, username: "root" } };
const JAIL: JailFacts = { mode: "auto", availability: { state: "available" } };

function basisOf(command = COMMAND, more: Partial<Parameters<typeof grantBasisOf>[0]> = {}) {
  return grantBasisOf({
    target: TARGET,
    command,
    classification: classifier.classify(command, "lxc"),
    affectsSelf: false,
    routing: ROUTING,
    jail: JAIL,
    ...more,
  });
}

function grantOf(command = COMMAND, more: Partial<StandingGrantFacts> = {}): StandingGrantFacts {
  const basis = basisOf(command);
  if (!basis.ok) throw new Error(`not grantable: ${basis.why}`);
  return {
    id: "g-1",
    basis: basis.basis,
    grantedBy: "@alice",
    expiresAt: new Date(NOW.getTime() + 7 * DAY),
    ended: false,
    ...more,
  };
}

function runFacts(command: string, more: Partial<RunFacts> = {}): RunFacts {
  return {
    command,
    targetSlug: TARGET,
    session: {
      state: "open",
      planState: "none",
      assentWindowOpen: false,
      destructiveWindowOpenForTarget: false,
      pendingApprovalExecutionId: null,
      failuresOfKey: 0,
      preplanReadOnlyCalls: 0,
    },
    target: {
      state: "runnable",
      entity: { slug: TARGET, type: "lxc", attributes: {} },
      candidates: [],
    },
    lint: classifier.lint(command),
    classification: classifier.classify(command, "lxc"),
    jail: JAIL,
    routing: ROUTING,
    standingGrants: [grantOf()],
    now: NOW,
    ...more,
  };
}

describe("what may be granted", () => {
  test("a config change is grantable and its basis names exactly the command, target, routing, proof", () => {
    const basis = basisOf();
    assert.ok(basis.ok);
    assert.equal(basis.basis.command, COMMAND);
    assert.equal(basis.basis.target, TARGET);
    assert.equal(basis.basis.risk, "config_mutation");
    assert.equal(basis.basis.routing, stableJson(ROUTING));
    assert.equal(basis.basis.jail, "not_jailed", "a change's grant does not hang on the jail's detection");
  });

  const refusals: [string, Parameters<typeof grantBasisOf>[0], string][] = [
    ["destructive", basisInput("zfs destroy tank/old"), "destructive"],
    ["rejected", basisInput('eval "$CMD"'), "rejected"],
    ["unreadable", basisInput("python3 -c 'import os'"), "unreadable"],
    ["a script handed to a shell", basisInput("bash ./deploy.sh"), "script_runner"],
    ["a sourced script", basisInput(". ./env.sh && systemctl restart x"), "script_runner"],
    ["affects oikos itself", { ...basisInput(COMMAND), affectsSelf: true }, "affects_self"],
    ["several lines", basisInput("systemctl restart a\nsystemctl restart b"), "multi_line"],
  ];
  for (const [name, input, why] of refusals) {
    test(`not grantable: ${name}`, () => {
      const basis = grantBasisOf(input);
      assert.equal(basis.ok, false);
      if (!basis.ok) assert.equal(basis.why, why);
    });
  }

  test("every refusal reason in a constructed classification", () => {
    const c = (risk: Classification["risk"], extra: Partial<Classification> = {}): Classification => ({
      risk,
      reasons: [],
      segments: [],
      commands: [],
      ...extra,
    });
    const input = (classification: Classification) => ({ ...basisInput(COMMAND), classification });
    assert.deepEqual(grantBasisOf(input(c("reject"))), { ok: false, why: "rejected" });
    assert.deepEqual(grantBasisOf(input(c("destructive"))), { ok: false, why: "destructive" });
    assert.deepEqual(grantBasisOf(input(c("destructive", { unreadable: "script_file" }))), {
      ok: false,
      why: "unreadable",
    });
    const readOnly = grantBasisOf(input(c("read_only")));
    assert.ok(
      readOnly.ok && readOnly.basis.jail === jailFingerprint(JAIL),
      "a read-only grant hangs on the jail",
    );
  });
});

function basisInput(command: string): Parameters<typeof grantBasisOf>[0] {
  return {
    target: TARGET,
    command,
    classification: classifier.classify(command, "lxc"),
    affectsSelf: false,
    routing: ROUTING,
    jail: JAIL,
  };
}

describe("judging a grant", () => {
  test("covers the same command, target, routing and proof while live", () => {
    assert.deepEqual(judgeGrant(grantOf(), basisOf(), NOW), { covers: true });
  });
  test("ended, expired, not grantable now", () => {
    assert.deepEqual(judgeGrant(grantOf(COMMAND, { ended: true }), basisOf(), NOW), {
      covers: false,
      miss: "ended",
    });
    assert.deepEqual(judgeGrant(grantOf(COMMAND, { expiresAt: NOW }), basisOf(), NOW), {
      covers: false,
      miss: "expired",
    });
    assert.deepEqual(judgeGrant(grantOf(), basisOf(COMMAND, { affectsSelf: true }), NOW), {
      covers: false,
      miss: "not_grantable",
    });
  });
  test("another target, another command", () => {
    assert.deepEqual(judgeGrant(grantOf(), basisOf(COMMAND, { target: "lxc:other" }), NOW), {
      covers: false,
      miss: "other_target",
    });
    assert.deepEqual(judgeGrant(grantOf(), basisOf("systemctl restart signal-bridge"), NOW), {
      covers: false,
      miss: "other_command",
    });
  });
  test("a routing change, a proof change, a jail change end the grant", () => {
    const rerouted = basisOf(COMMAND, { routing: { ...ROUTING, ssh: { ...ROUTING.ssh, host: "10.0.0.9" } } });
    assert.deepEqual(judgeGrant(grantOf(), rerouted, NOW), { covers: false, miss: "routing_changed" });
    const reread = basisOf(COMMAND, {
      classification: { ...classifier.classify(COMMAND, "lxc"), reasons: ["a new rule"] },
    });
    assert.deepEqual(judgeGrant(grantOf(), reread, NOW), { covers: false, miss: "proof_changed" });
    const readOnly = "cat /etc/hostname";
    const jailGrant = grantOf(readOnly);
    const unjailed = basisOf(readOnly, {
      jail: { ...JAIL, availability: { state: "unavailable", reason: "x" } },
    });
    assert.deepEqual(judgeGrant(jailGrant, unjailed, NOW), { covers: false, miss: "jail_changed" });
  });
  test("routing compared as values: key order does not matter, a missing key does", () => {
    const reordered = basisOf(COMMAND, { routing: { ssh: ROUTING.ssh, slug: TARGET, transport: "ssh" } });
    assert.deepEqual(judgeGrant(grantOf(), reordered, NOW), { covers: true });
    const fewer = basisOf(COMMAND, { routing: { slug: TARGET, transport: "ssh" } });
    assert.deepEqual(judgeGrant(grantOf(), fewer, NOW), { covers: false, miss: "routing_changed" });
  });
  test("findCoveringGrant: the live one covers, the changed ones are named to be ended", () => {
    const rerouted = { ...grantOf(), id: "g-old", basis: { ...grantOf().basis, routing: "{}" } };
    const found = findCoveringGrant([rerouted, grantOf()], basisOf(), NOW);
    assert.equal(found.covering?.id, "g-1");
    assert.deepEqual(
      found.killed.map((k) => [k.grant.id, k.miss]),
      [["g-old", "routing_changed"]],
    );
    const expired = findCoveringGrant([grantOf(COMMAND, { expiresAt: NOW })], basisOf(), NOW);
    assert.deepEqual(expired, { covering: null, killed: [] }, "an expired grant is not 'ended' by the gate");
  });
});

describe("the run gate with a grant", () => {
  test("the granted command runs with no plan and no approval; without the grant it needs a plan", () => {
    const allowed = decideRun(runFacts(COMMAND));
    assert.equal(allowed.kind, "allow");
    assert.ok(allowed.kind === "allow" && allowed.via === "standing_grant" && allowed.grant?.id === "g-1");
    const without = decideRun(runFacts(COMMAND, { standingGrants: [] }));
    assert.ok(without.kind === "refused" && without.code === "plan_required");
  });
  test("no clock, no grant (fails closed)", () => {
    const { now: _now, ...facts } = runFacts(COMMAND);
    const decided = decideRun(facts);
    assert.ok(decided.kind === "refused" && decided.code === "plan_required");
  });
  test("with an approved plan and a pending approval elsewhere in the session, the grant still runs it", () => {
    const facts = runFacts(COMMAND);
    const decided = decideRun({
      ...facts,
      session: {
        ...(facts.session as Extract<RunFacts["session"], { state: "open" }>),
        planState: "approved",
        pendingApprovalExecutionId: "ex-1",
      },
    });
    assert.ok(decided.kind === "allow" && decided.via === "standing_grant");
  });
  test("an unjailed read-only run the operator granted runs unasked; run_many never uses a grant", () => {
    const readOnly = "cat /etc/hostname";
    const noJail: JailFacts = {
      mode: "required",
      availability: { state: "unavailable", reason: "no userns" },
    };
    const granted = {
      ...grantOf(readOnly),
      basis: { ...grantOf(readOnly).basis, jail: jailFingerprint(noJail) },
    };
    const facts = runFacts(readOnly, { jail: noJail, standingGrants: [granted] });
    const decided = decideRun(facts);
    assert.ok(decided.kind === "allow" && decided.via === "standing_grant", JSON.stringify(decided));
    const fanOut = decideRun({ ...facts, readOnlyOnly: true });
    assert.ok(fanOut.kind === "refused" && fanOut.code === "jail_unavailable");
  });
});

/**
 * Attacking the gate: a grant of `systemctl restart whatsapp-bridge` on lxc:bridges, and every way
 * we could think of to have it cover another command. Each must not run under the grant.
 */
describe("a grant never widens (attacks)", () => {
  const attacks: [string, string, Partial<RunFacts>?][] = [
    ["other quoting", "systemctl restart 'whatsapp-bridge'"],
    ["double quotes", 'systemctl restart "whatsapp-bridge"'],
    ["a backslash", "systemctl restart whatsapp\\-bridge"],
    ["extra whitespace", "systemctl  restart whatsapp-bridge"],
    ["a trailing space", `${COMMAND} `],
    ["a leading space", ` ${COMMAND}`],
    ["an extra argument", `${COMMAND} signal-bridge`],
    ["an extra flag", `${COMMAND} --no-block`],
    ["a chained command", `${COMMAND}; rm -rf /srv`],
    ["an and-list", `${COMMAND} && systemctl stop sshd`],
    ["a pipe", `${COMMAND} | tee /etc/motd`],
    ["a background job", `${COMMAND} &`],
    ["an env assignment", `SYSTEMD_LOG_LEVEL=debug ${COMMAND}`],
    ["env(1)", `env PATH=/tmp ${COMMAND}`],
    ["sudo", `sudo ${COMMAND}`],
    ["an absolute path", "/bin/systemctl restart whatsapp-bridge"],
    ["another directory", `cd /tmp && ${COMMAND}`],
    ["a substitution", "systemctl restart $(echo whatsapp-bridge)"],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion, written as the shell reads it
    ["a variable", "systemctl restart ${SVC:-whatsapp-bridge}"],
    ["a glob", "systemctl restart whatsapp-bridg?"],
    ["a comment", `${COMMAND} # ok`],
    ["a newline", `${COMMAND}\nreboot`],
    ["a carriage return", `${COMMAND}\r`],
    ["unicode look-alike", "systemctl restart whatsapp‐bridge"],
    ["a NUL byte", `${COMMAND}\u0000`],
    ["bash -c", `bash -c '${COMMAND}'`],
    ["ssh to elsewhere", `ssh other ${COMMAND}`],
    ["stop instead of restart", "systemctl stop whatsapp-bridge"],
    ["upper case", "SYSTEMCTL restart whatsapp-bridge"],
    ["another target", COMMAND, { targetSlug: "lxc:storage" }],
    [
      "another target's entity",
      COMMAND,
      {
        targetSlug: "lxc:storage",
        target: {
          state: "runnable",
          entity: { slug: "lxc:storage", type: "lxc", attributes: {} },
          candidates: [],
        },
      },
    ],
    ["re-routed", COMMAND, { routing: { ...ROUTING, ssh: { ...ROUTING.ssh, host: "10.9.9.9" } } }],
    ["no routing", COMMAND, { routing: undefined }],
    ["touching oikos itself", COMMAND, { affectsSelf: true }],
    ["a fan-out", COMMAND, { readOnlyOnly: true }],
  ];
  for (const [name, command, more] of attacks) {
    test(`not under the grant: ${name}`, () => {
      const decided = decideRun(runFacts(command, more ?? {}));
      assert.ok(
        !(decided.kind === "allow" && decided.via === "standing_grant"),
        `${JSON.stringify(command)} ran under the grant`,
      );
    });
  }

  test("a grant never covers a destructive command, even one recorded as grantable", () => {
    const destructive = "zfs destroy tank/old";
    const forged: StandingGrantFacts = {
      ...grantOf(),
      basis: { ...grantOf().basis, command: destructive, proof: "forged" },
    };
    const decided = decideRun(runFacts(destructive, { standingGrants: [forged] }));
    assert.notEqual(decided.kind, "allow");
  });

  test("a grant row whose risk was read_only does not cover the same text read as a change now", () => {
    const lowered: StandingGrantFacts = { ...grantOf(), basis: { ...grantOf().basis, risk: "read_only" } };
    const decided = decideRun(runFacts(COMMAND, { standingGrants: [lowered] }));
    assert.ok(!(decided.kind === "allow" && decided.via === "standing_grant"));
  });
});

describe("how long, and the operator's words", () => {
  test("duration: default, asked, clamped to 1..90 days", () => {
    assert.equal(grantDurationMs(null), DEFAULT_GRANT_DAYS * DAY);
    assert.equal(grantDurationMs(null, 30), 30 * DAY);
    assert.equal(grantDurationMs(14), 14 * DAY);
    assert.equal(grantDurationMs(365), MAX_GRANT_DAYS * DAY);
    assert.equal(grantDurationMs(null, 1000), MAX_GRANT_DAYS * DAY);
    assert.equal(grantDurationMs(0), DAY);
    assert.equal(grantDurationMs(Number.NaN), DAY);
    assert.equal(grantDurationMs(2.7), 2 * DAY);
  });

  const phrases: [string, { days: number | null } | null][] = [
    ["allow always", { days: null }],
    ["Allow always.", { days: null }],
    ["approve always", { days: null }],
    ["always allow", { days: null }],
    ["always", { days: null }],
    ["♾️", { days: null }],
    ["♾", { days: null }],
    ["allow always for 30 days", { days: 30 }],
    ["allow always, 14d", { days: 14 }],
    ["allow for 3 days", { days: 3 }],
    ["grant it for 90 days", { days: 90 }],
    ["yes", null],
    ["approve", null],
    ["don't allow always", null],
    ["always ask me", null],
    ["allow always? not sure", null],
    ["never allow always", null],
    ["allow always for 1000 days", null],
    ["allow always rm -rf /", null],
  ];
  for (const [text, expected] of phrases) {
    test(`phrase ${JSON.stringify(text)}`, () => assert.deepEqual(parseGrantPhrase(text), expected));
  }

  test("reactions: ♾️ with and without its variation selector, Slack's name", () => {
    for (const key of ["♾️", "♾", ":infinity:", "infinity"]) assert.ok(isGrantReaction(key), key);
    for (const key of ["✅", "👍", "∞", "infinite"]) assert.ok(!isGrantReaction(key), key);
  });
});
