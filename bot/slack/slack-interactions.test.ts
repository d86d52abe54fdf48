import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { proposePlan, queuedJobs } from "../../test-support/bot/chat-harness.ts";
import { eventually } from "../../test-support/bot/eventually.ts";
import { type SlackBot, startSlackBot } from "../../test-support/bot/slack-bot.ts";
import { defineCommand } from "../core/bot-commands.ts";

const CHANNEL = "C0OPS";
const ALICE = "U0ALICE";
const MALLORY = "U0MALLORY";

const sessionByThread = (bot: SlackBot, thread: string) =>
  bot.h.store.db.selectFrom("sessions").selectAll().where("thread", "=", thread).executeTakeFirst();

for (const mode of ["http", "socket"] as const)
  describe(`slash commands and interactive payloads (${mode} mode)`, () => {
    let bot: SlackBot;

    before(async () => {
      bot = await startSlackBot({
        mode,
        access: { operators: [ALICE], admins: [ALICE] },
        channels: [CHANNEL],
      });
      bot.h.commands.add(
        defineCommand({
          name: "announce",
          args: {},
          summary: "says something to the whole channel",
          permission: "operator",
          visibility: "room",
          run: async () => "Maintenance tonight at 22:00 <!channel>",
        }),
      );
    });
    after(async () => {
      await bot.close();
      assert.deepEqual(bot.double.violations, []);
      assert.deepEqual(bot.double.broadcasts(), [], "no answer formed a broadcast");
    });

    test("/oikos help is answered only to its sender; nothing is posted in the channel", async () => {
      const posted = bot.double.byBot().length;
      await bot.double.slashCommand(ALICE, CHANNEL, "/oikos", "help");
      const answer = await eventually("answer", () =>
        bot.double.responses.find((r) => r.user === ALICE && r.text.includes("Commands")),
      );
      assert.equal(answer.responseType, "ephemeral");
      assert.equal(bot.double.byBot().length, posted);
    });

    test("a command declared for the room answers in the channel (escaped)", async () => {
      await bot.double.slashCommand(ALICE, CHANNEL, "/oikos", "announce");
      const answer = await eventually("answer", () =>
        bot.double.responses.find((r) => r.text.includes("Maintenance")),
      );
      assert.equal(answer.responseType, "in_channel");
      assert.ok(answer.text.includes("&lt;!channel&gt;"), "no broadcast");
    });

    test("from a channel it does not serve, or a direct message: told so privately, nothing done", async () => {
      for (const channel of ["C0ELSE", "D0ALICE"]) {
        await bot.double.slashCommand(ALICE, channel, "/oikos", "sweep all");
        const told = await eventually(`told in ${channel}`, () =>
          bot.double.responses.find((r) => r.channel === channel),
        );
        assert.equal(told.responseType, "ephemeral");
        assert.match(told.text, channel.startsWith("D") ? /direct messages/ : /does not serve this channel/);
      }
      await bot.adapter.idle();
      assert.deepEqual(await queuedJobs(bot.h, "sweep"), []);
    });

    test("a button that is not ours, a shortcut and a modal submission are all acknowledged", async () => {
      const foreign = {
        type: "block_actions",
        user: { id: ALICE, username: "alice", team_id: "T0DOUBLE" },
        api_app_id: "A0DOUBLE",
        container: {
          type: "message",
          message_ts: "1700000001.000100",
          channel_id: CHANNEL,
          is_ephemeral: false,
        },
        trigger_id: "1.2.abc",
        team: { id: "T0DOUBLE", domain: "double" },
        channel: { id: CHANNEL, name: "ops" },
        actions: [
          {
            action_id: "legacy_button",
            block_id: "b1",
            type: "button",
            value: "x",
            action_ts: "1700000002.000100",
          },
        ],
      };
      const shortcut = {
        type: "shortcut",
        callback_id: "do_something",
        trigger_id: "1.3.abc",
        user: { id: ALICE, username: "alice", team_id: "T0DOUBLE" },
        team: { id: "T0DOUBLE", domain: "double" },
        action_ts: "1700000003.000100",
      };
      const view = {
        type: "view_submission",
        team: { id: "T0DOUBLE", domain: "double" },
        user: { id: ALICE, username: "alice", team_id: "T0DOUBLE" },
        view: { id: "V1", type: "modal", callback_id: "some_modal", state: { values: {} }, hash: "1.abc" },
        trigger_id: "1.4.abc",
      };
      for (const payload of [foreign, shortcut, view]) {
        const delivery = await bot.double.interact(payload);
        assert.equal(delivery.status, 200, `${payload.type} acknowledged`);
      }
    });

    test("a typed :+1::skin-tone-2: approves like 👍; an edit into an answer does not count and its writer is told", async () => {
      const planStatus = async (sessionId: string) =>
        (
          await bot.h.store.db
            .selectFrom("plans")
            .select("status")
            .where("session_id", "=", sessionId)
            .executeTakeFirstOrThrow()
        ).status;
      const root = (await bot.double.userMessage(ALICE, CHANNEL, "check the nas fans")).ts;
      const session = await eventually("session", () => sessionByThread(bot, root));
      await proposePlan(bot.h, session.id, [
        { title: "Read the fan speeds", target: "host:nas", risk: "config_mutation" },
      ]);
      await eventually("plan card", () =>
        bot.double.botThread(CHANNEL, root).find((m) => m.text.includes("Plan")),
      );
      const draft = await bot.double.userMessage(ALICE, CHANNEL, "hmm, let me look", { threadTs: root });
      await bot.adapter.idle();
      await bot.double.userEdit(ALICE, CHANNEL, draft.ts, ":white_check_mark:");
      await eventually("the writer told that the edit does not count", () =>
        bot.double.ephemeral.find(
          (e) => e.user === ALICE && e.text.includes("edited message does not count"),
        ),
      );
      await bot.adapter.idle();
      assert.equal(await planStatus(session.id), "proposed", "an edit approves nothing");
      await bot.double.userMessage(ALICE, CHANNEL, ":+1::skin-tone-2:", { threadTs: root });
      await eventually(
        "plan approved by the typed shortcode",
        async () => (await planStatus(session.id)) === "approved",
      );
    });

    test("a reaction with a skin tone counts like the plain one", async () => {
      const root = (await bot.double.userMessage(ALICE, CHANNEL, "check the ups")).ts;
      const session = await eventually("session", () => sessionByThread(bot, root));
      await proposePlan(bot.h, session.id, [
        { title: "Read the ups status", target: "host:ups", risk: "config_mutation" },
      ]);
      const card = await eventually("plan card", () =>
        bot.double.botThread(CHANNEL, root).find((m) => m.text.includes("Plan")),
      );
      await bot.double.userReaction(ALICE, CHANNEL, card.ts, "+1::skin-tone-4");
      await eventually(
        "plan approved by the toned 👍",
        async () =>
          (
            await bot.h.store.db
              .selectFrom("plans")
              .select("status")
              .where("session_id", "=", session.id)
              .executeTakeFirstOrThrow()
          ).status === "approved",
      );
    });
  });

describe("response_url gone, mentions required, app_mention twins", () => {
  test("when the response_url has expired the answer still reaches the sender, ephemerally", async () => {
    const bot = await startSlackBot({
      mode: "socket",
      access: { operators: [ALICE], admins: [ALICE] },
      double: { responseUrlLifetimeMs: -1 },
      before: (d) => d.addChannel(CHANNEL, { members: [ALICE] }),
    });
    try {
      await bot.double.slashCommand(ALICE, CHANNEL, "/oikos", "help");
      const note = await eventually("chat.postEphemeral", () =>
        bot.double.ephemeral.find((e) => e.user === ALICE),
      );
      assert.ok(bot.double.shown({ ...note, ts: "0", history: [] }).includes("Commands"));
    } finally {
      await bot.close();
    }
  });

  test("SLACK_REQUIRE_MENTION: only a mention starts a task; replies in its thread continue it", async () => {
    const bot = await startSlackBot({
      mode: "socket",
      access: { operators: [ALICE], admins: [ALICE] },
      channels: [CHANNEL],
      adapter: { requireMention: true },
    });
    try {
      const chatter = await bot.double.userMessage(ALICE, CHANNEL, "lunch anyone?");
      const chatterReply = await bot.double.userMessage(ALICE, CHANNEL, "sure", { threadTs: chatter.ts });
      const asked = await bot.double.userMessage(ALICE, CHANNEL, "@oikos why is the nas slow?");
      const session = await eventually("mention starts a task", () => sessionByThread(bot, asked.ts));
      assert.equal(session.goal, "why is the nas slow?");
      const followUp = await bot.double.userMessage(ALICE, CHANNEL, "it started after the update", {
        threadTs: asked.ts,
      });
      await eventually("thread reply continues it", () =>
        bot.h.store.db
          .selectFrom("messages")
          .select("id")
          .where("platform_event_id", "=", `message:${CHANNEL}:${followUp.ts}`)
          .executeTakeFirst(),
      );
      await bot.double.userMessage(MALLORY, CHANNEL, "anyone seen my keys?");
      await bot.adapter.idle();
      assert.equal(await sessionByThread(bot, chatter.ts), undefined, "chatter starts nothing");
      assert.ok(
        !bot.double.byBot().some((m) => m.text.includes("only take instructions")),
        "a stranger's chatter is not refused",
      );
      assert.equal(chatterReply.delivery.status, 200);
      assert.equal((await queuedJobs(bot.h, "agent-turn")).length, 2);
    } finally {
      await bot.close();
    }
  });

  test("a mention Slack sends as both message and app_mention is one event; strangers' mentions are refused once", async () => {
    const bot = await startSlackBot({
      mode: "http",
      access: { operators: [ALICE], admins: [ALICE] },
      double: {
        subscriptions: ["message.channels", "app_mention"],
        scopes: [
          "chat:write",
          "channels:history",
          "app_mentions:read",
          "commands",
          "reactions:read",
          "reactions:write",
          "groups:history",
        ],
      },
    });
    try {
      const asked = await bot.double.userMessage(ALICE, CHANNEL, "@oikos restart the bridge");
      await eventually("session", () => sessionByThread(bot, asked.ts));
      await bot.adapter.idle();
      assert.equal((await queuedJobs(bot.h, "agent-turn")).length, 1, "one turn, not two");
      await bot.double.userMessage(MALLORY, CHANNEL, "@oikos delete everything");
      await bot.adapter.idle();
      await bot.double.settle();
      const refusals = bot.double.byBot().filter((m) => m.text.includes("only take instructions"));
      assert.equal(refusals.length, 1);
    } finally {
      await bot.close();
    }
  });
});
