import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { auditEntries } from "../../test-support/bot/audit-entries.ts";
import {
  type ChatHarness,
  finishExecution,
  proposePlan,
  queuedJobs,
  requestExecutionApproval,
} from "../../test-support/bot/chat-harness.ts";
import { eventually } from "../../test-support/bot/eventually.ts";
import { type SlackBot, startSlackBot } from "../../test-support/bot/slack-bot.ts";
import type { SlackDouble } from "../../test-support/slack-double/slack-double.ts";
import type { SlackAdapter } from "./slack-adapter.ts";

const CHANNEL = "C0OPS";
const ALICE = "U0ALICE";
const MALLORY = "U0MALLORY";
const CAROL = "U0CAROL";

// A full task over Bolt against the Slack double, in both transports: HTTP mode (signed Events
// API callbacks, button clicks and `/oikos` to Bolt's real HTTP receiver) and Socket Mode (the
// same envelopes over the double's WebSocket, acknowledged by envelope id). The bot's Web API
// calls go to the double, which checks every Block Kit payload and echoes the bot's own posts.
for (const mode of ["http", "socket"] as const)
  describe(`slack adapter against the Slack double (${mode} mode)`, () => {
    let bot: SlackBot;
    let double: SlackDouble;
    let h: ChatHarness;
    let adapter: SlackAdapter;

    before(async () => {
      bot = await startSlackBot({
        mode,
        access: { operators: [ALICE], admins: [ALICE], operatorGroup: "S0OPS" },
        channels: [CHANNEL],
        adapter: { usesUserGroups: true },
        before: (d) => d.userGroups.set("S0OPS", [CAROL]),
      });
      ({ double, h, adapter } = bot);
    });
    after(async () => {
      await bot.close();
      assert.deepEqual(double.violations, [], "every payload was valid and escaped");
      assert.deepEqual(double.broadcasts(), [], "the bot broadcast nothing");
    });

    const db = () => h.store.db;
    let root = "";
    let sessionId = "";

    test("a message starts a session in its thread; a retried delivery of the same event is dropped", async () => {
      assert.equal(adapter.selfId, double.botUserId);
      const sent = await double.userMessage(ALICE, CHANNEL, "why is the nas slow?");
      assert.equal(sent.delivery.status, 200);
      root = sent.ts;
      const session = await eventually("session", () =>
        db().selectFrom("sessions").selectAll().where("thread", "=", root).executeTakeFirst(),
      );
      sessionId = session.id;
      const event = {
        type: "message",
        channel: CHANNEL,
        user: ALICE,
        text: sent.text,
        ts: root,
        channel_type: "channel",
      };
      const retry = await double.deliverEvent(event, sent.eventId, 1);
      assert.equal(retry.status, 200);
      await adapter.idle();
      assert.equal((await queuedJobs(h, "agent-turn")).length, 1, "the retried delivery started nothing");
    });

    test("plan card with buttons; a stranger's click does nothing, the operator's approves and chat.update removes the buttons", async () => {
      await proposePlan(h, sessionId, [
        { title: "Check the pool status", target: "host:nas", risk: "read_only" },
        { title: "Start a scrub", target: "host:nas", risk: "config_mutation" },
      ]);
      const card = await eventually("plan card", () =>
        double.byBot().find((m) => m.text.includes("📋 Plan")),
      );
      assert.equal(card.thread_ts, root);
      const buttons = card.blocks!.flatMap((b) =>
        b.type === "actions" ? b.elements.map((e) => e.action_id) : [],
      );
      assert.deepEqual(buttons, ["oikos:approve", "oikos:deny"]);
      assert.equal(double.reactions.length, 0, "Slack cards use buttons, not reactions");

      const strangerClick = await double.click(MALLORY, CHANNEL, card.ts, "oikos:approve");
      assert.equal(strangerClick.status, 200);
      await eventually(
        "stranger click audited",
        async () => (await auditEntries(h, { action: "consent.ignored", actor: MALLORY }))[0],
      );
      const plan = () =>
        db().selectFrom("plans").selectAll().where("session_id", "=", sessionId).executeTakeFirstOrThrow();
      assert.equal((await plan()).status, "proposed");

      const click = await double.click(ALICE, CHANNEL, card.ts, "oikos:approve");
      assert.equal(click.status, 200);
      await eventually("plan approved", async () => (await plan()).status === "approved");
      await eventually("buttons replaced", () => !card.blocks!.some((b) => b.type === "actions"));
      assert.match(card.text, /approved by U0ALICE via the Approve button/);
      assert.equal((await plan()).decided_via, "button");
      await assert.rejects(
        double.click(ALICE, CHANNEL, card.ts, "oikos:approve"),
        /no button/,
        "no double approval",
      );
    });

    test("approval card: approve button, then progress edits and the summary in the thread", async () => {
      const { executionId } = await requestExecutionApproval(h, sessionId, {
        target: "host:nas",
        command: "zpool scrub tank",
        risk: "config_mutation",
        purpose: "check the disks",
      });
      const card = await eventually("approval card", () =>
        double.byBot().find((m) => m.text.includes("🔐 Approval needed")),
      );
      await double.click(ALICE, CHANNEL, card.ts, "oikos:approve");
      await eventually("approved", () => card.text.includes("approved by U0ALICE"));
      await finishExecution(h, sessionId, executionId, { exitCode: 0, stdout: "scrub started on tank" });
      await eventually("finished", () => card.text.includes("finished, exit 0"));
      assert.ok(
        card.blocks!.some((b) => b.type === "section" && b.text.text.includes("scrub started on tank")),
      );
      await db()
        .updateTable("sessions")
        .set({ summary: "scrub running; no errors so far" })
        .where("id", "=", sessionId)
        .execute();
      await h.events.publish({ type: "task.completed", sessionId, outcome: "success" });
      const summary = await eventually("summary", () =>
        double.byBot().find((m) => m.text.includes("Task success")),
      );
      assert.equal(summary.thread_ts, root);
    });

    test("destructive: 👍 does not approve, the typed phrase in the thread does", async () => {
      const { approvalId } = await requestExecutionApproval(h, sessionId, {
        target: "host:nas",
        command: "zpool destroy scratch",
        risk: "destructive",
        purpose: "free the old pool",
        requiredPhrase: "destroy host:nas scratch",
      });
      const card = await eventually("destructive card", () =>
        double.byBot().find((m) => m.text.includes("typed confirmation required")),
      );
      const buttons = card.blocks!.flatMap((b) =>
        b.type === "actions" ? b.elements.map((e) => e.action_id) : [],
      );
      assert.deepEqual(buttons, ["oikos:deny"], "no approve button for a destructive step");
      await double.userReaction(ALICE, CHANNEL, card.ts, "+1");
      await eventually("refusal told", () =>
        double.byBot().some((m) => m.text.includes("type exactly `destroy host:nas scratch`")),
      );
      const status = async () =>
        (
          await db()
            .selectFrom("approvals")
            .select("status")
            .where("id", "=", approvalId)
            .executeTakeFirstOrThrow()
        ).status;
      assert.equal(await status(), "pending");
      await double.userMessage(ALICE, CHANNEL, "destroy host:nas scratch", { threadTs: root });
      await eventually("approved by phrase", async () => (await status()) === "approved");
    });

    test("a button in a channel the bot does not serve does nothing (the clicker is told); thread_broadcast and file_share are messages", async () => {
      const { approvalId } = await requestExecutionApproval(h, sessionId, {
        target: "host:nas",
        command: "zpool clear tank",
        risk: "config_mutation",
        purpose: "clear the error counters",
      });
      const card = await eventually("approval card", () =>
        double.byBot().find((m) => m.text.includes("zpool clear tank")),
      );
      // The same card as seen in a channel outside `channels` (a share, or a misconfigured bot).
      const foreignTs = `1999.${mode === "http" ? "000001" : "000002"}`;
      double.messages.push({ ...card, channel: "C0OTHER", ts: foreignTs, history: [] });
      assert.equal((await double.click(ALICE, "C0OTHER", foreignTs, "oikos:approve")).status, 200);
      const told = await eventually("the clicker is told, privately", () =>
        double.responses.find((r) => r.channel === "C0OTHER" && r.user === ALICE),
      );
      assert.equal(told.responseType, "ephemeral");
      assert.match(told.text, /does not serve this channel/);
      assert.equal(told.replaceOriginal, false, "the card stays as it is");
      for (const subtype of ["thread_broadcast", "file_share"]) {
        const eventId = `Ev${subtype.toUpperCase().replace("_", "")}${mode}`;
        // Written now: an event from before oikos served Slack would be history.
        const ts = `${Math.floor(Date.now() / 1000)}.00000${subtype.length}`;
        const event = {
          type: "message",
          subtype,
          channel: CHANNEL,
          user: ALICE,
          text: `also look at the ${subtype} logs`,
          ts,
          thread_ts: root,
          channel_type: "channel",
        };
        assert.equal((await double.deliverEvent(event, eventId)).status, 200);
        await eventually(`${subtype} recorded in the session`, () =>
          db()
            .selectFrom("messages")
            .select("content")
            .where("platform_event_id", "=", `message:${CHANNEL}:${ts}`)
            .where("session_id", "=", sessionId)
            .executeTakeFirst(),
        );
      }
      await adapter.idle();
      const foreign = await db()
        .selectFrom("chat_events")
        .select("event_id")
        .where("event_id", "like", `action:${foreignTs}:%`)
        .execute();
      assert.deepEqual(foreign, [], "the click outside the served channels never reached the core");
      const status = await db()
        .selectFrom("approvals")
        .select("status")
        .where("id", "=", approvalId)
        .executeTakeFirstOrThrow();
      assert.equal(status.status, "pending");
      await double.click(ALICE, CHANNEL, card.ts, "oikos:approve");
      await eventually("approved in the served channel", () => card.text.includes("approved by U0ALICE"));
    });

    test("a member of the operator user group is an operator; others are not", async () => {
      const sent = await double.userMessage(CAROL, CHANNEL, "how full is the pool?");
      const session = await eventually("carol's session", () =>
        db().selectFrom("sessions").selectAll().where("thread", "=", sent.ts).executeTakeFirst(),
      );
      assert.equal(session.created_by, CAROL);
      assert.ok(double.calls.includes("usergroups.users.list"));
    });

    test("/oikos sweep from an admin queues the sweep, answered only to them; a stranger is refused privately", async () => {
      const posted = double.byBot().length;
      const ack = await double.slashCommand(ALICE, CHANNEL, "/oikos", "sweep approvals");
      assert.equal(ack.status, 200);
      await eventually("sweep queued", async () => (await queuedJobs(h, "sweep")).length === 1);
      assert.deepEqual(await queuedJobs(h, "sweep"), [{ kind: "approvals" }]);
      const answer = await eventually("answered", () =>
        double.responses.find((r) => r.user === ALICE && r.text.includes("Sweep `approvals` queued")),
      );
      assert.equal(answer.responseType, "ephemeral");
      await double.slashCommand(MALLORY, CHANNEL, "/oikos", "sweep all");
      await eventually(
        "stranger refused",
        async () => (await auditEntries(h, { action: "chat.refused", actor: MALLORY }))[0],
      );
      const refusal = await eventually("refusal told", () =>
        double.responses.find((r) => r.user === MALLORY),
      );
      assert.equal(refusal.responseType, "ephemeral");
      assert.match(refusal.text, /only take instructions from this room's operators/);
      assert.equal((await queuedJobs(h, "sweep")).length, 1);
      assert.equal(double.byBot().length, posted, "nothing was posted in the channel");
    });
  });
