import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { getApproval } from "../../store/approvals.ts";
import { cardMessageOf, executeQueued, sessionOfThread } from "../../test-support/bot/awaited-rows.ts";
import {
  createChatHarness,
  queuedJobs,
  requestExecutionApproval,
} from "../../test-support/bot/chat-harness.ts";
import { eventually } from "../../test-support/bot/eventually.ts";
import { type SlackBot, startSlackBot } from "../../test-support/bot/slack-bot.ts";
import type { SlackDouble } from "../../test-support/slack-double/slack-double.ts";

const CHANNEL = "C0OPS";
const ALICE = "U0ALICE";
const CAROL = "U0CAROL";
const DAVE = "U0DAVE";
const ONCALL = "S0ONCALL";

// An approver group with quorum on Slack (issue #32): only the on-call group may approve changes
// on storage, two of them. The requester's click does not count; Carol's waits for Dave; Dave's runs it.
describe("quorum and an approver group on Slack", () => {
  let bot: SlackBot;
  let double: SlackDouble;
  const access = { operators: [ALICE, CAROL, DAVE], admins: [ALICE] };

  before(async () => {
    const harness = await createChatHarness(access, {
      approvalRules: [
        { room: CHANNEL, entities: ["lxc:storage-*"], approvals: 2, approvers: [CAROL, DAVE] },
        {
          room: CHANNEL,
          entities: ["lxc:media-*"],
          approvals: 2,
          approverGroups: [{ kind: "slack_usergroup", id: ONCALL, name: "oncall" }],
        },
      ],
    });
    bot = await startSlackBot({ mode: "http", access, channels: [CHANNEL], harness });
    double = bot.double;
    // usergroups.users.list answers { ok: true, users: [user ids] } (Slack Web API reference)
    double.userGroups.set(ONCALL, [CAROL, DAVE]);
  });
  after(async () => {
    await bot.close();
    await bot.h.close();
    assert.deepEqual(double.violations, [], "every payload was valid and escaped");
  });

  test("outside the group: refused; 1 of 2 waits for the one left; the second runs it", async () => {
    const sent = await double.userMessage(ALICE, CHANNEL, "grow the dataset");
    const session = await sessionOfThread(bot.h, sent.ts);
    const { approvalId, executionId } = await requestExecutionApproval(bot.h, session.id, {
      target: "lxc:storage-1",
      command: "zfs set quota=2T tank/share",
      risk: "config_mutation",
      purpose: "more room",
    });
    const ts = await cardMessageOf(bot.h, approvalId);
    await double.click(ALICE, CHANNEL, ts, "oikos:approve");
    await eventually(
      "refused",
      () =>
        double
          .byBot()
          .some((m) =>
            double.shown(m).includes(`approvals.rules leaves it to ${CAROL}, ${DAVE}; ask one of them`),
          ) || undefined,
    );
    await double.click(CAROL, CHANNEL, ts, "oikos:approve");
    await eventually(
      "waiting",
      () =>
        double.byBot().some((m) => double.shown(m).includes("1 of 2 approvals — waiting for one of")) ||
        undefined,
    );
    assert.equal((await getApproval(bot.h.store.db, approvalId))?.status, "pending");
    assert.deepEqual(await queuedJobs(bot.h, "execute"), []);
    await double.click(DAVE, CHANNEL, ts, "oikos:approve");
    await eventually(
      "approved",
      async () => (await getApproval(bot.h.store.db, approvalId))?.status === "approved" || undefined,
    );
    await eventually("queued", () => executeQueued(bot.h, executionId));
  });

  // The same through a Slack user group (approvals.rules `{ userGroup: S0ONCALL, name: oncall }`):
  // the adapter reads its members (usergroups.users.list) when someone decides; the card names it.
  test("approvers by user group: outside it refused with the group named; the card waits for the member left", async () => {
    const sent = await double.userMessage(ALICE, CHANNEL, "resize the media dataset");
    const session = await eventually("session", () =>
      bot.h.store.db.selectFrom("sessions").selectAll().where("thread", "=", sent.ts).executeTakeFirst(),
    );
    const { approvalId, executionId } = await requestExecutionApproval(bot.h, session.id, {
      target: "lxc:media-1",
      command: "zfs set quota=4T tank/media",
      risk: "config_mutation",
      purpose: "more room",
    });
    const ts = await eventually("card", async () => {
      const row = await bot.h.store.db
        .selectFrom("chat_cards")
        .select("message_id")
        .where("subject_id", "=", approvalId)
        .executeTakeFirst();
      return row?.message_id;
    });
    const shown = (text: string) => () =>
      double.byBot().some((m) => double.shown(m).includes(text)) || undefined;
    await double.click(ALICE, CHANNEL, ts, "oikos:approve");
    await eventually(
      "refused, the group named",
      shown(
        `You may not approve ${approvalId}: approvals.rules leaves it to ${CAROL}, ${DAVE} (members of: Slack user group @oncall); ask one of them.`,
      ),
    );
    await double.click(DAVE, CHANNEL, ts, "oikos:approve");
    await eventually(
      "waiting",
      shown("1 of 2 approvals — waiting for one of U0CAROL (Slack user group @oncall)"),
    );
    assert.equal((await getApproval(bot.h.store.db, approvalId))?.status, "pending");
    await double.click(CAROL, CHANNEL, ts, "oikos:approve");
    await eventually(
      "queued",
      async () =>
        (await queuedJobs(bot.h, "execute")).some(
          (j) => (j as { executionId: string }).executionId === executionId,
        ) || undefined,
    );
  });
});
