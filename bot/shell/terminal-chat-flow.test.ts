import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { askQuestion } from "../../store/questions.ts";
import { findSessionByThread } from "../../store/sessions.ts";
import { auditEntries } from "../../test-support/bot/audit-entries.ts";
import {
  type ChatHarness,
  finishExecution,
  proposePlan,
  queuedJobs,
  requestExecutionApproval,
} from "../../test-support/bot/chat-harness.ts";
import { type HarnessTerminal, startTerminalChat } from "../../test-support/bot/terminal-chat.ts";

// The chat core through the terminal adapter, with the agent's and the worker's part played by
// writing their rows with their store functions and publishing their events.
describe("terminal chat through the core", () => {
  let h: ChatHarness;
  let t: HarnessTerminal;
  const take = () => t.take();

  before(async () => {
    t = await startTerminalChat({ operators: ["alice", "bob"], admins: ["alice"] });
    h = t.h;
  });
  after(async () => h.close());

  let sessionId = "";
  let thread = "";

  test("a top-level message starts a session bound to its thread and queues a turn", async () => {
    await t.terminal.send("restart the gitea container");
    const session = await h.store.db.selectFrom("sessions").selectAll().executeTakeFirstOrThrow();
    sessionId = session.id;
    thread = session.thread;
    assert.equal(session.platform, "shell");
    assert.equal(session.created_by, "alice");
    const found = await findSessionByThread(h.store.db, { platform: "shell", room: "terminal", thread });
    assert.equal(found?.id, sessionId);
    const jobs = await queuedJobs(h, "agent-turn");
    assert.equal(jobs.length, 1);
    assert.equal((jobs[0] as { sessionId: string }).sessionId, sessionId);
    const messages = await h.store.db
      .selectFrom("messages")
      .selectAll()
      .where("session_id", "=", sessionId)
      .execute();
    assert.deepEqual(
      messages.map((m) => [m.role, m.content, m.author]),
      [["user", "restart the gitea container", "alice"]],
    );
  });

  test("a stranger gets one polite refusal and never a turn", async () => {
    await t.terminal.send("!as mallory");
    take();
    await t.terminal.send("please delete everything");
    assert.match(take(), /only take instructions from this room's operators/);
    await t.terminal.send("hello??");
    assert.doesNotMatch(take(), /operators/);
    assert.equal((await queuedJobs(h, "agent-turn")).length, 1);
    assert.equal((await auditEntries(h, { action: "chat.refused" })).length, 2);
  });

  test("a plan card: the stranger's +1 is ignored and audited, the operator's approves and edits the card", async () => {
    const generation = await proposePlan(h, sessionId, [
      { title: "Look at the container", target: "lxc:gitea", risk: "read_only" },
      { title: "Restart gitea", target: "lxc:gitea", risk: "config_mutation" },
    ]);
    const card = take();
    assert.match(card, /📋 Plan — needs your approval/);
    assert.match(card, /1\. Look at the container on `lxc:gitea` — 🟢 read-only/);
    assert.match(card, /2\. Restart gitea on `lxc:gitea` — 🟡 config change/);
    assert.match(card, /oikos reacted ✅/);
    await t.terminal.send("+1");
    const plan = () =>
      h.store.db
        .selectFrom("plans")
        .selectAll()
        .where("session_id", "=", sessionId)
        .where("generation", "=", generation)
        .executeTakeFirstOrThrow();
    assert.equal((await plan()).status, "proposed");
    const ignored = await auditEntries(h, { action: "consent.ignored" });
    assert.equal(ignored.length, 1);
    assert.equal(ignored[0]!.actor, "mallory");
    await t.terminal.send("!as alice");
    take();
    await t.terminal.send("+1");
    const decided = await plan();
    assert.equal(decided.status, "approved");
    assert.equal(decided.decided_by, "alice");
    assert.equal(decided.decided_via, "reaction");
    const edited = take();
    assert.match(edited, /\[#\d+ edited\] 📋 Plan/);
    assert.match(edited, /✅ approved by alice via \+1 at \d\d:\d\d UTC/);
    const window = await h.store.db
      .selectFrom("windows")
      .selectAll()
      .where("session_id", "=", sessionId)
      .executeTakeFirst();
    assert.equal(window?.kind, "assent");
  });

  test("an approval card decided by a typed phrase, then edited with progress and the output tail", async () => {
    const { executionId, approvalId } = await requestExecutionApproval(h, sessionId, {
      target: "lxc:gitea",
      command: "systemctl restart gitea",
      risk: "config_mutation",
      purpose: "apply the new config",
    });
    const card = take();
    assert.match(card, /🔐 Approval needed — waiting for an operator/);
    assert.match(card, /`systemctl restart gitea`/);
    await t.terminal.send("go ahead");
    const approval = await h.store.db
      .selectFrom("approvals")
      .selectAll()
      .where("id", "=", approvalId)
      .executeTakeFirstOrThrow();
    assert.equal(approval.status, "approved");
    assert.equal(approval.channel, "phrase");
    assert.match(take(), /approved by alice via typed “go ahead”/);
    const lines = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join("\n");
    await finishExecution(h, sessionId, executionId, { exitCode: 0, stdout: lines });
    const progress = take();
    assert.match(progress, /✅ finished, exit 0 in 1\.2 s/);
    assert.match(progress, /line 40/);
    assert.doesNotMatch(progress, /line 3\n/);
    assert.match(progress, /earlier lines hidden/);
    const executeJobs = await queuedJobs(h, "execute");
    assert.deepEqual(executeJobs, [{ executionId }]);
  });

  test("destructive: 👍 does not approve; only the exact phrase naming the target does", async () => {
    const { approvalId } = await requestExecutionApproval(h, sessionId, {
      target: "lxc:gitea",
      command: "pct destroy 105",
      risk: "destructive",
      purpose: "remove the old container",
      requiredPhrase: "destroy lxc:gitea",
    });
    const card = take();
    assert.match(card, /reply in this thread with exactly: `destroy lxc:gitea`/);
    assert.doesNotMatch(card, /oikos reacted ✅/);
    await t.terminal.send("!react 👍");
    const status = async () =>
      (
        await h.store.db
          .selectFrom("approvals")
          .select("status")
          .where("id", "=", approvalId)
          .executeTakeFirstOrThrow()
      ).status;
    assert.equal(await status(), "pending");
    assert.match(take(), /type exactly `destroy lxc:gitea`/);
    await t.terminal.send("yes do it");
    assert.equal(await status(), "pending");
    take();
    await t.terminal.send("destroy lxc:gitea");
    assert.equal(await status(), "approved");
    assert.match(take(), /approved by alice via typed “destroy lxc:gitea”/);
  });

  test("a typed confirmation with nothing pending, or inside a question, opens no window: it is a message to the agent", async () => {
    await t.terminal.send("confirm destroy lxc:old-nextcloud");
    await t.terminal.send("what does confirm restart host:nas do? don't do anything yet");
    const windows = await h.store.db
      .selectFrom("windows")
      .selectAll()
      .where("session_id", "=", sessionId)
      .where("kind", "=", "destructive")
      .where("target", "in", ["lxc:old-nextcloud", "host:nas"])
      .execute();
    assert.deepEqual(windows, [], "only the phrase on a pending destructive card opens a window");
    const said = await h.store.db
      .selectFrom("messages")
      .select("content")
      .where("session_id", "=", sessionId)
      .where("role", "=", "user")
      .execute();
    const texts = said.map((m) => m.content);
    assert.ok(texts.includes("confirm destroy lxc:old-nextcloud"), texts.join(" | "));
    assert.ok(
      texts.some((t) => t.startsWith("what does confirm restart host:nas do?")),
      texts.join(" | "),
    );
  });

  test("a question card with numbered options; replying with a number answers it and wakes the agent", async () => {
    const question = await askQuestion(h.store.db, {
      sessionId,
      prompt: "Which gitea should I keep?",
      why: "two installs were found",
      options: ["the LXC one", "the docker one"],
    });
    await h.events.publish({ type: "question.raised", sessionId, questionId: question.id });
    const card = take();
    assert.match(card, /❓ Question/);
    assert.match(card, /1\. the LXC one\n.*2\. the docker one/);
    assert.match(card, /Reply in this thread with a number/);
    await t.terminal.send("2");
    const row = await h.store.db
      .selectFrom("questions")
      .selectAll()
      .where("id", "=", question.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.status, "answered");
    assert.equal(row.answer, "the docker one");
    assert.equal(row.answered_by, "alice");
    assert.match(take(), /answered by alice: the docker one/);
    const answers = (await queuedJobs(h, "agent-turn")).filter(
      (j) => (j as { reason: string }).reason === "answer",
    );
    assert.equal(answers.length, 1);
  });

  test("the completion summary is a reply in the thread; the next message starts a new session", async () => {
    await h.store.db
      .updateTable("sessions")
      .set({ summary: "gitea restarted; config applied", status: "done" })
      .where("id", "=", sessionId)
      .execute();
    await h.events.publish({ type: "task.completed", sessionId, outcome: "success" });
    const summary = take();
    assert.match(summary, /│ oikos \[#\d+\] ✅ Task success/);
    assert.match(summary, /gitea restarted; config applied/);
    await t.terminal.send("now check the disk space");
    const sessions = await h.store.db.selectFrom("sessions").select("id").execute();
    assert.equal(sessions.length, 2);
  });

  test("the same platform event twice is handled once", async () => {
    const event = {
      kind: "message" as const,
      platform: "shell",
      room: "terminal",
      eventId: "dup-1",
      messageId: "dup-1",
      user: "alice",
      thread: null,
      text: "one task",
    };
    await h.core.handle(event);
    await h.core.handle(event);
    const sessions = await h.store.db
      .selectFrom("sessions")
      .select("id")
      .where("thread", "=", "dup-1")
      .execute();
    assert.equal(sessions.length, 1);
    const messages = await h.store.db
      .selectFrom("messages")
      .select("id")
      .where("platform_event_id", "=", "dup-1")
      .execute();
    assert.equal(messages.length, 1);
  });

  test("admin commands: approvals lists, sweep queues, and a non-admin is refused", async () => {
    take();
    await t.terminal.send("!oikos approvals");
    assert.match(take(), /No pending approvals|Pending approvals/);
    await t.terminal.send("!oikos sweep stale");
    assert.match(take(), /Sweep `stale` queued/);
    assert.deepEqual(await queuedJobs(h, "sweep"), [{ kind: "stale" }]);
    await t.terminal.send("!as bob");
    take();
    await t.terminal.send("!oikos sweep all");
    assert.match(take(), /`!sweep` is for admins, and bob is not an admin here/);
    assert.equal((await queuedJobs(h, "sweep")).length, 1);
  });
});
