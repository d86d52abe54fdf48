import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { getApproval } from "../../store/approvals.ts";
import {
  type ChatHarness,
  createChatHarness,
  queuedJobs,
  requestExecutionApproval,
} from "../../test-support/bot/chat-harness.ts";
import { eventually } from "../../test-support/bot/eventually.ts";
import { startMatrixBot } from "../../test-support/bot/matrix-bot.ts";
import { MatrixDouble } from "../../test-support/matrix-double/matrix-double.ts";
import type { MatrixAdapter } from "./matrix-adapter.ts";

const BOT = "@oikos:double.test";
const ALICE = "@alice:double.test";
const BOB = "@bob:double.test";

// Quorum and separation on Matrix (issue #32): a change on storage needs two approvers and the
// requester cannot be the only one. The requester's ✅ waits (the card says for whom), a second ✅ of
// theirs does not count, another operator's completes it and only then is it queued.
describe("quorum on Matrix", () => {
  let double: MatrixDouble;
  let h: ChatHarness;
  let adapter: MatrixAdapter;
  let room = "";

  before(async () => {
    double = await MatrixDouble.start();
    const botToken = double.registerUser(BOT);
    for (const user of [ALICE, BOB]) double.registerUser(user);
    room = double.createRoom({ creator: ALICE });
    double.invite(room, ALICE, BOT);
    h = await createChatHarness(
      { operators: [ALICE, BOB], admins: [ALICE] },
      { approvalRules: [{ entities: ["host:nas"], approvals: 2, separateRequester: true }] },
    );
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
  const bodies = () => double.sentBy(BOT).map((e) => String(e.content.body ?? ""));

  test("1 of 2 waits; the requester's second ✅ does not count; another operator's runs it", async () => {
    const root = double.message(ALICE, room, "grow the nfs export");
    const session = await eventually("session", () =>
      db().selectFrom("sessions").selectAll().where("thread", "=", root).executeTakeFirst(),
    );
    const { approvalId, executionId } = await requestExecutionApproval(h, session.id, {
      target: "host:nas",
      command: "zfs set quota=2T tank/share",
      risk: "config_mutation",
      purpose: "more room",
    });
    const card = await eventually("card", async () => {
      const row = await db()
        .selectFrom("chat_cards")
        .select("message_id")
        .where("subject_id", "=", approvalId)
        .executeTakeFirst();
      return row?.message_id;
    });
    double.react(ALICE, room, card, "✅");
    await eventually(
      "waiting line",
      () =>
        bodies().some((b) =>
          b.includes(
            "1 of 2 approvals — waiting for another operator (the requester cannot be the only approver)",
          ),
        ) || undefined,
    );
    double.react(ALICE, room, card, "👍");
    await eventually("told", () => bodies().some((b) => b.includes("You already approved")) || undefined);
    assert.equal((await getApproval(db(), approvalId))?.status, "pending");
    assert.ok(!(await queuedJobs(h, "execute")).length, "nothing queued");
    double.react(BOB, room, card, "✅");
    await eventually(
      "approved",
      async () => (await getApproval(db(), approvalId))?.status === "approved" || undefined,
    );
    await eventually(
      "queued",
      async () =>
        (await queuedJobs(h, "execute")).some(
          (j) => (j as { executionId: string }).executionId === executionId,
        ) || undefined,
    );
    await eventually(
      "card names both",
      () => bodies().some((b) => b.includes(`approved by ${ALICE} and ${BOB} (2 of 2)`)) || undefined,
    );
  });
});
