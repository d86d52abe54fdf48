import assert from "node:assert/strict";
import { test } from "node:test";
import {
  type ApprovalRule,
  groupKey,
  groupsFor,
  judgeVote,
  NO_QUORUM,
  quorumFor,
  quorumLine,
  tally,
} from "./quorum.ts";

const RULES: ApprovalRule[] = [
  { entities: ["host:nas", "lxc:storage-*"], risks: ["destructive"], approvals: 2, separateRequester: true },
  { room: "!ops", approvers: ["@carol", "@dave", "@alice"] },
  { room: "!ops", entities: ["host:nas"], approvers: ["@carol", "@dave", "@erin"] },
];

test("no rule matches: one operator decides", () => {
  assert.deepEqual(quorumFor(RULES, { room: "!lab", target: "lxc:web", risk: "destructive" }), NO_QUORUM);
  assert.deepEqual(quorumFor([], { room: "!ops", target: "host:nas", risk: "destructive" }), NO_QUORUM);
});

test("entity (exact and prefix), risk and room select rules; the strictest of each applies", () => {
  assert.deepEqual(quorumFor(RULES, { room: "!lab", target: "lxc:storage-2", risk: "destructive" }), {
    required: 2,
    separateRequester: true,
    approvers: null,
  });
  assert.deepEqual(
    quorumFor(RULES, { room: "!lab", target: "host:nas", risk: "config_mutation" }),
    NO_QUORUM,
  );
  assert.deepEqual(quorumFor(RULES, { room: "!ops", target: "host:nas", risk: "destructive" }), {
    required: 2,
    separateRequester: true,
    approvers: ["@carol", "@dave"],
  });
  assert.deepEqual(
    quorumFor([{ approvals: 9 }], { room: "r", target: "t", risk: "read_only" }).required,
    5,
    "at most five",
  );
});

const TWO_SEPARATE = { required: 2, separateRequester: true, approvers: null };

test("quorum 2: one approval waits, a second person completes it, the same person twice does not", () => {
  const first = judgeVote(TWO_SEPARATE, { voter: "@bob", earlier: [], requester: "@alice" });
  assert.deepEqual(first.kind === "counted" && [first.have, first.need, first.done], [1, 2, false]);
  assert.deepEqual(judgeVote(TWO_SEPARATE, { voter: "@bob", earlier: ["@bob"], requester: "@alice" }), {
    kind: "refused",
    why: "already_voted",
  });
  const second = judgeVote(TWO_SEPARATE, { voter: "@carol", earlier: ["@bob"], requester: "@alice" });
  assert.ok(second.kind === "counted" && second.done);
});

test("the requester alone can never complete it; with someone else they count", () => {
  const oneSeparate = { required: 1, separateRequester: true, approvers: null };
  const alone = judgeVote(oneSeparate, { voter: "@alice", earlier: [], requester: "@alice" });
  assert.ok(alone.kind === "counted" && !alone.done);
  assert.equal(alone.kind === "counted" && alone.need, 2, "one more person than the requester");
  const withBob = judgeVote(oneSeparate, { voter: "@bob", earlier: ["@alice"], requester: "@alice" });
  assert.ok(withBob.kind === "counted" && withBob.done);
  const requesterFirst = judgeVote(TWO_SEPARATE, { voter: "@alice", earlier: [], requester: "@alice" });
  assert.ok(requesterFirst.kind === "counted" && !requesterFirst.done);
  const thenBob = judgeVote(TWO_SEPARATE, { voter: "@bob", earlier: ["@alice"], requester: "@alice" });
  assert.ok(thenBob.kind === "counted" && thenBob.done, "requester + another person make two");
  const noSeparation = judgeVote(
    { required: 1, separateRequester: false, approvers: null },
    {
      voter: "@alice",
      earlier: [],
      requester: "@alice",
    },
  );
  assert.ok(noSeparation.kind === "counted" && noSeparation.done);
});

test("an approver group: others may not approve; the card names who is left", () => {
  const group = { required: 2, separateRequester: true, approvers: ["@carol", "@dave", "@alice"] };
  assert.deepEqual(judgeVote(group, { voter: "@mallory", earlier: [], requester: "@alice" }), {
    kind: "refused",
    why: "not_an_approver",
  });
  const first = tally(group, ["@carol"], "@alice");
  assert.deepEqual(
    first.waitingFor,
    { kind: "people", people: ["@dave"] },
    "not the requester, not who voted",
  );
  assert.equal(
    quorumLine(first.have, first.need, first.waitingFor),
    "1 of 2 approvals — waiting for one of @dave",
  );
  const open = tally(TWO_SEPARATE, ["@alice"], "@alice");
  assert.equal(
    quorumLine(open.have, open.need, open.waitingFor),
    "1 of 2 approvals — waiting for another operator (the requester cannot be the only approver)",
  );
  const nobody = tally({ required: 2, separateRequester: false, approvers: ["@carol"] }, ["@carol"], null);
  assert.match(quorumLine(nobody.have, nobody.need, nobody.waitingFor), /nobody left who may approve/);
});

test("approver groups: the adapter reads the members of the groups that apply; a rule's people and groups add up, rules intersect", () => {
  const moderators = { kind: "matrix_power_level", atLeast: 50 } as const;
  const oncall = { kind: "slack_usergroup", id: "S0ONCALL", name: "oncall" } as const;
  const rules: ApprovalRule[] = [
    { room: "!ops", approverGroups: [moderators], approvers: ["@alice"] },
    { room: "C0OPS", approverGroups: [oncall], approvals: 2 },
    { room: "C0OPS", entities: ["host:nas"], approvers: ["U0CAROL", "U0ERIN"] },
  ];
  const ops = { room: "!ops", target: "lxc:web", risk: "config_mutation" } as const;
  assert.deepEqual(groupsFor(rules, ops), [moderators]);
  assert.deepEqual(groupsFor(rules, { ...ops, room: "!lab" }), []);
  const members = new Map([[groupKey(moderators), ["@carol", "@dave"]]]);
  const quorum = quorumFor(rules, ops, members);
  assert.deepEqual(quorum, {
    required: 1,
    separateRequester: false,
    approvers: ["@alice", "@carol", "@dave"],
    groups: ["power level ≥ 50 in this room"],
  });
  assert.deepEqual(judgeVote(quorum, { voter: "@bob", earlier: [], requester: null }), {
    kind: "refused",
    why: "not_an_approver",
  });
  assert.equal(judgeVote(quorum, { voter: "@dave", earlier: [], requester: null }).kind, "counted");

  // A group the platform could not read lets nobody in through it (fail closed).
  const unread = quorumFor(rules, { room: "C0OPS", target: "lxc:web", risk: "destructive" });
  assert.deepEqual(unread.approvers, []);
  assert.equal(
    quorumLine(0, 2, tally(unread, [], null).waitingFor),
    "0 of 2 approvals — waiting for nobody left who may approve (Slack user group @oncall): deny it, or change approvals.rules",
  );
  // Rules intersect: on host:nas only the on-call members also named by the second rule.
  const nas = quorumFor(
    rules,
    { room: "C0OPS", target: "host:nas", risk: "destructive" },
    new Map([[groupKey(oncall), ["U0CAROL", "U0DAVE"]]]),
  );
  assert.deepEqual(nas.approvers, ["U0CAROL"]);
  const standing = tally(nas, [], null);
  assert.equal(
    quorumLine(standing.have, standing.need, standing.waitingFor),
    "0 of 2 approvals — waiting for one of U0CAROL (Slack user group @oncall)",
  );
});
