import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { after, before, describe, test } from "node:test";
import { currentPlan } from "../../store/plans.ts";
import { type ChatHarness, createChatHarness, proposePlan } from "../../test-support/bot/chat-harness.ts";
import { TerminalAdapter } from "./terminal-adapter.ts";

// "Request changes" in the terminal chat (issue #32): ✏️ and a reason in the thread sends the plan
// back; with nothing waiting, the same words are a message to the agent.
describe("request changes in the terminal", () => {
  let h: ChatHarness;
  let terminal: TerminalAdapter;
  let output = "";

  before(async () => {
    h = await createChatHarness({ operators: ["alice"], admins: ["alice"] });
    const out = new PassThrough();
    out.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    terminal = new TerminalAdapter({
      input: new PassThrough(),
      output: out,
      user: "alice",
      interactive: false,
    });
    h.adapters.set("shell", terminal);
    await terminal.start((e) => h.core.handle(e));
  });
  after(async () => h.close());

  test("✏️ <reason> on a plan waiting for approval sends it back; the card says so", async () => {
    await terminal.send("upgrade gitea");
    const session = await h.store.db.selectFrom("sessions").selectAll().executeTakeFirstOrThrow();
    await proposePlan(h, session.id, [
      { title: "apt upgrade", target: "lxc:gitea", risk: "config_mutation" },
    ]);
    assert.match(output, /reply “changes: <what to do instead>”/);
    output = "";
    await terminal.send("✏️ take a snapshot first");
    const plan = await currentPlan(h.store.db, session.id);
    assert.equal(plan?.plan.status, "denied");
    assert.equal(plan?.plan.changesRequested?.reason, "take a snapshot first");
    assert.match(output, /✏️ changes requested by alice at \d\d:\d\d UTC: take a snapshot first/);
  });

  test("with nothing waiting, “changes: …” is a message to the agent", async () => {
    const session = await h.store.db.selectFrom("sessions").selectAll().executeTakeFirstOrThrow();
    await terminal.send("changes: also upgrade the runner");
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
