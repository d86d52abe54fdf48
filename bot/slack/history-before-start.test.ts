import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { eventually } from "../../test-support/bot/eventually.ts";
import { type SlackBot, startSlackBot } from "../../test-support/bot/slack-bot.ts";
import { newEventId, userMessageEvent } from "../../test-support/slack-double/payloads.ts";
import { CLOCK_SKEW_MS, reactionToInbound } from "./inbound-events.ts";
import { servingSince } from "./serving-since.ts";

const CHANNEL = "C0OPS";
const ALICE = "U0ALICE";

/** Slack's ts for epoch ms. */
const slackTs = (ms: number, seq: number) => `${Math.floor(ms / 1000)}.${String(seq).padStart(6, "0")}`;

// Slack sends no history, but it redelivers events it could not hand over (Socket Mode retries):
// one written before this deployment served Slack is history, never a request.
describe("slack: events from before oikos served Slack are history, not requests", () => {
  let bot: SlackBot;
  const started = Date.now();
  const sessionFor = (ts: string) =>
    bot.h.store.db.selectFrom("sessions").select("id").where("thread", "=", ts).executeTakeFirst();

  before(async () => {
    bot = await startSlackBot({
      mode: "socket",
      access: { operators: [ALICE], admins: [ALICE] },
      channels: [CHANNEL],
      adapter: { servingSince: async () => started },
    });
  });
  after(async () => {
    await bot.close();
  });

  const oldMessage = (ms: number, seq: number, text: string) =>
    userMessageEvent({
      type: "message",
      channel: CHANNEL,
      channelType: "channel",
      user: ALICE,
      text,
      ts: slackTs(ms, seq),
      blocks: [],
      clientMsgId: `old-${seq}`,
    });

  test("a redelivered message written before the start starts nothing; a new one does", async () => {
    const old = oldMessage(started - 10 * 60_000, 1, "restart the database");
    const delivery = await bot.double.deliverEvent(old, newEventId(), 3);
    assert.equal(delivery.status, 200, "acknowledged, so Slack stops retrying it");
    const fresh = await bot.double.userMessage(ALICE, CHANNEL, "how full is the nas?");
    await eventually("the new message starts a session", () => sessionFor(fresh.ts));
    assert.equal(await sessionFor(String(old.ts)), undefined, "the old one started nothing");
    const events = await bot.h.store.db.selectFrom("chat_events").select("event_id").execute();
    assert.ok(!events.some((e) => e.event_id.includes(String(old.ts))), "nor was it handled");
  });

  test("clocks that differ by a little do not drop a message written just after the start", async () => {
    const near = oldMessage(started - CLOCK_SKEW_MS / 2, 2, "check the backups");
    await bot.double.deliverEvent(near, newEventId());
    await eventually("a session for the message", () => sessionFor(String(near.ts)));
  });

  test("the line is the deployment's first start: a later start keeps it", async () => {
    const first = await servingSince(bot.h.store.db, 1_000_000);
    assert.equal(first, 1_000_000);
    assert.equal(await servingSince(bot.h.store.db, 5_000_000), 1_000_000, "a restart keeps the first start");
  });
});

test("a reaction is history when it was added before the line, a request after it", () => {
  const ctx = { selfId: "UBOT", served: () => true, requireMention: false, liveSince: 1_800_000_000_000 };
  const reaction = (eventTs: string) => ({
    type: "reaction_added",
    user: ALICE,
    reaction: "white_check_mark",
    item: { type: "message", channel: CHANNEL, ts: "1700000000.000001" },
    event_ts: eventTs,
  });
  assert.equal(reactionToInbound(reaction("1700000000.000002"), "Ev1", ctx), undefined);
  assert.equal(reactionToInbound(reaction("1800000001.000001"), "Ev2", ctx)?.kind, "reaction");
});
