import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { currentPlan, planWithSteps } from "../../store/plans.ts";
import { sessionOfThread } from "../../test-support/bot/awaited-rows.ts";
import { proposePlan, queuedJobs } from "../../test-support/bot/chat-harness.ts";
import { eventually } from "../../test-support/bot/eventually.ts";
import { type MatrixRoom, startMatrixRoom } from "../../test-support/bot/matrix-room.ts";

const ALICE = "@alice:double.test";
const BOB = "@bob:double.test";

// "Request changes" on Matrix (issue #32): a reply `changes: …` in the task's thread sends the plan
// back with the reason — it never runs, its card says who asked what — and wakes the agent, whose
// revised plan (a new generation) gets its own card.
describe("request changes on a Matrix plan card", () => {
  let m: MatrixRoom;

  before(async () => {
    m = await startMatrixRoom({ users: [ALICE, BOB], access: { operators: [ALICE, BOB], admins: [ALICE] } });
  });
  after(async () => {
    await m.close();
    assert.deepEqual(m.double.violations, [], "every event the bot sent passes the spec schemas");
  });

  test("changes: … sends the plan back with the reason; the revised plan gets its own card", async () => {
    const { double, h, room } = m;
    const db = h.store.db;
    const root = double.message(ALICE, room, "the whatsapp bridge is stuck");
    const session = await sessionOfThread(h, root);
    await proposePlan(h, session.id, [
      { title: "Reboot the container", target: "lxc:bridges", risk: "config_mutation" },
    ]);
    await eventually("plan card", () => m.bodies().some((b) => b.includes("📋 Plan")) || undefined);
    const turnsBefore = (await queuedJobs(h, "agent-turn")).length;
    double.message(BOB, room, "changes: restart only the bridge service, not the whole container", {
      thread: root,
    });
    const plan = await eventually("sent back", async () => {
      const found = await currentPlan(db, session.id);
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
        m
          .bodies()
          .some(
            (b) => b.includes(`✏️ changes requested by ${BOB}`) && b.includes("not the whole container"),
          ) || undefined,
    );
    await eventually(
      "agent woken",
      async () => (await queuedJobs(h, "agent-turn")).length > turnsBefore || undefined,
    );
    // the operator's words are recorded for the agent once the request is through
    const said = await eventually("recorded", async () => {
      const rows = await db
        .selectFrom("messages")
        .select("content")
        .where("session_id", "=", session.id)
        .where("author", "=", BOB)
        .execute();
      return rows.length > 0 ? rows : undefined;
    });
    assert.deepEqual(
      said.map((r) => r.content),
      ["changes: restart only the bridge service, not the whole container"],
    );
    // the agent's revised plan
    const generation = await proposePlan(h, session.id, [
      { title: "Restart the bridge service", target: "lxc:bridges", risk: "config_mutation" },
    ]);
    assert.equal(generation, 2);
    await eventually(
      "revised plan card",
      () => m.bodies().some((b) => b.includes("📋 Revised plan (v2)")) || undefined,
    );
    const first = (await planWithSteps(db, session.id, 1))?.plan.status;
    assert.ok(first === "denied" || first === "superseded", `plan 1 is ${first}: never runnable again`);
  });
});
