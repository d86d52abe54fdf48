import assert from "node:assert/strict";
import { test } from "node:test";
import {
  buttonToInbound,
  commandToInbound,
  isDirectMessage,
  messageToInbound,
  reactionToInbound,
} from "./inbound-events.ts";

const ctx = { selfId: "UBOT", served: (c: string) => c === "C1", requireMention: false };
const message = (extra: Record<string, unknown>) => ({
  type: "message",
  channel: "C1",
  channel_type: "channel",
  user: "U1",
  text: "hi",
  ts: "1700000001.000001",
  ...extra,
});

test("only a person's message in a served channel is a request", () => {
  assert.ok(messageToInbound(message({}), ctx));
  assert.equal(messageToInbound(message({ channel: "C2" }), ctx), undefined, "unserved channel");
  assert.equal(
    messageToInbound(message({ channel: "D1", channel_type: "im" }), { ...ctx, served: () => true }),
    undefined,
    "a DM",
  );
  assert.equal(messageToInbound(message({ bot_id: "B1" }), ctx), undefined, "another bot");
  assert.equal(messageToInbound(message({ user: "UBOT" }), ctx), undefined, "itself");
  assert.equal(messageToInbound(message({ subtype: "message_changed" }), ctx), undefined, "an edit");
  assert.equal(messageToInbound(message({ subtype: "channel_join" }), ctx), undefined, "a join");
  assert.ok(messageToInbound(message({ subtype: "thread_broadcast", thread_ts: "1700000000.000001" }), ctx));
  assert.equal(messageToInbound({ type: "message", channel: "C1" }, ctx), undefined, "malformed");
});

test("the message and its app_mention twin are one event; a thread reply keeps its root", () => {
  const plain = messageToInbound(message({ text: "<@UBOT> go" }), ctx);
  const twin = messageToInbound({ ...message({ text: "<@UBOT> go" }), type: "app_mention" }, ctx);
  assert.equal(plain?.eventId, twin?.eventId);
  const reply = messageToInbound(message({ thread_ts: "1700000000.000001" }), ctx);
  assert.equal(reply?.kind === "message" && reply.thread, "1700000000.000001");
});

test("require-mention marks whether the bot was addressed", () => {
  const strict = { ...ctx, requireMention: true };
  const asked = messageToInbound(message({ text: "<@UBOT> go" }), strict);
  const chatter = messageToInbound(message({ text: "lunch?" }), strict);
  assert.equal(asked?.kind === "message" && asked.addressed, true);
  assert.equal(chatter?.kind === "message" && chatter.addressed, false);
  assert.equal(
    messageToInbound(message({}), ctx)?.kind === "message" &&
      "addressed" in messageToInbound(message({}), ctx)!,
    false,
  );
});

test("reactions: skin tones dropped, the bot's own ignored, only messages", () => {
  const reaction = (extra: Record<string, unknown>) => ({
    type: "reaction_added",
    user: "U1",
    reaction: "+1::skin-tone-5",
    item: { type: "message", channel: "C1", ts: "1700000001.000001" },
    event_ts: "1700000002.000001",
    ...extra,
  });
  const r = reactionToInbound(reaction({}), "Ev1", ctx);
  assert.equal(r?.kind === "reaction" && r.key, "+1");
  assert.equal(reactionToInbound(reaction({ user: "UBOT" }), "Ev2", ctx), undefined);
  assert.equal(reactionToInbound(reaction({ item: { type: "file", file: "F1" } }), "Ev3", ctx), undefined);
});

test("buttons: only our action ids with a known choice", () => {
  const click = (actionId: string) => ({
    type: "block_actions",
    user: { id: "U1" },
    channel: { id: "C1" },
    container: { type: "message", message_ts: "1700000001.000001", channel_id: "C1" },
    actions: [{ action_id: actionId, action_ts: "1700000003.000001" }],
  });
  assert.equal(buttonToInbound(click("oikos:approve"))?.action, "approve");
  assert.equal(buttonToInbound(click("oikos:option:3"))?.action, "option:3");
  assert.equal(buttonToInbound(click("oikos:rollback"))?.action, "rollback");
  for (const bad of ["oikos:delete", "oikos:option:0", "oikos:option:x", "approve", "oikos:"])
    assert.equal(buttonToInbound(click(bad)), undefined, bad);
});

test("slash command text is decoded; direct messages are recognised", () => {
  const command = commandToInbound(
    {
      command: "/oikos",
      text: "entity host:&lt;<http://nas.example.com|nas.example.com>&gt;",
      user_id: "U1",
      channel_id: "C1",
      trigger_id: "t",
    },
    "UBOT",
  );
  assert.equal(command?.text, "!oikos entity host:<nas.example.com>");
  assert.ok(isDirectMessage("D123"));
  assert.ok(isDirectMessage("G123", "mpdm-a--b-1"));
  assert.ok(isDirectMessage("C123", "directmessage"));
  assert.ok(!isDirectMessage("C123", "ops"));
});
