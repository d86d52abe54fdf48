import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { auditEntries } from "../../test-support/bot/audit-entries.ts";
import { requestExecutionApproval, sessionFor } from "../../test-support/bot/chat-harness.ts";
import { eventually } from "../../test-support/bot/eventually.ts";
import { type SlackBot, startSlackBot } from "../../test-support/bot/slack-bot.ts";
import { DELAYED_REACTION } from "./slack-outbound.ts";

const CHANNEL = "C0OPS";
const OTHER = "C0DEV";
const ALICE = "U0ALICE";
const CAROL = "U0CAROL";

async function approvalCard(bot: SlackBot, channel: string, command: string) {
  const root = (await bot.double.userMessage(ALICE, channel, `please look at ${command}`)).ts;
  const sessionId = await eventually(
    "session",
    async () =>
      (await bot.h.store.db.selectFrom("sessions").select("id").where("thread", "=", root).executeTakeFirst())
        ?.id,
  );
  await requestExecutionApproval(bot.h, sessionId, {
    target: "host:nas",
    command,
    risk: "config_mutation",
    purpose: "test",
  });
  const card = await eventually(`card for ${command}`, () =>
    bot.double.byBot().find((m) => m.text.includes(command)),
  );
  return { root, sessionId, card };
}

// Slack's Web API as it fails: 429 with Retry-After, missing scopes, channels the bot cannot
// post in, messages Slack calls too long. The double answers with Slack's own error names.
describe("Slack Web API failures", () => {
  let bot: SlackBot;

  before(async () => {
    bot = await startSlackBot({
      mode: "socket",
      access: { operators: [ALICE], admins: [ALICE], operatorGroup: "S0OPS" },
      adapter: { usesUserGroups: true },
      before: (d) => {
        d.userGroups.set("S0OPS", [CAROL]);
        d.addChannel(CHANNEL, { members: [ALICE] });
        d.addChannel(OTHER, { members: [ALICE] });
      },
    });
  });
  after(async () => {
    await bot.close();
    assert.deepEqual(bot.double.violations, []);
  });

  test("a 429 on chat.update delays that card only: other cards, posts and the same thread go on", async () => {
    const a = await approvalCard(bot, CHANNEL, "zpool scrub tank");
    const b = await approvalCard(bot, CHANNEL, "zpool scrub backup");
    bot.double.rateLimit("chat.update", 2, { match: (args) => args.ts === a.card.ts });
    await bot.double.click(ALICE, CHANNEL, a.card.ts, "oikos:approve");
    await eventually("card A marked delayed", () =>
      bot.double.reactions.some((r) => r.ts === a.card.ts && r.name === DELAYED_REACTION),
    );
    const warning = await eventually("a warning names the method and the wait", () =>
      bot.warnings("chat.update").find((r) => r.retryAfterS === 2),
    );
    assert.ok(warning);
    assert.ok(!a.card.text.includes("approved by"), "card A is not updated yet");
    // Card B, in another thread, and a new message in card A's own thread are not held back.
    await bot.double.click(ALICE, CHANNEL, b.card.ts, "oikos:approve");
    await eventually("card B updated", () => b.card.text.includes("approved by U0ALICE"), 1_500);
    await bot.h.events.publish({
      type: "agent.message",
      sessionId: a.sessionId,
      text: "still here",
      final: false,
    });
    await eventually(
      "a post in card A's thread",
      () => bot.double.botThread(CHANNEL, a.root).some((m) => m.text === "still here"),
      1_500,
    );
    assert.ok(!a.card.text.includes("approved by"), "card A waits out Retry-After");
    await eventually(
      "card A updated after Retry-After",
      () => a.card.text.includes("approved by U0ALICE"),
      6_000,
    );
    await eventually(
      "delay marker removed",
      () => !bot.double.reactions.some((r) => r.ts === a.card.ts && r.name === DELAYED_REACTION),
    );
    assert.equal(bot.adapter.delayedUpdates, 0);
  });

  test("a 429 on chat.postMessage waits Retry-After for that channel; another channel goes on", async () => {
    const here = await sessionFor(
      bot.h,
      "slack",
      CHANNEL,
      (await bot.double.userMessage(ALICE, CHANNEL, "one")).ts,
      ALICE,
    );
    const there = await sessionFor(
      bot.h,
      "slack",
      OTHER,
      (await bot.double.userMessage(ALICE, OTHER, "two")).ts,
      ALICE,
    );
    bot.double.rateLimit("chat.postMessage", 1, { match: (args) => args.channel === CHANNEL });
    const started = Date.now();
    await bot.h.events.publish({ type: "agent.message", sessionId: here, text: "held back", final: false });
    await bot.h.events.publish({ type: "agent.message", sessionId: there, text: "goes on", final: false });
    await eventually("the other channel's post", () => bot.double.byBot().some((m) => m.text === "goes on"));
    await eventually("the held-back post, after Retry-After", () =>
      bot.double.byBot().some((m) => m.text === "held back"),
    );
    assert.ok(Date.now() - started >= 900, "Retry-After was honoured");
    assert.ok(bot.warnings("chat.postMessage").length > 0);
  });

  test("a message Slack calls too long is sent again in smaller parts", async () => {
    const sessionId = await sessionFor(
      bot.h,
      "slack",
      CHANNEL,
      (await bot.double.userMessage(ALICE, CHANNEL, "three")).ts,
      ALICE,
    );
    bot.double.fail("chat.postMessage", "msg_too_long", {
      match: (args) => String(args.text).startsWith("Long"),
    });
    const text = `Long ${"report ".repeat(1_000)}end`;
    await bot.h.events.publish({ type: "agent.message", sessionId, text, final: true });
    await eventually("posted after all", () =>
      bot.double.byBot().some((m) => bot.double.shown(m).includes("report end")),
    );
    assert.ok(bot.warnings("too long").length > 0);
  });

  test("a channel the bot cannot post in is named in the log with what to do, once", async () => {
    bot.double.addChannel("C0GONE", { botIsMember: false, members: [ALICE] });
    bot.double.addChannel("C0OLD", { isArchived: true, members: [ALICE] });
    const gone = await sessionFor(bot.h, "slack", "C0GONE", "1700000000.000001", ALICE);
    const old = await sessionFor(bot.h, "slack", "C0OLD", "1700000000.000002", ALICE);
    const missing = await sessionFor(bot.h, "slack", "C0NOWHERE", "1700000000.000003", ALICE);
    for (const sessionId of [gone, old, missing, gone])
      await bot.h.events.publish({ type: "agent.message", sessionId, text: "hello?", final: false });
    await eventually("not_in_channel", () =>
      bot.warnings("not_in_channel").find((r) => String(r.msg).includes("/invite")),
    );
    await eventually("is_archived", () =>
      bot.warnings("is_archived").find((r) => String(r.msg).includes("archived")),
    );
    await eventually("channel_not_found", () => bot.warnings("channel_not_found")[0]);
    assert.equal(
      bot.logs.filter((r) => r.level >= 50 && r.slackError === "not_in_channel").length,
      1,
      "logged once per channel",
    );
  });

  test("without usergroups:read, a group member is refused and audited (fail closed), and the log says why", async () => {
    bot.double.scopes.delete("usergroups:read");
    const sent = await bot.double.userMessage(CAROL, CHANNEL, "can you check the ups?");
    await eventually(
      "refused and audited",
      async () => (await auditEntries(bot.h, { action: "chat.refused", actor: CAROL }))[0],
    );
    const session = await bot.h.store.db
      .selectFrom("sessions")
      .select("id")
      .where("thread", "=", sent.ts)
      .executeTakeFirst();
    assert.equal(session, undefined, "no task started");
    await eventually("logged", () => bot.warnings("usergroups:read")[0] ?? bot.warnings("S0OPS")[0]);
    bot.double.scopes.add("usergroups:read");
  });
});

describe("the scope check at start-up", () => {
  test("every scope the configuration needs and the token lacks is reported, with what breaks", async () => {
    const bot = await startSlackBot({
      mode: "socket",
      access: { operators: [ALICE], admins: [ALICE] },
      adapter: { usesUserGroups: true },
      double: { scopes: ["chat:write", "channels:history", "groups:history", "reactions:write", "commands"] },
    });
    try {
      assert.deepEqual([...bot.adapter.missingScopes].sort(), ["reactions:read", "usergroups:read"]);
      const report = bot.logs.find((r) => r.level >= 50 && Array.isArray(r.missingScopes));
      assert.ok(report, "reported at start");
      assert.match(String(report.msg), /reactions:read.*usergroups:read|usergroups:read.*reactions:read/);
      assert.match(String(report.msg), /reinstall/);
    } finally {
      await bot.close();
    }
  });

  test("usergroups:read is needed only when operators come from a group", async () => {
    const bot = await startSlackBot({
      mode: "http",
      access: { operators: [ALICE], admins: [ALICE] },
      double: {
        scopes: [
          "chat:write",
          "channels:history",
          "groups:history",
          "reactions:read",
          "reactions:write",
          "commands",
        ],
      },
    });
    try {
      assert.deepEqual(bot.adapter.missingScopes, []);
      assert.equal(bot.logs.filter((r) => r.level >= 50).length, 0);
    } finally {
      await bot.close();
    }
  });
});
