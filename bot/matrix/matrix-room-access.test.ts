import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createExecutionApproval } from "../../store/approvals.ts";
import { upsertEntities } from "../../store/entities.ts";
import { createExecution } from "../../store/executions.ts";
import {
  type ChatHarness,
  createChatHarness,
  proposePlan,
  queuedJobs,
} from "../../test-support/bot/chat-harness.ts";
import { eventually } from "../../test-support/bot/eventually.ts";
import { startMatrixBot } from "../../test-support/bot/matrix-bot.ts";
import { MatrixDouble } from "../../test-support/matrix-double/matrix-double.ts";
import type { MatrixAdapter } from "./matrix-adapter.ts";

const BOT = "@oikos:double.test";
const ALICE = "@alice:double.test"; // global admin: the fleet-wide person
const DAVE = "@dave:double.test"; // admin of room A only
const ERIN = "@erin:double.test"; // operator of room A only
const CAROL = "@carol:double.test"; // power level 50 in both rooms; room A counts it

// Per-room access over the homeserver double: two rooms, one of them with its own people and its
// own minimum power level in `rooms`, the same users in both.
describe("matrix: per-room operators, admins and power level", () => {
  let double: MatrixDouble;
  let h: ChatHarness;
  let adapter: MatrixAdapter;
  let roomA = "";
  let roomB = "";

  before(async () => {
    double = await MatrixDouble.start();
    const botToken = double.registerUser(BOT);
    for (const user of [ALICE, DAVE, ERIN, CAROL]) double.registerUser(user);
    const members = [DAVE, ERIN, CAROL];
    roomA = double.createRoom({ creator: ALICE, members, powerLevels: { [CAROL]: 50 } });
    roomB = double.createRoom({ creator: ALICE, members, powerLevels: { [CAROL]: 50 } });
    h = await createChatHarness({
      operators: [],
      admins: [ALICE],
      rooms: { [roomA]: { operators: [ERIN], admins: [DAVE], minPowerLevel: 50 } },
    });
    adapter = await startMatrixBot(h, double, {
      accessToken: botToken,
      rooms: [roomA, roomB],
      allowedInviters: [ALICE],
      roomInviters: { [roomA]: [ERIN, DAVE] },
    });
    double.invite(roomA, DAVE, BOT);
    double.invite(roomB, ALICE, BOT);
    await eventually("joined both rooms", () =>
      [roomA, roomB].every((room) => double.state.room(room).members.get(BOT) === "join"),
    );
  });
  after(async () => {
    await adapter.stop();
    await h.close();
    await double.close();
    assert.deepEqual(double.violations, [], "every event the bot sent passes the spec schemas");
  });

  /** The bot's answer in the thread of `eventId`. */
  const answerTo = (eventId: string) =>
    eventually(`answer to ${eventId}`, () =>
      double
        .sentBy(BOT)
        .find((e) => (e.content["m.relates_to"] as { event_id?: string } | undefined)?.event_id === eventId),
    ).then((e) => String(e.content.body));
  const sessionRootedAt = (eventId: string) =>
    h.store.db.selectFrom("sessions").select("id").where("thread", "=", eventId).executeTakeFirst();

  test("a room operator is heard in that room and refused in the other", async () => {
    const inA = double.message(ERIN, roomA, "why is the nas slow?");
    await eventually("session in room A", () => sessionRootedAt(inA));
    const inB = double.message(ERIN, roomB, "why is the nas slow?");
    assert.match(await answerTo(inB), /only take instructions from this room's operators/);
    assert.equal(await sessionRootedAt(inB), undefined);
  });

  test("a room admin can sweep in that room but not in another; a room operator cannot sweep", async () => {
    assert.match(await answerTo(double.message(DAVE, roomA, "!oikos sweep stale")), /Sweep `stale` queued/);
    assert.match(await answerTo(double.message(ERIN, roomA, "!oikos sweep idle")), /is for admins/);
    assert.match(
      await answerTo(double.message(DAVE, roomB, "!oikos sweep approvals")),
      /only take instructions/,
    );
    assert.deepEqual(await queuedJobs(h, "sweep"), [{ kind: "stale" }]);
  });

  test("the global admin works in both rooms", async () => {
    assert.match(await answerTo(double.message(ALICE, roomA, "!oikos sweep idle")), /Sweep `idle` queued/);
    assert.match(await answerTo(double.message(ALICE, roomB, "!oikos sweep all")), /Sweep `all` queued/);
    assert.equal((await queuedJobs(h, "sweep")).length, 3);
  });

  test("room A's minimum power level makes CAROL an operator there only", async () => {
    assert.equal(
      await answerTo(double.message(CAROL, roomA, "!oikos approvals")),
      "No pending approvals.\nNo standing grants (♾️).",
    );
    assert.match(await answerTo(double.message(CAROL, roomB, "!oikos approvals")), /only take instructions/);
  });

  test("room-only people see and cancel only their room's work; the global admin sees every room's", async () => {
    const root = double.message(ALICE, roomB, "update the nas in room B");
    const session = await eventually("session in room B", () => sessionRootedAt(root));
    const expiresAt = new Date(Date.now() + 3_600_000);
    const execution = await createExecution(h.store.db, {
      sessionId: session.id,
      target: "host:nas",
      command: "apt-get -y upgrade",
      commandKey: "k-room-b",
      risk: "config_mutation",
      purpose: "upgrade",
      requestedBy: "agent",
      status: "pending_approval",
      timeoutMs: 60_000,
      deadlineAt: expiresAt,
    });
    await createExecutionApproval(h.store.db, {
      sessionId: session.id,
      executionId: execution.id,
      commandKey: "k-room-b",
      target: "host:nas",
      risk: "config_mutation",
      expiresAt,
    });
    assert.equal(
      await answerTo(double.message(ERIN, roomA, "!oikos approvals")),
      "No pending approvals.\nNo standing grants (♾️).",
    );
    assert.match(await answerTo(double.message(ALICE, roomA, "!oikos approvals")), /Pending approvals \(1\)/);
    assert.match(
      await answerTo(double.message(DAVE, roomA, `!oikos cancel ${execution.id}`)),
      /There is no execution `.+` in this room/,
    );
    assert.match(await answerTo(double.message(ALICE, roomA, `!oikos cancel ${execution.id}`)), /cancelled/);
  });

  test("a ✅ sent from another room never decides a card: rights are checked in the card's room", async () => {
    const root = double.message(ALICE, roomB, "rotate the logs on the nas");
    const session = await eventually("session in room B", () => sessionRootedAt(root));
    await proposePlan(h, session.id, [{ title: "Rotate logs", target: "host:nas", risk: "config_mutation" }]);
    const card = await eventually("plan card in room B", () =>
      double.sentBy(BOT).find((e) => String(e.content.body).includes("📋 Plan") && e.room_id === roomB),
    );
    // ERIN is an operator of room A only; her reaction lives in room A but points at room B's card.
    double.react(ERIN, roomA, card.event_id, "✅");
    await eventually("audited as another room's card", async () =>
      (
        await h.store.db
          .selectFrom("audit_log")
          .select("details")
          .where("action", "=", "consent.ignored")
          .execute()
      ).find((row) => (row.details as { reason?: string }).reason === "other_room"),
    );
    const plan = await h.store.db
      .selectFrom("plans")
      .select("status")
      .where("session_id", "=", session.id)
      .executeTakeFirstOrThrow();
    assert.equal(plan.status, "proposed");
  });

  test("routing is changed only by a fleet-wide admin, shown old → new and audited", async () => {
    await upsertEntities(
      h.store.db,
      [
        {
          slug: "host:router-test",
          type: "host",
          name: "router-test",
          attributes: { "ssh.host": "10.0.0.5" },
        },
      ],
      { by: "test" },
    );
    const change = "!oikos routing host:router-test ssh.host=10.0.0.66 ssh.port=2222";
    assert.match(await answerTo(double.message(ERIN, roomA, change)), /for admins/);
    assert.match(await answerTo(double.message(DAVE, roomA, change)), /Only a fleet-wide admin/);
    const answer = await answerTo(double.message(ALICE, roomA, change));
    assert.match(answer, /was: transport=ssh ssh\.host=10\.0\.0\.5/);
    assert.match(answer, /now: transport=ssh ssh\.host=10\.0\.0\.66 ssh\.port=2222/);
    assert.match(
      await answerTo(double.message(ALICE, roomA, "!oikos routing host:router-test note=x")),
      /not routing: note/,
    );
    const audit = await h.store.db
      .selectFrom("audit_log")
      .select("actor")
      .where("action", "=", "routing_changed")
      .where("subject", "=", "host:router-test")
      .execute();
    assert.deepEqual(audit, [{ actor: ALICE }]);
  });
});
