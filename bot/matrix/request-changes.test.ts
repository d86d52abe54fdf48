import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { currentPlan, planWithSteps } from "../../store/plans.ts";
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
const ALICE = "@alice:double.test";
const BOB = "@bob:double.test";

// "Request changes" on Matrix (issue #32): a reply `changes: …` in the task's thread sends the plan
// back with the reason — it never runs, its card says who asked what — and wakes the agent, whose
// revised plan (a new generation) gets its own card.
describe("request changes on a Matrix plan card", () => {
  let double: MatrixDouble;
  let h: ChatHarness;
  let adapter: MatrixAdapter;
  let room = "";

  before(async () => {
    double = await MatrixDouble.start();
    const botToken = double.registerUser(BOT);
    for (const user of [ALICE, BOB]) double.registerUser(user);
    room = double.createRoom({ creator: ALICE });
    double.invite(room, ALICE, BOT);
    h = await createChatHarness({ operators: [ALICE, BOB], admins: [ALICE] });
    adapter = await startMatrixBot(h, double, {
      accessToken: botToken,
      rooms: [room],
      allowedInviters: [ALICE],
    });
  });
  after(async () => {
    await adapter.stop();
    await h.close();
    await double.close();
    assert.deepEqual(double.violations, [], "every event the bot sent passes the spec schemas");
  });

  const db = () => h.store.db;
  const bodies = () => double.sentBy(BOT).map((e) => String(e.content.body ?? ""));

  test("changes: … sends the plan back with the reason; the revised plan gets its own card", async () => {
    const root = double.message(ALICE, room, "the whatsapp bridge is stuck");
    const session = await eventually("session", () =>
      db().selectFrom("sessions").selectAll().where("thread", "=", root).executeTakeFirst(),
    );
    await proposePlan(h, session.id, [
      { title: "Reboot the container", target: "lxc:bridges", risk: "config_mutation" },
    ]);
    await eventually("plan card", () => bodies().some((b) => b.includes("📋 Plan")) || undefined);
    const turnsBefore = (await queuedJobs(h, "agent-turn")).length;
    double.message(BOB, room, "changes: restart only the bridge service, not the whole container", {
      thread: root,
    });
    const plan = await eventually("sent back", async () => {
      const found = await currentPlan(db(), session.id);
      return found?.plan.changesRequested ? found : undefined;
    });
    assert.equal(plan.plan.status, "denied", "the old plan never runs");
    assert.equal(plan.plan.changesRequested?.by, BOB);
    assert.equal(
      plan.plan.changesRequested?.reason,
      "restart only the bridge service, not the whole container",
    );
    await eventually(
      "card says so",
      () =>
        bodies().some(
          (b) => b.includes(`✏️ changes requested by ${BOB}`) && b.includes("not the whole container"),
        ) || undefined,
    );
    await eventually(
      "agent woken",
      async () => (await queuedJobs(h, "agent-turn")).length > turnsBefore || undefined,
    );
    // the operator's words are recorded for the agent once the request is through
    const said = await eventually("recorded", async () => {
      const rows = await db()
        .selectFrom("messages")
        .select("content")
        .where("session_id", "=", session.id)
        .where("author", "=", BOB)
        .execute();
      return rows.length > 0 ? rows : undefined;
    });
    assert.deepEqual(
      said.map((m) => m.content),
      ["changes: restart only the bridge service, not the whole container"],
    );
    // the agent's revised plan
    const generation = await proposePlan(h, session.id, [
      { title: "Restart the bridge service", target: "lxc:bridges", risk: "config_mutation" },
    ]);
    assert.equal(generation, 2);
    await eventually(
      "revised plan card",
      () => bodies().some((b) => b.includes("📋 Revised plan (v2)")) || undefined,
    );
    const first = (await planWithSteps(db(), session.id, 1))?.plan.status;
    assert.ok(first === "denied" || first === "superseded", `plan 1 is ${first}: never runnable again`);
  });
});
