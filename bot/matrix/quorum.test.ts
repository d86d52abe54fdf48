import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { getApproval } from "../../store/approvals.ts";
import { cardMessageOf, executeQueued, sessionOfThread } from "../../test-support/bot/awaited-rows.ts";
import { queuedJobs, requestExecutionApproval } from "../../test-support/bot/chat-harness.ts";
import { eventually } from "../../test-support/bot/eventually.ts";
import { type MatrixRoom, startMatrixRoom } from "../../test-support/bot/matrix-room.ts";

const ALICE = "@alice:double.test";
const BOB = "@bob:double.test";

// Quorum and separation on Matrix (issue #32): a change on storage needs two approvers and the
// requester cannot be the only one. The requester's ✅ waits (the card says for whom), a second ✅ of
// theirs does not count, another operator's completes it and only then is it queued.
describe("quorum on Matrix", () => {
  let m: MatrixRoom;

  before(async () => {
    m = await startMatrixRoom({
      users: [ALICE, BOB],
      access: { operators: [ALICE, BOB], admins: [ALICE] },
      harness: { approvalRules: [{ entities: ["host:nas"], approvals: 2, separateRequester: true }] },
    });
  });
  after(async () => {
    await m.close();
    assert.deepEqual(m.double.violations, [], "every event the bot sent passes the spec schemas");
  });

  test("1 of 2 waits; the requester's second ✅ does not count; another operator's runs it", async () => {
    const { double, h, room } = m;
    const root = double.message(ALICE, room, "grow the nfs export");
    const session = await sessionOfThread(h, root);
    const { approvalId, executionId } = await requestExecutionApproval(h, session.id, {
      target: "host:nas",
      command: "zfs set quota=2T tank/share",
      risk: "config_mutation",
      purpose: "more room",
    });
    const card = await cardMessageOf(h, approvalId);
    double.react(ALICE, room, card, "✅");
    await eventually(
      "waiting line",
      () =>
        m
          .bodies()
          .some((b) =>
            b.includes(
              "1 of 2 approvals — waiting for another operator (the requester cannot be the only approver)",
            ),
          ) || undefined,
    );
    double.react(ALICE, room, card, "👍");
    await eventually("told", () => m.bodies().some((b) => b.includes("You already approved")) || undefined);
    assert.equal((await getApproval(h.store.db, approvalId))?.status, "pending");
    assert.ok(!(await queuedJobs(h, "execute")).length, "nothing queued");
    double.react(BOB, room, card, "✅");
    await eventually(
      "approved",
      async () => (await getApproval(h.store.db, approvalId))?.status === "approved" || undefined,
    );
    await eventually("queued", () => executeQueued(h, executionId));
    await eventually(
      "card names both",
      () => m.bodies().some((b) => b.includes(`approved by ${ALICE} and ${BOB} (2 of 2)`)) || undefined,
    );
  });
});
