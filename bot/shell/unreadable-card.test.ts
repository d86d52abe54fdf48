import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { UNREADABLE_WORDS } from "../../policy/unreadable.ts";
import { type ChatHarness, requestExecutionApproval } from "../../test-support/bot/chat-harness.ts";
import { type HarnessTerminal, startTerminalChat } from "../../test-support/bot/terminal-chat.ts";

// A command the proof could not read (Classification.unreadable, issue #32): the approval records
// why, and its card says in words that oikos cannot tell what it changes — before and after the decision.
describe("an approval card of a command oikos cannot read", () => {
  let h: ChatHarness;
  let t: HarnessTerminal;

  before(async () => {
    t = await startTerminalChat({ operators: ["alice"], admins: ["alice"] });
    h = t.h;
  });
  after(async () => h.close());

  test("the card says oikos cannot tell what it changes, and why; a readable one does not", async () => {
    await t.terminal.send("fix the config with a script");
    const session = await h.store.db.selectFrom("sessions").selectAll().executeTakeFirstOrThrow();
    t.take();
    await requestExecutionApproval(h, session.id, {
      target: "host:web",
      command: "python3 -c 'import fix; fix.run()'",
      risk: "destructive",
      purpose: "repair",
      requiredPhrase: "confirm run host:web",
      unreadable: "inline_program",
    });
    assert.match(t.output(), /oikos cannot tell what this changes/);
    assert.ok(t.output().includes(UNREADABLE_WORDS.inline_program));
    await t.terminal.send("confirm run host:web");
    assert.match(t.output(), /✅ approved by alice[\s\S]*/);
    const edited = t.output().slice(t.output().lastIndexOf("edited]"));
    assert.match(edited, /oikos cannot tell what this changes/, "still said once decided");
  });

  test("a command oikos read has no such line", async () => {
    await t.terminal.send("!new");
    await t.terminal.send("restart nginx");
    const session = await h.store.db
      .selectFrom("sessions")
      .selectAll()
      .where("goal", "=", "restart nginx")
      .executeTakeFirstOrThrow();
    t.take();
    await requestExecutionApproval(h, session.id, {
      target: "host:web",
      command: "systemctl restart nginx",
      risk: "config_mutation",
      purpose: "reload",
    });
    assert.match(t.output(), /Approval needed/);
    assert.doesNotMatch(t.output(), /cannot tell/);
  });
});
