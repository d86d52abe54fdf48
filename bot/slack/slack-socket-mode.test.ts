import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { queuedJobs } from "../../test-support/bot/chat-harness.ts";
import { eventually } from "../../test-support/bot/eventually.ts";
import { type SlackBot, startSlackBot } from "../../test-support/bot/slack-bot.ts";

const CHANNEL = "C0OPS";
const ALICE = "U0ALICE";

async function sessionsStarted(bot: SlackBot): Promise<number> {
  return (await bot.h.store.db.selectFrom("sessions").select("id").execute()).length;
}

// Socket Mode as Slack runs it: connections are recycled with `disconnect` messages, envelopes
// that were not acknowledged come again (same envelope, retry_attempt + 1), Slack pings.
describe("Socket Mode connection life", () => {
  let bot: SlackBot | undefined;
  afterEach(async () => {
    await bot?.close();
    bot = undefined;
  });

  const start = (socketMode: { ackTimeoutMs?: number; pingIntervalMs?: number } = {}) =>
    startSlackBot({
      mode: "socket",
      access: { operators: [ALICE], admins: [ALICE] },
      channels: [CHANNEL],
      double: { socketMode: { ackTimeoutMs: 1_500, pingIntervalMs: 500, closeGraceMs: 300, ...socketMode } },
    });

  test("after refresh_requested the app opens a new connection and events keep coming", async () => {
    bot = await start();
    assert.equal(bot.double.socketMode.connectionsOpened, 1);
    const reconnected = bot.double.socketMode.nextConnection();
    bot.double.socketMode.disconnect("refresh_requested");
    await reconnected;
    assert.equal(bot.double.socketMode.connectionsOpened, 2);
    assert.equal(
      bot.double.calls.filter((c) => c === "apps.connections.open").length,
      2,
      "a fresh WebSocket URL",
    );
    const sent = await bot.double.userMessage(ALICE, CHANNEL, "still there after the refresh?");
    await eventually("handled on the new connection", async () =>
      bot!.h.store.db.selectFrom("sessions").select("id").where("thread", "=", sent.ts).executeTakeFirst(),
    );
    assert.ok(
      bot.logs.some((r) => r.reason === "refresh_requested"),
      "the reason is logged",
    );
  });

  test("an envelope whose ack was lost is delivered again and handled once", async () => {
    bot = await start();
    bot.double.socketMode.loseAcks(1);
    const sent = await bot.double.userMessage(ALICE, CHANNEL, "one task, please");
    assert.equal(sent.delivery.status, 200, "acknowledged in the end");
    const attempts = bot.double.socketMode.sent.filter((e) => e.type === "events_api").slice(-2);
    assert.deepEqual(
      attempts.map((e) => e.attempt),
      [0, 1],
      "Slack delivered the same envelope again with retry_attempt 1",
    );
    assert.equal(attempts[0]!.id, attempts[1]!.id);
    await bot.adapter.idle();
    assert.equal(await sessionsStarted(bot), 1);
    assert.equal((await queuedJobs(bot.h, "agent-turn")).length, 1, "handled once");
  });

  test("an envelope unacknowledged when its connection closed comes again on the next one, handled once", async () => {
    bot = await start({ ackTimeoutMs: 10_000 });
    bot.double.socketMode.loseAcks(1);
    const reconnected = bot.double.socketMode.nextConnection();
    const delivery = bot.double.userMessage(ALICE, CHANNEL, "survive the reconnect");
    await eventually("delivered, its ack lost", () => bot!.double.socketMode.acksLost === 1);
    bot.double.socketMode.disconnect("warning");
    await reconnected;
    assert.equal((await delivery).delivery.status, 200);
    const attempts = bot.double.socketMode.sent.filter((e) => e.type === "events_api");
    assert.deepEqual(
      attempts.map((e) => e.attempt),
      [0, 1],
    );
    await bot.adapter.idle();
    assert.equal(await sessionsStarted(bot), 1);
    assert.equal((await queuedJobs(bot.h, "agent-turn")).length, 1);
  });

  test("link_disabled: the app stops reconnecting and says what to change", async () => {
    bot = await start();
    bot.double.socketMode.disconnect("link_disabled");
    await eventually("logged", () => bot!.logs.find((r) => r.level >= 50 && r.reason === "link_disabled"));
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    assert.equal(bot.double.socketMode.connectionsOpened, 1, "no reconnect");
    assert.equal(bot.double.socketMode.openConnections, 0);
  });

  test("Slack's pings are answered", async () => {
    bot = await start({ pingIntervalMs: 100 });
    await eventually("pongs", () => bot!.double.socketMode.pongsReceived >= 2);
  });
});
