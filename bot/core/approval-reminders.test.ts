import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { registerAllSweeps } from "../../jobs/sweeps/default-sweeps.ts";
import { runSweeps, type SweepContext } from "../../jobs/sweeps/registry.ts";
import { createExecutionApproval } from "../../store/approvals.ts";
import { approvalRequested } from "../../store/domain-events.ts";
import { createExecution } from "../../store/executions.ts";
import { sessionFor } from "../../test-support/bot/chat-harness.ts";
import { type ConsolePlatforms, startConsolePlatforms } from "../../test-support/bot/console-platforms.ts";
import { eventually } from "../../test-support/bot/eventually.ts";
import { mentionsSchema } from "../../test-support/matrix-double/event-schemas.ts";
import { defaultPushVerdict } from "../../test-support/matrix-double/push-rules.ts";

const BOT = "@oikos:double.test";
const MINUTE = 60_000;

// A pending approval is called again at half its time to live (once, mentioning who can decide),
// and when nobody decides it says "expired unanswered" in its thread and on its card.
describe("approval reminders and expiry in the thread", () => {
  let c: ConsolePlatforms;
  let root = "";
  let approvalId = "";
  const asked = new Date(Date.now() - 40 * MINUTE);
  const expires = new Date(asked.getTime() + 60 * MINUTE);
  const sweep = (kind: string, now: Date) => {
    const ctx: SweepContext = {
      db: c.h.store.db,
      events: c.h.events,
      queue: c.h.queue,
      now,
      heartbeatStaleMs: MINUTE,
    };
    return runSweeps(kind, ctx);
  };
  const inThread = () =>
    c.matrix.double
      .sentBy(BOT)
      .filter((e) => (e.content["m.relates_to"] as { event_id?: string } | undefined)?.event_id === root);

  before(async () => {
    registerAllSweeps();
    c = await startConsolePlatforms();
    const { double, room } = c.matrix;
    root = double.message(c.user("matrix", "admin"), room, "!oikos tasks");
    await eventually("answered", () => double.sentBy(BOT).length > 0);
    const db = c.h.store.db;
    const sessionId = await sessionFor(c.h, "matrix", room, root, c.user("matrix", "admin"));
    const execution = await createExecution(db, {
      sessionId,
      target: "lxc:gitea",
      command: "systemctl restart gitea",
      commandKey: "lxc:gitea:systemctl restart gitea",
      risk: "config_mutation",
      purpose: "restart",
      requestedBy: "agent",
      status: "pending_approval",
      timeoutMs: MINUTE,
      deadlineAt: expires,
      planGeneration: null,
      stepSeq: null,
    });
    const created = await createExecutionApproval(
      db,
      {
        sessionId,
        executionId: execution.id,
        commandKey: execution.command_key,
        target: "lxc:gitea",
        risk: "config_mutation",
        expiresAt: expires,
      },
      asked,
    );
    assert.ok(created.created);
    approvalId = created.approval.id;
    await c.h.events.publish(approvalRequested({ sessionId, approvalId, executionId: execution.id }));
    await eventually("approval card", () =>
      inThread().find((e) => String(e.content.body).includes("Approval needed")),
    );
  });
  after(async () => {
    await c.close();
    assert.deepEqual(c.matrix.double.violations, []);
  });

  test("before half its time to live nothing is said; after it, one reminder that mentions the approvers", async () => {
    const early = await sweep("reminders", new Date(asked.getTime() + 20 * MINUTE));
    assert.deepEqual(early[0]?.items, []);
    const due = await sweep("reminders", new Date(asked.getTime() + 31 * MINUTE));
    assert.equal(due[0]?.items[0]?.detail, "reminded");
    const reminder = await eventually("reminder", () =>
      inThread().find((e) => String(e.content.body).includes("Still waiting")),
    );
    assert.match(String(reminder.content.body), /`systemctl restart gitea` on `lxc:gitea`/);
    assert.match(String(reminder.content.body), /expires unanswered at \d\d:\d\d UTC/);
    const mentions = reminder.content["m.mentions"] as { user_ids?: string[] };
    assert.ok(mentionsSchema.safeParse(mentions).success);
    assert.deepEqual(mentions.user_ids, ["@alice:double.test", "@bob:double.test"]);
    for (const user of mentions.user_ids ?? [])
      assert.deepEqual(
        defaultPushVerdict(c.matrix.double.state, reminder, user),
        { rule: ".m.rule.is_user_mention", notify: true, highlight: true },
        `${user} is notified under the spec's default push rules`,
      );
    assert.match(String(reminder.content.body), /\(in (\d+) min\)/);
    const again = await sweep("reminders", new Date(asked.getTime() + 45 * MINUTE));
    assert.deepEqual(again[0]?.items, [], "one reminder per approval");
  });

  test("expired: the thread says it expired unanswered, and the card says so (not denied)", async () => {
    const swept = await sweep("approvals", new Date(expires.getTime() + MINUTE));
    assert.match(String(swept[0]?.items[0]?.detail), /^expired/);
    const notice = await eventually("expired notice", () =>
      inThread().find((e) => String(e.content.body).includes("expired unanswered")),
    );
    assert.match(String(notice.content.body), /nobody decided, so it did not run/);
    for (const user of ["@alice:double.test", "@bob:double.test"])
      assert.ok(
        defaultPushVerdict(c.matrix.double.state, notice, user).notify,
        `${user} learns that it expired unanswered`,
      );
    const edit = await eventually("card edited", () =>
      c.matrix.double.sentBy(BOT).find((e) => {
        const next = e.content["m.new_content"] as { body?: string } | undefined;
        return next?.body?.includes("expired unanswered at");
      }),
    );
    assert.doesNotMatch(String((edit.content["m.new_content"] as { body: string }).body), /denied/);
    const row = await c.h.store.db
      .selectFrom("approvals")
      .select("status")
      .where("id", "=", approvalId)
      .executeTakeFirstOrThrow();
    assert.equal(row.status, "expired");
  });
});
