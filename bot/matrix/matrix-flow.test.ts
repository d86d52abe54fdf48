import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  type ChatHarness,
  createChatHarness,
  finishExecution,
  proposePlan,
  requestExecutionApproval,
} from "../../test-support/bot/chat-harness.ts";
import { eventually } from "../../test-support/bot/eventually.ts";
import { startMatrixBot } from "../../test-support/bot/matrix-bot.ts";
import { MatrixDouble } from "../../test-support/matrix-double/matrix-double.ts";
import { KvStorageProvider } from "./kv-storage-provider.ts";
import { ENCRYPTED_ROOM_NOTICE, type MatrixAdapter } from "./matrix-adapter.ts";

const BOT = "@oikos:double.test";
const ALICE = "@alice:double.test";
const MALLORY = "@mallory:double.test";
const CAROL = "@carol:double.test";

// A full task over the Matrix Client-Server API double: every event the bot sends is checked
// against the spec schemas by the double; the agent's and the worker's part is played by
// writing their rows with their store functions and publishing their events.
describe("matrix adapter against the homeserver double", () => {
  let double: MatrixDouble;
  let h: ChatHarness;
  let adapter: MatrixAdapter;
  let room = "";
  let botToken = "";

  const startAdapter = async () => {
    adapter = await startMatrixBot(h, double, {
      accessToken: botToken,
      rooms: [room, encryptedRoom],
      allowedInviters: [ALICE],
    });
  };
  let encryptedRoom = "";

  before(async () => {
    double = await MatrixDouble.start();
    botToken = double.registerUser(BOT);
    double.registerUser(ALICE);
    double.registerUser(MALLORY);
    double.registerUser(CAROL);
    room = double.createRoom({ creator: ALICE, members: [MALLORY, CAROL], powerLevels: { [CAROL]: 50 } });
    encryptedRoom = double.createRoom({ creator: ALICE, encrypted: true });
    double.invite(room, ALICE, BOT);
    h = await createChatHarness({ operators: [ALICE], admins: [ALICE], minPowerLevel: 50 });
    await startAdapter();
  });
  after(async () => {
    await adapter.stop();
    await h.close();
    await double.close();
    assert.deepEqual(double.violations, [], "every event the bot sent passes the spec schemas");
  });

  const botEvents = () => double.sentBy(BOT);
  const db = () => h.store.db;
  let root = "";
  let sessionId = "";

  test("the bot joins its room (invite from an operator) and a top-level message starts a session", async () => {
    assert.equal(double.state.room(room).members.get(BOT), "join");
    root = double.message(ALICE, room, "upgrade gitea to 1.22");
    const session = await eventually("session", () =>
      db().selectFrom("sessions").selectAll().where("thread", "=", root).executeTakeFirst(),
    );
    sessionId = session.id;
    assert.equal(session.platform, "matrix");
    assert.equal(session.created_by, ALICE);
  });

  test("a stranger gets one polite refusal in the thread; nothing else happens", async () => {
    const before = botEvents().length;
    const first = double.message(MALLORY, room, "delete the backups");
    await eventually("refusal", () => botEvents().length > before);
    const refusal = botEvents().at(-1)!;
    assert.equal(refusal.content.msgtype, "m.notice");
    assert.match(String(refusal.content.body), /only take instructions/);
    assert.deepEqual(refusal.content["m.relates_to"], {
      rel_type: "m.thread",
      event_id: first,
      is_falling_back: true,
      "m.in_reply_to": { event_id: first },
    });
    double.message(MALLORY, room, "hello?");
    await eventually("second stranger message recorded", () =>
      db()
        .selectFrom("audit_log")
        .select("id")
        .where("action", "=", "chat.refused")
        .execute()
        .then((r) => r.length === 2),
    );
    assert.equal(botEvents().length, before + 1, "one refusal per user per hour");
    const sessions = await db().selectFrom("sessions").select("id").execute();
    assert.equal(sessions.length, 1);
  });

  let planCard = "";
  test("plan card in the thread with ✅ ❌; a stranger's ✅ does not approve, the operator's does and the card is edited", async () => {
    const generation = await proposePlan(h, sessionId, [
      { title: "Read the current version", target: "lxc:gitea", risk: "read_only" },
      { title: "Upgrade the package", target: "lxc:gitea", risk: "config_mutation" },
    ]);
    const card = await eventually("plan card", () =>
      botEvents().find((e) => String(e.content.body).includes("📋 Plan")),
    );
    planCard = card.event_id;
    assert.equal((card.content["m.relates_to"] as { rel_type: string; event_id: string }).event_id, root);
    assert.match(String(card.content.formatted_body), /<strong>📋 Plan<\/strong>/);
    const reactions = await eventually("bot reactions", () => {
      const keys = double
        .relations(planCard, "m.annotation")
        .map((e) => (e.content["m.relates_to"] as { key: string }).key);
      return keys.length === 2 ? keys : undefined;
    });
    assert.deepEqual(reactions, ["✅", "❌"]);
    const ref = await db()
      .selectFrom("plans")
      .select("card_ref")
      .where("session_id", "=", sessionId)
      .executeTakeFirstOrThrow();
    assert.equal((ref.card_ref as { messageId: string }).messageId, planCard);

    double.react(MALLORY, room, planCard, "✅");
    await eventually("stranger consent audited", () =>
      db()
        .selectFrom("audit_log")
        .selectAll()
        .where("action", "=", "consent.ignored")
        .where("actor", "=", MALLORY)
        .executeTakeFirst(),
    );
    const plan = () =>
      db()
        .selectFrom("plans")
        .selectAll()
        .where("session_id", "=", sessionId)
        .where("generation", "=", generation)
        .executeTakeFirstOrThrow();
    assert.equal((await plan()).status, "proposed");

    double.react(ALICE, room, planCard, "✅");
    await eventually("plan approved", async () => (await plan()).status === "approved");
    const edit = await eventually("plan card edited", () =>
      double
        .relations(planCard, "m.replace")
        .find((e) => String((e.content["m.new_content"] as { body: string }).body).includes("approved by")),
    );
    const newContent = edit.content["m.new_content"] as { body: string; msgtype: string };
    assert.equal(newContent.msgtype, "m.notice");
    assert.match(newContent.body, /✅ approved by @alice:double\.test via ✅ at \d\d:\d\d UTC/);
    assert.match(String(edit.content.body), /^\* /);
    assert.equal((await plan()).decided_via, "reaction");
    const own = await db()
      .selectFrom("audit_log")
      .select("details")
      .where("action", "=", "consent.ignored")
      .where("actor", "=", BOT)
      .execute();
    assert.ok(own.length >= 2, "the bot's own ✅ ❌ on its card are ignored and audited");
    assert.ok(own.every((row) => (row.details as { reason: string }).reason === "self"));
  });

  test("a member at the configured power level is an operator in that room", async () => {
    const carolRoot = double.message(CAROL, room, "check the backup job");
    const session = await eventually("carol's session", () =>
      db().selectFrom("sessions").selectAll().where("thread", "=", carolRoot).executeTakeFirst(),
    );
    assert.equal(session.created_by, CAROL);
    await db().deleteFrom("sessions").where("id", "=", session.id).execute();
  });

  test("approval card survives a rate limit, ✅ approves it, progress edits show the result", async () => {
    double.rateLimitNext(2, 30);
    const { approvalId, executionId } = await requestExecutionApproval(h, sessionId, {
      target: "lxc:gitea",
      command: "apt-get install -y gitea",
      risk: "config_mutation",
      purpose: "upgrade",
    });
    const card = await eventually("approval card", () =>
      botEvents().find((e) => String(e.content.body).includes("🔐 Approval needed")),
    );
    assert.equal(double.rateLimited.length, 2);
    await eventually(
      "reactions on approval card",
      () => double.relations(card.event_id, "m.annotation").length === 2,
    );
    double.react(ALICE, room, card.event_id, "👍");
    await eventually(
      "approval approved",
      async () =>
        (
          await db()
            .selectFrom("approvals")
            .select("status")
            .where("id", "=", approvalId)
            .executeTakeFirstOrThrow()
        ).status === "approved",
    );
    await finishExecution(h, sessionId, executionId, {
      exitCode: 0,
      stdout: "Unpacking gitea (1.22.0)\nSetting up gitea (1.22.0)",
    });
    const finished = await eventually("finished edit", () =>
      double
        .relations(card.event_id, "m.replace")
        .find((e) =>
          String((e.content["m.new_content"] as { body: string }).body).includes("finished, exit 0"),
        ),
    );
    assert.match(
      String((finished.content["m.new_content"] as { formatted_body: string }).formatted_body),
      /<details><summary>output<\/summary><pre><code>Unpacking gitea/,
    );
  });

  test("typing notices while a turn runs, agent text and the summary as replies in the thread", async () => {
    await h.events.publish({ type: "agent.typing", sessionId, active: true });
    await h.events.publish({
      type: "agent.message",
      sessionId,
      text: "Upgrade done, verifying.",
      final: false,
    });
    await h.events.publish({ type: "agent.typing", sessionId, active: false });
    await db()
      .updateTable("sessions")
      .set({ summary: "gitea 1.22.0 installed and answering", status: "done" })
      .where("id", "=", sessionId)
      .execute();
    await h.events.publish({ type: "task.completed", sessionId, outcome: "success" });
    const summary = await eventually("summary", () =>
      botEvents().find((e) => String(e.content.body).includes("Task success")),
    );
    const rel = summary.content["m.relates_to"] as {
      rel_type: string;
      event_id: string;
      "m.in_reply_to": { event_id: string };
    };
    assert.equal(rel.rel_type, "m.thread");
    assert.equal(rel.event_id, root);
    assert.notEqual(
      rel["m.in_reply_to"].event_id,
      root,
      "the fallback reply points at the newest event in the thread",
    );
    assert.deepEqual(
      double.typing.filter((t) => t.user === BOT).map((t) => t.typing),
      [true, false],
    );
  });

  test("restart: events while the bot was down are handled once; a replayed sync handles nothing twice", async () => {
    const tokenBefore = await new KvStorageProvider(db(), "bot").getSyncToken();
    await adapter.stop();
    const reply = double.message(ALICE, room, "also rotate the logs", { thread: root });
    await startAdapter();
    const count = () =>
      db()
        .selectFrom("messages")
        .select("id")
        .where("platform_event_id", "=", reply)
        .execute()
        .then((r) => r.length);
    await eventually("reply handled after restart", async () => (await count()) === 1);
    // A crash after handling but before the token was saved: the next sync replays old events.
    await adapter.stop();
    await new KvStorageProvider(db(), "bot").setSyncToken(tokenBefore);
    const sentBefore = botEvents().length;
    const marker = double.message(ALICE, room, "!oikos approvals");
    await startAdapter();
    await eventually("marker command answered", () =>
      botEvents()
        .slice(sentBefore)
        .some((e) => String(e.content.body).includes("approvals")),
    );
    assert.equal(await count(), 1, "the replayed reply was not handled again");
    const plans = botEvents().filter((e) => String(e.content.body).startsWith("📋 Plan"));
    assert.equal(plans.length, 1, "no second plan card");
    const turns = await db()
      .selectFrom("queue_jobs")
      .select("data")
      .where("queue", "=", "agent-turn")
      .execute();
    const forMessages = turns.filter((t) => {
      const data = t.data as { reason: string; sessionId: string };
      return data.reason === "message" && data.sessionId === sessionId;
    });
    assert.equal(forMessages.length, 2, "one turn for the first message, one for the reply");
    assert.ok(marker);
  });

  test("an encrypted room is refused with a clear message, once, and ignored", async () => {
    double.invite(encryptedRoom, ALICE, BOT);
    await eventually("notice in encrypted room", () => botEvents().find((e) => e.room_id === encryptedRoom));
    const notices = botEvents().filter((e) => e.room_id === encryptedRoom);
    assert.equal(notices.length, 1);
    assert.equal(notices[0]!.content.body, ENCRYPTED_ROOM_NOTICE);
    const before = await db().selectFrom("sessions").select("id").execute();
    double.message(ALICE, encryptedRoom, "restart everything");
    const other = double.message(ALICE, room, "!oikos approvals");
    await eventually("later event in the normal room handled", () =>
      db().selectFrom("chat_events").select("event_id").where("event_id", "=", other).executeTakeFirst(),
    );
    assert.equal((await db().selectFrom("sessions").select("id").execute()).length, before.length);
  });

  test("invites from strangers or into other rooms are declined", async () => {
    const strangeRoom = double.createRoom({ creator: MALLORY });
    double.invite(strangeRoom, MALLORY, BOT);
    await eventually("declined", () => double.state.room(strangeRoom).members.get(BOT) === "leave");
  });
});
