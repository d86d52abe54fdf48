import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { getApproval } from "../../store/approvals.ts";
import { type ChatHarness, requestExecutionApproval } from "../../test-support/bot/chat-harness.ts";
import { type HarnessTerminal, startTerminalChat } from "../../test-support/bot/terminal-chat.ts";

// Quorum in the terminal chat (issue #32): a destructive change on storage needs two approvers; the
// typed confirmation counts per person (`!as` switches who types it).
describe("quorum in the terminal", () => {
  let h: ChatHarness;
  let t: HarnessTerminal;

  before(async () => {
    t = await startTerminalChat(
      { operators: ["alice", "bob", "carol"], admins: ["alice"] },
      {
        approvalRules: [
          { entities: ["host:nas"], risks: ["destructive"], approvals: 2, separateRequester: true },
        ],
      },
    );
    h = t.h;
  });
  after(async () => h.close());

  test("typed phrases count per person: the requester's and one more", async () => {
    await t.terminal.send("drop the old snapshots");
    const session = await h.store.db.selectFrom("sessions").selectAll().executeTakeFirstOrThrow();
    const { approvalId } = await requestExecutionApproval(h, session.id, {
      target: "host:nas",
      command: "zfs destroy tank/old@2024",
      risk: "destructive",
      purpose: "space",
      requiredPhrase: "confirm destroy host:nas",
    });
    t.take();
    await t.terminal.send("confirm destroy host:nas");
    assert.match(
      t.output(),
      /1 of 2 approvals — waiting for another operator \(the requester cannot be the only approver\)/,
    );
    assert.equal((await getApproval(h.store.db, approvalId))?.status, "pending");
    t.take();
    await t.terminal.send("!approvals");
    assert.match(
      t.output(),
      new RegExp(`${approvalId} .*1 of 2 approvals — waiting for another operator`),
      "who can still decide",
    );
    await t.terminal.send("confirm destroy host:nas");
    assert.equal((await getApproval(h.store.db, approvalId))?.status, "pending", "the same person twice");
    await t.terminal.send("!as bob");
    await t.terminal.send("confirm destroy host:nas");
    assert.equal((await getApproval(h.store.db, approvalId))?.status, "approved");
    assert.match(t.output(), /approved by alice and bob \(2 of 2\)/);
  });
});
