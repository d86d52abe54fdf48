import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { silentLogger } from "../../base/logger.ts";
import { createExecutionApproval } from "../../store/approvals.ts";
import { createExecution } from "../../store/executions.ts";
import {
  type ChatHarness,
  createChatHarness,
  requestExecutionApproval,
} from "../../test-support/bot/chat-harness.ts";
import { eventually } from "../../test-support/bot/eventually.ts";
import { startMatrixBot } from "../../test-support/bot/matrix-bot.ts";
import { MatrixDouble } from "../../test-support/matrix-double/matrix-double.ts";
import { CardRenderer } from "../core/card-renderer.ts";
import type { MatrixAdapter } from "./matrix-adapter.ts";

const BOT = "@oikos:double.test";
const ALICE = "@alice:double.test";

// Homeserver hiccups (500s injected by the double): a failing join must not stall the sync
// loop, and a failing card post must not lose the card.
describe("matrix: failures of single calls", () => {
  let double: MatrixDouble;
  let h: ChatHarness;
  let adapter: MatrixAdapter;
  let room = "";
  let lateRoom = "";
  let startRoom = "";
  let botToken = "";

  const startAdapter = async () => {
    adapter = await startMatrixBot(h, double, {
      accessToken: botToken,
      rooms: [room, lateRoom, startRoom],
      allowedInviters: [ALICE],
    });
  };

  before(async () => {
    double = await MatrixDouble.start();
    botToken = double.registerUser(BOT);
    double.registerUser(ALICE);
    room = double.createRoom({ creator: ALICE });
    lateRoom = double.createRoom({ creator: ALICE });
    startRoom = double.createRoom({ creator: ALICE });
    double.invite(room, ALICE, BOT);
    double.invite(startRoom, ALICE, BOT);
    // Both joins into startRoom during start() fail: the configured-room join and the invite's.
    double.failNext("join", { room: startRoom, count: 2 });
    h = await createChatHarness({ operators: [ALICE], admins: [ALICE] });
    await startAdapter();
  });
  after(async () => {
    await adapter.stop();
    await h.close();
    await double.close();
    assert.deepEqual(double.violations, [], "every event the bot sent passes the spec schemas");
  });

  const db = () => h.store.db;
  const approvalRow = (id: string) =>
    db()
      .selectFrom("approvals")
      .select(["status", "card_ref"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
  const cardMessageId = async (id: string) =>
    ((await approvalRow(id)).card_ref as { messageId?: string } | null)?.messageId;
  const joined = (roomId: string) => double.state.room(roomId).members.get(BOT) === "join";
  const newSession = async (text: string) => {
    const root = double.message(ALICE, room, text);
    return (
      await eventually("session", () =>
        db().selectFrom("sessions").select("id").where("thread", "=", root).executeTakeFirst(),
      )
    ).id;
  };

  test("a join that fails during start() neither rejects start nor is forgotten", async () => {
    assert.equal(double.failed.filter((f) => f.room === startRoom).length, 2);
    assert.ok(joined(room), "the other invite in the same batch was accepted");
    assert.ok(!joined(startRoom));
    double.message(ALICE, room, "anyone there?");
    await eventually("joined on the next sync", () => joined(startRoom));
  });

  test("a join that fails in the sync loop does not stall it; the join is retried", async () => {
    double.failNext("join", { room: lateRoom });
    double.invite(lateRoom, ALICE, BOT);
    await eventually("the join failed", () => double.failed.some((f) => f.room === lateRoom));
    assert.ok(!joined(lateRoom));
    const later = double.message(ALICE, room, "check the disks");
    await eventually("a later message is still handled", () =>
      db().selectFrom("sessions").select("id").where("thread", "=", later).executeTakeFirst(),
    );
    await eventually("joined on a later sync", () => joined(lateRoom));
  });

  test("a card whose post failed is posted on the session's next event, and consent finds it", async () => {
    const sessionId = await newSession("upgrade gitea");
    const failuresBefore = double.failed.length;
    double.failNext("send", { room });
    const { approvalId } = await requestExecutionApproval(h, sessionId, {
      target: "lxc:gitea",
      command: "apt-get install -y gitea",
      risk: "config_mutation",
      purpose: "upgrade",
    });
    await eventually("the card post failed", () => double.failed.length > failuresBefore);
    const isCard = (body: unknown) => String(body).includes("🔐 Approval needed");
    assert.ok(!double.sentBy(BOT).some((e) => isCard(e.content.body)), "no card yet");
    await h.events.publish({ type: "agent.message", sessionId, text: "Waiting for approval.", final: false });
    const card = await eventually("card posted on the next event", () =>
      double.sentBy(BOT).find((e) => isCard(e.content.body)),
    );
    await eventually(
      "bot reactions on the card",
      () => double.relations(card.event_id, "m.annotation").length === 2,
    );
    double.react(ALICE, room, card.event_id, "✅");
    await eventually("approved through the card", () =>
      approvalRow(approvalId).then((row) => row.status === "approved"),
    );
    assert.equal(double.sentBy(BOT).filter((e) => isCard(e.content.body)).length, 1, "one card");
  });

  test("start-up posts the card of a pending approval whose claim was taken but never posted (a crash)", async () => {
    const sessionId = await newSession("rotate the logs");
    const expiresAt = new Date(Date.now() + 3_600_000);
    const execution = await createExecution(db(), {
      sessionId,
      target: "host:nas",
      command: "logrotate -f /etc/logrotate.conf",
      commandKey: "k-rotate",
      risk: "config_mutation",
      purpose: "rotate",
      requestedBy: "agent",
      status: "pending_approval",
      timeoutMs: 60_000,
      deadlineAt: expiresAt,
    });
    const created = await createExecutionApproval(db(), {
      sessionId,
      executionId: execution.id,
      commandKey: "k-rotate",
      target: "host:nas",
      risk: "config_mutation",
      expiresAt,
    });
    assert.ok(created.created);
    const approvalId = created.approval.id;
    await db()
      .insertInto("kv")
      .values({ key: `chat-card:matrix:approval:${approvalId}`, value: JSON.stringify({ at: new Date() }) })
      .execute();
    const renderer = new CardRenderer({
      db: db(),
      adapters: h.adapters,
      cards: h.core.cards,
      logger: silentLogger(),
    });
    await renderer.renderUnposted();
    const messageId = await cardMessageId(approvalId);
    assert.ok(messageId, "the card was posted and recorded");
    assert.match(String(double.state.event(messageId)?.content.body), /logrotate/);
    await renderer.renderUnposted();
    const cards = double.sentBy(BOT).filter((e) => String(e.content.body).includes("logrotate -f"));
    assert.equal(cards.length, 1, "a second start-up posts nothing more");
  });

  test("a closed task whose summary never reached the room (platform down, process stopping) is summed up once on connect", async () => {
    const told = await newSession("rotate the logs on the nas");
    const old = await newSession("check the nas yesterday");
    const close = (id: string, closedAt: Date) =>
      db()
        .updateTable("sessions")
        .set({ status: "done", outcome: "success", closed_at: closedAt })
        .where("id", "=", id)
        .execute();
    await close(told, new Date());
    await close(old, new Date(Date.now() - 25 * 60 * 60_000));
    const summaries = () => double.sentBy(BOT).filter((e) => /Task success/.test(String(e.content.body)));
    const before = summaries().length;
    const renderer = new CardRenderer({
      db: db(),
      adapters: h.adapters,
      cards: h.core.cards,
      logger: silentLogger(),
    });
    await renderer.renderUnposted();
    assert.equal(
      summaries().length,
      before + 1,
      "the task closed today is summed up; the one closed 25 h ago is not",
    );
    const card = await db()
      .selectFrom("chat_cards")
      .select("session_id")
      .where("kind", "=", "summary")
      .where("session_id", "=", told)
      .executeTakeFirst();
    assert.ok(card, "the summary is recorded as the task's card (⏪ finds it)");
    await renderer.renderUnposted();
    assert.equal(summaries().length, before + 1, "a second connect posts nothing more");
  });

  test("an edit identical to the card's last one is not sent again, not even by a restarted process", async () => {
    const sessionId = await newSession("restart the logger");
    await requestExecutionApproval(h, sessionId, {
      target: "host:nas",
      command: "systemctl restart rsyslog",
      risk: "config_mutation",
      purpose: "restart",
    });
    const card = await eventually("the card", () =>
      double.sentBy(BOT).find((e) => String(e.content.body).includes("systemctl restart rsyslog")),
    );
    const ref = { platform: "matrix", room, messageId: card.event_id, thread: null };
    const edits = () => double.relations(card.event_id, "m.replace").filter((e) => e.sender === BOT);
    const before = edits().length;
    await adapter.edit(ref, { text: "the same edit" });
    await adapter.edit(ref, { text: "the same edit" });
    assert.equal(edits().length, before + 1, "one edit");
    // A restart: a new adapter on the same database.
    await adapter.stop();
    await startAdapter();
    await adapter.edit(ref, { text: "the same edit" });
    assert.equal(edits().length, before + 1, "the restarted process does not send it again");
    await adapter.edit(ref, { text: "a new edit" });
    assert.equal(edits().length, before + 2);
  });

  test("a card posted by a process killed before it recorded the post is the same event when posted again", async () => {
    const sessionId = await newSession("restart the exporter");
    const { approvalId } = await requestExecutionApproval(h, sessionId, {
      target: "host:nas",
      command: "systemctl restart node-exporter",
      risk: "config_mutation",
      purpose: "restart",
    });
    const cardsOf = () =>
      double.sentBy(BOT).filter((e) => String(e.content.body).includes("systemctl restart node-exporter"));
    const first = await eventually("the card", () => cardsOf()[0]);
    await eventually("the card recorded", async () =>
      db()
        .selectFrom("chat_cards")
        .select("message_id")
        .where("subject_id", "=", approvalId)
        .executeTakeFirst(),
    );
    // What a SIGKILL between the post and its record leaves: the message exists, nothing names it.
    await db().deleteFrom("chat_cards").where("subject_id", "=", approvalId).execute();
    await db().updateTable("approvals").set({ card_ref: null }).where("id", "=", approvalId).execute();
    const renderer = new CardRenderer({
      db: db(),
      adapters: h.adapters,
      cards: h.core.cards,
      logger: silentLogger(),
    });
    await renderer.renderUnposted();
    assert.equal(cardsOf().length, 1, "posted again as the same event, not a second card");
    assert.equal(await cardMessageId(approvalId), first.event_id);
    double.react(ALICE, room, first.event_id, "✅");
    await eventually("the ✅ on the first card approves", () =>
      approvalRow(approvalId).then((row) => row.status === "approved"),
    );
  });

  test("after downtime, the events a limited sync timeline left out are fetched back and handled once", async () => {
    await adapter.stop();
    double.timelineLimit = 3;
    const roots = ["one", "two", "three", "four", "five", "six", "seven"].map((n) =>
      double.message(ALICE, room, `while you were away: ${n}`),
    );
    await startAdapter();
    await eventually("a session for every message in the gap", async () => {
      const rows = await db().selectFrom("sessions").select("thread").where("thread", "in", roots).execute();
      return rows.length === roots.length;
    });
    double.timelineLimit = undefined;
    const marker = double.message(ALICE, room, "!oikos approvals");
    await eventually("later events still handled", () =>
      db().selectFrom("chat_events").select("event_id").where("event_id", "=", marker).executeTakeFirst(),
    );
    const sessions = await db()
      .selectFrom("sessions")
      .select("thread")
      .where("thread", "in", roots)
      .execute();
    assert.equal(sessions.length, roots.length, "each handled once");
  });
});
