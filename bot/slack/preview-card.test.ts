import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { ApprovalPreviews } from "../../jobs/execution/approval-preview.ts";
import {
  createChatHarness,
  queuedJobs,
  requestExecutionApproval,
} from "../../test-support/bot/chat-harness.ts";
import { eventually } from "../../test-support/bot/eventually.ts";
import { ScriptedPreviewer, scriptedApprovalPreviews } from "../../test-support/bot/scripted-previewer.ts";
import { type SlackBot, startSlackBot } from "../../test-support/bot/slack-bot.ts";
import type { SlackDouble } from "../../test-support/slack-double/slack-double.ts";

const CHANNEL = "C0OPS";
const ALICE = "U0ALICE";
const MALLORY = "U0MALLORY";

// Plan previews on Slack approval cards (issue #15): the card carries the preview's label and a
// "Show preview" button; the click posts the preview in the card's thread, as a code block the
// preview's own text cannot break out of. Every payload is checked by the Slack double.
describe("plan previews on Slack approval cards", () => {
  let bot: SlackBot;
  let double: SlackDouble;
  let previews: ApprovalPreviews;
  const previewer = new ScriptedPreviewer();

  before(async () => {
    const harness = await createChatHarness(
      { operators: [ALICE], admins: [ALICE] },
      { previewAtApproval: (approvalId, act) => previews.atApproval(approvalId, act) },
    );
    previews = scriptedApprovalPreviews(harness.store.db, previewer);
    bot = await startSlackBot({
      mode: "http",
      access: { operators: [ALICE], admins: [ALICE] },
      channels: [CHANNEL],
      harness,
    });
    double = bot.double;
  });
  after(async () => {
    await bot.close();
    await bot.h.close();
    assert.deepEqual(double.violations, [], "every payload was valid and escaped");
  });

  test("Show preview posts the preview in the thread; the card itself carries only its label", async () => {
    previewer.effect = [
      "--- /etc/nginx/nginx.conf",
      "+++ /etc/nginx/nginx.conf",
      "+# ``` not the end of the block",
      "+server_name <!channel> *bold* _it_ &amp;",
    ].join("\n");
    const sent = await double.userMessage(ALICE, CHANNEL, "raise the nginx workers");
    const session = await eventually("session", () =>
      bot.h.store.db.selectFrom("sessions").selectAll().where("thread", "=", sent.ts).executeTakeFirst(),
    );
    const command = "sed -i 's/worker_processes 1/worker_processes 4/' /etc/nginx/nginx.conf";
    const { approvalId } = await requestExecutionApproval(bot.h, session.id, {
      target: "host:web",
      command,
      risk: "config_mutation",
      purpose: "more workers",
      beforeRequested: (ids) =>
        previews.previewNewApproval({ ...ids, sessionId: session.id, target: "host:web", command }),
    });
    const card = await eventually("approval card", () =>
      double.byBot().find((m) => m.text.includes("🔐 Approval needed")),
    );
    const buttons = card.blocks!.flatMap((b) =>
      b.type === "actions" ? b.elements.map((e) => e.action_id) : [],
    );
    assert.deepEqual(buttons, ["oikos:approve", "oikos:deny", "oikos:preview"]);
    assert.match(double.shown(card), /preview \(file diff\), computed \d\d:\d\d UTC/);
    assert.ok(!card.text.includes("server_name"), "the preview text is not in the card's fallback text");

    const click = await double.click(MALLORY, CHANNEL, card.ts, "oikos:preview");
    assert.equal(click.status, 200);
    await double.settle();
    assert.equal(double.botThread(CHANNEL, sent.ts).filter((m) => m.text.includes("Preview of")).length, 0);

    await double.click(ALICE, CHANNEL, card.ts, "oikos:preview");
    const posted = await eventually("preview in the thread", () =>
      double.botThread(CHANNEL, sent.ts).find((m) => m.text.includes("Preview of")),
    );
    const shown = double.shown(posted);
    assert.match(shown, /computed \d\d:\d\d UTC/);
    assert.ok(shown.includes("server_name"), "the diff is in the thread");
    assert.ok(!/<!channel>/.test(JSON.stringify(posted.blocks)), "a written <!channel> notifies nobody");
    assert.deepEqual(double.broadcasts(), [], "nothing broadcast");
    assert.equal(
      (
        await bot.h.store.db
          .selectFrom("approvals")
          .select("status")
          .where("id", "=", approvalId)
          .executeTakeFirstOrThrow()
      ).status,
      "pending",
      "showing the preview decides nothing",
    );
    assert.deepEqual(await queuedJobs(bot.h, "execute"), []);
  });
});
