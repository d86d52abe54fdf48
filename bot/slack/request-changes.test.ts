import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { getApproval } from "../../store/approvals.ts";
import { getExecution } from "../../store/executions.ts";
import { sessionOfThread } from "../../test-support/bot/awaited-rows.ts";
import { queuedJobs, requestExecutionApproval } from "../../test-support/bot/chat-harness.ts";
import { eventually } from "../../test-support/bot/eventually.ts";
import { type SlackBot, startSlackBot } from "../../test-support/bot/slack-bot.ts";
import type { SlackDouble } from "../../test-support/slack-double/slack-double.ts";

const CHANNEL = "C0OPS";
const ALICE = "U0ALICE";
const BOB = "U0BOB";

// "Request changes" on a Slack approval card (issue #32): a reply `changes: …` in the thread denies
// the approval and its execution with the reason (never run), the card says who asked what, and the
// agent is woken to propose again.
describe("request changes on a Slack approval card", () => {
  let bot: SlackBot;
  let double: SlackDouble;

  before(async () => {
    bot = await startSlackBot({
      mode: "http",
      access: { operators: [ALICE, BOB], admins: [ALICE] },
      channels: [CHANNEL],
    });
    double = bot.double;
  });
  after(async () => {
    await bot.close();
    assert.deepEqual(double.violations, [], "every payload was valid and escaped");
  });

  test("the approval and its execution are sent back with the reason; nothing is queued to run", async () => {
    const sent = await double.userMessage(ALICE, CHANNEL, "the bridge is stuck");
    const session = await sessionOfThread(bot.h, sent.ts);
    const { approvalId, executionId } = await requestExecutionApproval(bot.h, session.id, {
      target: "lxc:bridges",
      command: "pct reboot 105",
      risk: "config_mutation",
      purpose: "unstick the bridge",
    });
    await eventually("card", () => double.byBot().find((m) => m.text.includes("🔐 Approval needed")));
    await double.userMessage(BOB, CHANNEL, "changes: restart the bridge service instead of rebooting", {
      threadTs: sent.ts,
    });
    const approval = await eventually("sent back", async () => {
      const row = await getApproval(bot.h.store.db, approvalId);
      return row?.changes_requested ? row : undefined;
    });
    assert.equal(approval.status, "denied");
    assert.equal(approval.changes_requested?.by, BOB);
    const execution = await getExecution(bot.h.store.db, executionId);
    assert.equal(execution?.status, "denied");
    assert.equal(
      execution?.status_reason,
      `changes requested by ${BOB}: restart the bridge service instead of rebooting`,
    );
    assert.deepEqual(await queuedJobs(bot.h, "execute"), [], "nothing runs");
    await eventually(
      "card says so",
      () => double.byBot().some((m) => double.shown(m).includes("changes requested by")) || undefined,
    );
    await eventually(
      "agent woken",
      async () => (await queuedJobs(bot.h, "agent-turn")).length >= 2 || undefined,
    );
  });
});
