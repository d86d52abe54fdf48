import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { ApprovalPreviews } from "../../jobs/execution/approval-preview.ts";
import { executionFinished } from "../../store/domain-events.ts";
import { transitionExecution } from "../../store/executions.ts";
import {
  type ChatHarness,
  createChatHarness,
  proposePlan,
  queuedJobs,
  requestExecutionApproval,
} from "../../test-support/bot/chat-harness.ts";
import { eventually } from "../../test-support/bot/eventually.ts";
import { startMatrixBot } from "../../test-support/bot/matrix-bot.ts";
import { ScriptedPreviewer, scriptedApprovalPreviews } from "../../test-support/bot/scripted-previewer.ts";
import { MatrixDouble } from "../../test-support/matrix-double/matrix-double.ts";
import { buildSummaryCard } from "../core/cards/summary-card.ts";
import type { MatrixAdapter } from "./matrix-adapter.ts";

const BOT = "@oikos:double.test";
const ALICE = "@alice:double.test";

// Plan previews on Matrix approval cards (issue #15): the preview collapsed in <details>, escaped;
// recorded as what the card showed; computed again when approved, and a changed preview asks
// again with a new card while nothing runs.
describe("plan previews on Matrix approval cards", () => {
  let double: MatrixDouble;
  let h: ChatHarness;
  let adapter: MatrixAdapter;
  let previews: ApprovalPreviews;
  const previewer = new ScriptedPreviewer();
  let room = "";

  before(async () => {
    double = await MatrixDouble.start();
    const botToken = double.registerUser(BOT);
    double.registerUser(ALICE);
    room = double.createRoom({ creator: ALICE });
    double.invite(room, ALICE, BOT);
    h = await createChatHarness(
      { operators: [ALICE], admins: [ALICE] },
      { previewAtApproval: (approvalId, act) => previews.atApproval(approvalId, act) },
    );
    previews = scriptedApprovalPreviews(h.store.db, previewer);
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
  const botEvents = () => double.sentBy(BOT);
  const body = (e: { content: Record<string, unknown> }) => String(e.content.body);
  const html = (e: { content: Record<string, unknown> }) => String(e.content.formatted_body);
  const newSession = async (text: string) => {
    const root = double.message(ALICE, room, text);
    return (
      await eventually("session", () =>
        db().selectFrom("sessions").selectAll().where("thread", "=", root).executeTakeFirst(),
      )
    ).id;
  };
  const ask = (sessionId: string, command: string) =>
    requestExecutionApproval(h, sessionId, {
      target: "host:nas",
      command,
      risk: "config_mutation",
      purpose: "share /srv read-write",
      beforeRequested: (ids) =>
        previews.previewNewApproval({ ...ids, sessionId, target: "host:nas", command }),
    });
  const cardOf = (approvalId: string) =>
    eventually("approval card", async () => {
      const row = await db()
        .selectFrom("chat_cards")
        .select("message_id")
        .where("subject_id", "=", approvalId)
        .executeTakeFirst();
      return row && botEvents().find((e) => e.event_id === row.message_id);
    });
  /** The new approval the preview gate asked for the same execution. */
  const askedAgain = (executionId: string) =>
    eventually("asked again on a new approval", () =>
      db()
        .selectFrom("approvals")
        .selectAll()
        .where("execution_id", "=", executionId)
        .where("status", "=", "pending")
        .executeTakeFirst(),
    );
  const statusOf = async (table: "approvals" | "executions", id: string) =>
    (await db().selectFrom(table).select("status").where("id", "=", id).executeTakeFirstOrThrow()).status;

  test("the card shows the preview collapsed and escaped, with its time; the operator denies and nothing is queued", async () => {
    previewer.effect = '--- /etc/exports\n+++ /etc/exports\n-<b>old</b> & "x"\n+<script>alert(1)</script>';
    const sessionId = await newSession("share /srv read-write");
    const { approvalId, executionId } = await ask(sessionId, "sed -i 's/(ro)/(rw)/' /etc/exports");
    const card = await cardOf(approvalId);
    const formatted = html(card);
    assert.match(
      formatted,
      /<details><summary>preview \(file diff\), computed \d\d:\d\d UTC<\/summary><pre><code>/,
    );
    assert.ok(formatted.includes("&lt;script&gt;alert(1)&lt;/script&gt;"), "the diff is escaped");
    assert.ok(formatted.includes("-&lt;b&gt;old&lt;/b&gt; &amp; &quot;x&quot;"));
    assert.ok(!formatted.includes("<script>") && !formatted.includes("<b>old"), "no markup from the preview");
    assert.match(body(card), /│ \+<script>alert\(1\)<\/script>/, "the plain body carries it below the card");
    const recorded = await db()
      .selectFrom("previews")
      .selectAll()
      .where("approval_id", "=", approvalId)
      .execute();
    assert.deepEqual(
      recorded.map((r) => [r.purpose, r.status, (r.preview as { text?: string }).text]),
      [["shown", "available", previewer.effect]],
      "what the card showed is recorded with its approval",
    );
    const computedBefore = previewer.computed.length;
    double.react(ALICE, room, card.event_id, "❌");
    await eventually("denied", async () => (await statusOf("approvals", approvalId)) === "denied");
    assert.equal(await statusOf("executions", executionId), "denied");
    assert.equal(previewer.computed.length, computedBefore, "a denial computes nothing");
    assert.deepEqual(await queuedJobs(h, "execute"), [], "nothing queued to run");
  });

  let secondApproval = "";
  test("the file changes between the card and ✅: not run, asked again with the new preview on a new card", async () => {
    previewer.effect = "--- /etc/exports\n+++ /etc/exports\n-/srv (ro)\n+/srv (rw)";
    const sessionId = await newSession("share /srv again");
    const { approvalId, executionId } = await ask(sessionId, "sed -i 's/(ro)/(rw)/' /etc/exports");
    const card = await cardOf(approvalId);
    previewer.effect =
      "--- /etc/exports\n+++ /etc/exports\n-/srv (ro)\n-/backup (ro)\n+/srv (rw)\n+/backup (rw)";
    double.react(ALICE, room, card.event_id, "✅");
    await eventually(
      "old approval closed",
      async () => (await statusOf("approvals", approvalId)) === "cancelled",
    );
    const next = await askedAgain(executionId);
    secondApproval = next.id;
    assert.equal(await statusOf("executions", executionId), "pending_approval", "the execution still waits");
    assert.deepEqual(await queuedJobs(h, "execute"), [], "the first approval ran nothing");
    const newCard = await cardOf(next.id);
    assert.notEqual(newCard.event_id, card.event_id, "a new card, so a fresh ✅ decides it");
    assert.ok(html(newCard).includes("+/backup (rw)"), "the new card shows the new preview");
    assert.match(body(newCard), /asked again: the preview changed/);
    await eventually("the thread is told why", () =>
      botEvents().some((e) => /Not run: the preview changed since the card showed it/.test(body(e))),
    );
    await eventually("the old card says what happened", () =>
      double
        .relations(card.event_id, "m.replace")
        .some((e) =>
          /nothing ran; asked again in a new card/.test(
            String((e.content["m.new_content"] as { body: string }).body),
          ),
        ),
    );
    const rows = await db()
      .selectFrom("previews")
      .select(["approval_id", "purpose", "decision"])
      .where("execution_id", "=", executionId)
      .orderBy("id")
      .execute();
    assert.deepEqual(
      rows.map((r) => [r.approval_id, r.purpose, r.decision]),
      [
        [approvalId, "shown", null],
        [approvalId, "recheck", "ask_again:changed"],
        [next.id, "shown", null],
      ],
    );
    const audit = await db()
      .selectFrom("audit_log")
      .select("action")
      .where("action", "=", "approval.asked_again")
      .execute();
    assert.equal(audit.length, 1);
  });

  test("✅ on the new card while the target still matches it: the approval goes through and the execution is queued", async () => {
    const card = await cardOf(secondApproval);
    double.react(ALICE, room, card.event_id, "✅");
    await eventually("approved", async () => (await statusOf("approvals", secondApproval)) === "approved");
    const recheck = await db()
      .selectFrom("previews")
      .select("decision")
      .where("approval_id", "=", secondApproval)
      .where("purpose", "=", "recheck")
      .executeTakeFirstOrThrow();
    assert.equal(recheck.decision, "proceed:unchanged");
    await eventually(
      "the execution is queued to run",
      async () => (await queuedJobs(h, "execute")).length === 1,
    );
  });

  test("after the run the outcome is compared with the approved preview: the card and the summary say what was found", async () => {
    const approval = await db()
      .selectFrom("approvals")
      .select(["execution_id", "session_id"])
      .where("id", "=", secondApproval)
      .executeTakeFirstOrThrow();
    const executionId = approval.execution_id!;
    previewer.outcome = {
      status: "differs",
      detail: "/etc/exports sha256 is 1f2e…, the preview expected 9a8b…",
    };
    // The worker's afterRun (ApprovalPreviews.checkOutcome) runs between the end of the command and execution.finished.
    await transitionExecution(db(), executionId, { from: "queued", to: "running", now: new Date() });
    await transitionExecution(db(), executionId, {
      from: "running",
      to: "completed",
      now: new Date(),
      set: { exit_code: 0, stdout: "", stderr: "", duration_ms: 40 },
    });
    const checks = await previews.checkOutcome(executionId);
    assert.deepEqual(checks, [previewer.outcome], "one check per expectation of the preview");
    assert.equal(await previews.checkOutcome(executionId), undefined, "checked once");
    const finished = await db()
      .selectFrom("executions")
      .selectAll()
      .where("id", "=", executionId)
      .executeTakeFirstOrThrow();
    await h.events.publish(executionFinished(finished, "completed"));
    const card = await cardOf(secondApproval);
    await eventually("the card notes the mismatch", () =>
      double
        .relations(card.event_id, "m.replace")
        .some((e) =>
          String((e.content["m.new_content"] as { body: string }).body).includes(
            "⚠️ outcome differs from the preview: /etc/exports sha256 is 1f2e…",
          ),
        ),
    );
    const summary = await buildSummaryCard(db(), approval.session_id, "success");
    assert.ok(
      summary.lines.some(
        (l) => l.startsWith("⚠️ outcome differs from the preview") && l.includes(executionId),
      ),
      "the completion summary notes it too",
    );
    previewer.outcome = { status: "matches", detail: "/etc/exports has the previewed sha256" };
  });

  test("✅ on the plan while its pending config change's preview changed: neither the plan nor the change goes through", async () => {
    previewer.effect = "--- /etc/exports\n+++ /etc/exports\n-/srv (ro)\n+/srv (rw)";
    const sessionId = await newSession("plan: share /srv read-write");
    const generation = await proposePlan(h, sessionId, [
      { title: "Make /srv read-write", target: "host:nas", risk: "config_mutation" },
    ]);
    const planCard = await eventually("plan card", async () => {
      const row = await db()
        .selectFrom("chat_cards")
        .select("message_id")
        .where("subject_id", "=", `${sessionId}:${generation}`)
        .executeTakeFirst();
      return row && botEvents().find((e) => e.event_id === row.message_id);
    });
    const { approvalId, executionId } = await ask(sessionId, "sed -i 's/(ro)/(rw)/' /etc/exports");
    await cardOf(approvalId);
    previewer.effect = "--- /etc/exports\n+++ /etc/exports\n-/srv (ro)\n-/home (ro)\n+/srv (rw)\n+/home (rw)";
    const queuedBefore = (await queuedJobs(h, "execute")).length;
    double.react(ALICE, room, planCard.event_id, "✅");
    await eventually("asked again", async () => (await statusOf("approvals", approvalId)) === "cancelled");
    await eventually("the thread is told the plan waits too", () =>
      botEvents().some((e) => body(e).includes("The plan was not approved either")),
    );
    const plan = await db()
      .selectFrom("plans")
      .select("status")
      .where("session_id", "=", sessionId)
      .where("generation", "=", generation)
      .executeTakeFirstOrThrow();
    assert.equal(plan.status, "proposed", "no assent window the same command could run in");
    assert.equal(await statusOf("executions", executionId), "pending_approval");
    assert.equal((await queuedJobs(h, "execute")).length, queuedBefore, "nothing queued");
  });

  test("no rule: the card says so honestly and approving computes nothing again", async () => {
    previewer.unavailable = "no preview rule for `systemctl reload nfs-server`";
    try {
      const sessionId = await newSession("reload nfs");
      const { approvalId } = await ask(sessionId, "systemctl reload nfs-server");
      const card = await cardOf(approvalId);
      assert.match(
        html(card),
        /<p><em>no preview available: no preview rule for `systemctl reload nfs-server` \(\d\d:\d\d UTC\)<\/em><\/p>/,
      );
      assert.ok(!html(card).includes("<details><summary>preview"), "nothing to expand");
      const computedBefore = previewer.computed.length;
      double.react(ALICE, room, card.event_id, "✅");
      await eventually("approved", async () => (await statusOf("approvals", approvalId)) === "approved");
      assert.equal(previewer.computed.length, computedBefore, "a rule-less preview is not recomputed");
    } finally {
      previewer.unavailable = null;
    }
  });

  test("the preview cannot be computed again at approval: asked again showing why; approving that one goes through", async () => {
    previewer.effect = "--- /etc/fstab\n+++ /etc/fstab\n+tmpfs /tmp tmpfs defaults 0 0";
    const sessionId = await newSession("tmpfs for /tmp");
    const { approvalId, executionId } = await ask(
      sessionId,
      "echo 'tmpfs /tmp tmpfs defaults 0 0' >> /etc/fstab",
    );
    const card = await cardOf(approvalId);
    previewer.fail = "ssh: connection refused";
    try {
      double.react(ALICE, room, card.event_id, "✅");
      await eventually("not applied", async () => (await statusOf("approvals", approvalId)) === "cancelled");
      const next = await askedAgain(executionId);
      const newCard = await cardOf(next.id);
      assert.match(body(newCard), /no preview: computing it failed \(ssh: connection refused\)/);
      assert.equal(await statusOf("executions", executionId), "pending_approval");
      double.react(ALICE, room, newCard.event_id, "✅");
      await eventually(
        "approved knowing there is no preview",
        async () => (await statusOf("approvals", next.id)) === "approved",
      );
      assert.equal(await statusOf("executions", executionId), "queued");
    } finally {
      previewer.fail = null;
    }
  });
});
