import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  defaultPushRules,
  evaluatePushRules,
  type PushContext,
  type PushRuleset,
  propertyAt,
} from "./push-rules.ts";

// The evaluator checked against the spec's own examples (push.md "Conditions", appendix
// "Dot-separated property paths"), so the notification test that uses it measures the spec.

const ALICE = "@alice:example.org";
const ctx: PushContext = {
  userId: ALICE,
  displayName: "Alice",
  memberCount: 4,
  powerLevels: { users: { "@admin:example.org": 100 }, users_default: 0 },
};

/** A ruleset of one override rule with `condition`: matched means the event notifies. */
const only = (condition: PushRuleset["override"][number]["conditions"]): PushRuleset => ({
  override: [{ rule_id: "t", default: false, enabled: true, conditions: condition, actions: ["notify"] }],
  content: [],
  room: [],
  sender: [],
  underride: [],
});
const matches = (rules: PushRuleset, event: Record<string, unknown>) =>
  evaluatePushRules(rules, { sender: "@bob:example.org", ...event }, ctx).rule === "t";

describe("push rule conditions, as the spec's examples", () => {
  test("event_match: the whole value, case-insensitive, `?` one character, `*` any", () => {
    const rules = only([{ kind: "event_match", key: "content.topic", pattern: "lunc?*" }]);
    assert.ok(matches(rules, { content: { topic: "Lunch plans" } }));
    assert.ok(matches(rules, { content: { topic: "LUNCH" } }));
    assert.ok(!matches(rules, { content: { topic: " lunch" } }), "a leading space");
    assert.ok(!matches(rules, { content: { topic: "lunc" } }), "? must match a character");
    assert.ok(!matches(rules, { content: { topic: null } }), "not a string");
    assert.ok(!matches(only([{ kind: "event_match", key: "content.topic", pattern: "*" }]), { content: {} }));
  });

  test("event_match on content.body: a substring between word boundaries", () => {
    const rules = only([{ kind: "event_match", key: "content.body", pattern: "ex*ple" }]);
    assert.ok(matches(rules, { content: { body: "An example event." } }));
    assert.ok(matches(rules, { content: { body: "exple" } }));
    assert.ok(matches(rules, { content: { body: "An exciting triple-whammy" } }));
    assert.ok(!matches(rules, { content: { body: "An examples" } }), "no boundary after the match");
  });

  test("event_property_is: exact scalar values, no casts", () => {
    const rules = only([{ kind: "event_property_is", key: "content.m\\.federate", value: true }]);
    assert.ok(matches(rules, { content: { "m.federate": true } }));
    assert.ok(!matches(rules, { content: { "m.federate": "true" } }));
    assert.ok(!matches(rules, { content: { "m.federate": 1 } }));
  });

  test("event_property_contains: an array holding the exact value", () => {
    const rules = only([
      { kind: "event_property_contains", key: "content.alt_aliases", value: "#myroom:example.com" },
    ]);
    assert.ok(
      matches(rules, { content: { alt_aliases: ["#somewhere:example.org", "#myroom:example.com"] } }),
    );
    assert.ok(!matches(rules, { content: { alt_aliases: [":example.com"] } }), "partial values do not match");
    assert.ok(!matches(rules, { content: { alt_aliases: "#myroom:example.com" } }), "not an array");
  });

  test("dot-separated paths: `\\.` is a dot in a name, `\\\\` a backslash", () => {
    const event = { content: { "m.relates_to": { rel_type: "m.replace" }, "m\\foo": 1 } };
    assert.equal(propertyAt(event, "content.m\\.relates_to.rel_type"), "m.replace");
    assert.equal(propertyAt(event, "content.m\\\\foo"), 1);
    assert.equal(propertyAt(event, "content.m.relates_to"), undefined);
  });

  test("room_member_count and sender_notification_permission", () => {
    assert.ok(matches(only([{ kind: "room_member_count", is: ">=4" }]), { content: {} }));
    assert.ok(!matches(only([{ kind: "room_member_count", is: "2" }]), { content: {} }));
    const permission = only([{ kind: "sender_notification_permission", key: "room" }]);
    assert.ok(!matches(permission, { content: {} }), "users_default 0 < the default 50");
    assert.ok(matches(permission, { sender: "@admin:example.org", content: {} }));
  });
});

describe("the server-default rules", () => {
  const evaluate = (content: Record<string, unknown>, type = "m.room.message") =>
    evaluatePushRules(defaultPushRules(ALICE), { type, sender: "@oikos:example.org", content }, ctx);

  test("a notice is suppressed before any mention rule: m.mentions on m.notice notifies nobody", () => {
    const verdict = evaluate({
      msgtype: "m.notice",
      body: "Alice, approve?",
      "m.mentions": { user_ids: [ALICE] },
    });
    assert.deepEqual(verdict, { rule: ".m.rule.suppress_notices", notify: false, highlight: false });
  });

  test("m.text naming the user in m.mentions notifies and highlights", () => {
    const verdict = evaluate({ msgtype: "m.text", body: "approve?", "m.mentions": { user_ids: [ALICE] } });
    assert.deepEqual(verdict, { rule: ".m.rule.is_user_mention", notify: true, highlight: true });
  });

  test("with m.mentions present, the display name in the body is not a mention (the legacy rules are off)", () => {
    const verdict = evaluate({ msgtype: "m.text", body: "Alice: look", "m.mentions": {} });
    assert.equal(verdict.rule, ".m.rule.message");
    assert.equal(verdict.highlight, false);
    const legacy = evaluate({ msgtype: "m.text", body: "Alice: look" });
    assert.equal(legacy.rule, ".m.rule.contains_display_name");
  });

  test("an edit mentioning nobody anew is suppressed; reactions too; the user's own events never notify", () => {
    const edit = (mentions: Record<string, unknown>) =>
      evaluate({
        msgtype: "m.text",
        body: "* x",
        "m.mentions": mentions,
        "m.new_content": { msgtype: "m.text", body: "x", "m.mentions": { user_ids: [ALICE] } },
        "m.relates_to": { rel_type: "m.replace", event_id: "$x" },
      });
    assert.deepEqual(edit({}), { rule: ".m.rule.suppress_edits", notify: false, highlight: false });
    assert.equal(edit({ user_ids: [ALICE] }).rule, ".m.rule.is_user_mention", "mention rules come first");
    assert.equal(evaluate({ "m.relates_to": { rel_type: "m.annotation" } }, "m.reaction").notify, false);
    const own = evaluatePushRules(
      defaultPushRules(ALICE),
      {
        type: "m.room.message",
        sender: ALICE,
        content: { msgtype: "m.text", body: "hi", "m.mentions": { user_ids: [ALICE] } },
      },
      ctx,
    );
    assert.equal(own.notify, false);
  });
});
