import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { currentPlan } from "../../store/plans.ts";
import { type ChatHarness, proposePlan } from "../../test-support/bot/chat-harness.ts";
import { type HarnessTerminal, startTerminalChat } from "../../test-support/bot/terminal-chat.ts";

// "Request changes" in the terminal chat (issue #32): ✏️ and a reason in the thread sends the plan
// back; with nothing waiting, the same words are a message to the agent.
describe("request changes in the terminal", () => {
  let h: ChatHarness;
  let t: HarnessTerminal;

  before(async () => {
    t = await startTerminalChat({ operators: ["alice"], admins: ["alice"] });
    h = t.h;
  });
  after(async () => h.close());

  test("✏️ <reason> on a plan waiting for approval sends it back; the card says so", async () => {
    await t.terminal.send("upgrade gitea");
    const session = await h.store.db.selectFrom("sessions").selectAll().executeTakeFirstOrThrow();
    await proposePlan(h, session.id, [
      { title: "apt upgrade", target: "lxc:gitea", risk: "config_mutation" },
    ]);
    assert.match(t.take(), /reply “changes: <what to do instead>”/);
    await t.terminal.send("✏️ take a snapshot first");
    const plan = await currentPlan(h.store.db, session.id);
    assert.equal(plan?.plan.status, "denied");
    assert.equal(plan?.plan.changesRequested?.reason, "take a snapshot first");
    assert.match(t.output(), /✏️ changes requested by alice at \d\d:\d\d UTC: take a snapshot first/);
  });

  test("with nothing waiting, “changes: …” is a message to the agent", async () => {
    const session = await h.store.db.selectFrom("sessions").selectAll().executeTakeFirstOrThrow();
    await t.terminal.send("changes: also upgrade the runner");
    const messages = await h.store.db
      .selectFrom("messages")
      .select("content")
      .where("session_id", "=", session.id)
      .where("content", "=", "changes: also upgrade the runner")
      .execute();
    assert.equal(messages.length, 1);
    const plan = await currentPlan(h.store.db, session.id);
    assert.equal(plan?.plan.changesRequested?.reason, "take a snapshot first", "the earlier request stands");
  });
});
