import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { after, before, describe, test } from "node:test";
import { UNREADABLE_WORDS } from "../../policy/unreadable.ts";
import {
  type ChatHarness,
  createChatHarness,
  requestExecutionApproval,
} from "../../test-support/bot/chat-harness.ts";
import { TerminalAdapter } from "./terminal-adapter.ts";

// A command the proof could not read (Classification.unreadable, issue #32): the approval records
// why, and its card says in words that oikos cannot tell what it changes — before and after the decision.
describe("an approval card of a command oikos cannot read", () => {
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

  test("the card says oikos cannot tell what it changes, and why; a readable one does not", async () => {
    await terminal.send("fix the config with a script");
    const session = await h.store.db.selectFrom("sessions").selectAll().executeTakeFirstOrThrow();
    output = "";
    await requestExecutionApproval(h, session.id, {
      target: "host:web",
      command: "python3 -c 'import fix; fix.run()'",
      risk: "destructive",
      purpose: "repair",
      requiredPhrase: "confirm run host:web",
      unreadable: "inline_program",
    });
    assert.match(output, /oikos cannot tell what this changes/);
    assert.ok(output.includes(UNREADABLE_WORDS.inline_program));
    await terminal.send("confirm run host:web");
    assert.match(output, /✅ approved by alice[\s\S]*/);
    const edited = output.slice(output.lastIndexOf("edited]"));
    assert.match(edited, /oikos cannot tell what this changes/, "still said once decided");
  });

  test("a command oikos read has no such line", async () => {
    await terminal.send("!new");
    await terminal.send("restart nginx");
    const session = await h.store.db
      .selectFrom("sessions")
      .selectAll()
      .where("goal", "=", "restart nginx")
      .executeTakeFirstOrThrow();
    output = "";
    await requestExecutionApproval(h, session.id, {
      target: "host:web",
      command: "systemctl restart nginx",
      risk: "config_mutation",
      purpose: "reload",
    });
    assert.match(output, /Approval needed/);
    assert.doesNotMatch(output, /cannot tell/);
  });
});
