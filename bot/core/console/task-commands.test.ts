import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createExecutionApproval } from "../../../store/approvals.ts";
import { createExecution } from "../../../store/executions.ts";
import { insertPlanGeneration } from "../../../store/plans.ts";
import { askQuestion } from "../../../store/questions.ts";
import { createSession } from "../../../store/sessions.ts";
import {
  type ConsolePlatforms,
  PLATFORMS,
  startConsolePlatforms,
} from "../../../test-support/bot/console-platforms.ts";

// `!tasks` and `!task` through the chat core on the Matrix double, the Slack double and the
// terminal, with no model configured: the agent's part is played by writing its rows.
describe("task commands without a model", () => {
  let c: ConsolePlatforms;
  const ids: Record<string, string> = {};

  before(async () => {
    c = await startConsolePlatforms();
    const db = c.h.store.db;
    const room = c.room("matrix");
    const session = async (name: string, goal: string) => {
      const s = await createSession(db, {
        platform: "matrix",
        room,
        thread: `$${name}`,
        createdBy: "@alice:double.test",
        goal,
      });
      ids[name] = s.id;
      return s.id;
    };
    const approving = await session("approval", "restart gitea after the upgrade");
    await db.transaction().execute((tx) =>
      insertPlanGeneration(
        tx,
        approving,
        [
          { title: "check the version", risk: "read_only" },
          { title: "restart gitea", target: "lxc:gitea", risk: "config_mutation" },
        ],
        { needsApproval: false, now: new Date() },
      ),
    );
    const execution = await createExecution(db, {
      sessionId: approving,
      target: "lxc:gitea",
      command: "systemctl restart gitea",
      commandKey: "lxc:gitea:systemctl restart gitea",
      risk: "config_mutation",
      purpose: "restart",
      requestedBy: "agent",
      status: "pending_approval",
      timeoutMs: 60_000,
      deadlineAt: new Date(Date.now() + 3_600_000),
      planGeneration: 1,
      stepSeq: 2,
    });
    ids.execution = execution.id;
    const approval = await createExecutionApproval(db, {
      sessionId: approving,
      executionId: execution.id,
      commandKey: execution.command_key,
      target: "lxc:gitea",
      risk: "config_mutation",
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    assert.ok(approval.created);
    ids.approvalId = approval.approval.id;
    const planned = await session("plan", "free space on the nas");
    await db.transaction().execute((tx) =>
      insertPlanGeneration(tx, planned, [{ title: "prune snapshots", risk: "destructive" }], {
        needsApproval: true,
        now: new Date(),
      }),
    );
    const asking = await session("question", "which backup to keep");
    await askQuestion(db, {
      sessionId: asking,
      prompt: "keep the last 3 or the last 7?",
      options: ["3", "7"],
    });
    const quiet = await session("quiet", "look into the slow dns");
    await db
      .updateTable("sessions")
      .set({ last_activity_at: new Date(Date.now() - 2 * 3_600_000) })
      .where("id", "=", quiet)
      .execute();
    const partial = await session("partial", "rotate the certificates");
    await db
      .updateTable("sessions")
      .set({ status: "done", outcome: "partial", closed_at: new Date(), summary: "two of three rotated" })
      .where("id", "=", partial)
      .execute();
  });
  after(async () => c.close());

  test("`tasks` lists open tasks with what each waits for and a link to its thread", async () => {
    const answer = await c.ask("matrix", "operator", "tasks");
    assert.match(answer, /Tasks \(open, 4\)/);
    assert.match(
      answer,
      new RegExp(
        `${ids.approval!.slice(0, 8)}  “restart gitea after the upgrade” — planning, waiting for approval ${ids.approvalId} since \\d\\d:\\d\\d UTC`,
      ),
    );
    assert.match(answer, /“free space on the nas” — planning, waiting for approval of plan 1/);
    assert.match(answer, /“which backup to keep” — planning, waiting for an answer/);
    assert.match(answer, /“look into the slow dns” — planning, last activity 2 h ago/);
    assert.match(answer, /https:\/\/matrix\.to\/#\/!/);
    assert.doesNotMatch(answer, /rotate the certificates/, "closed tasks are not open");
  });

  test("filters: waiting, stuck, partial, all", async () => {
    const waiting = await c.ask("slack", "operator", "tasks waiting");
    assert.match(waiting, /Tasks \(waiting, 3\)/);
    assert.doesNotMatch(waiting, /slow dns/);
    const stuck = await c.ask("shell", "operator", "tasks stuck");
    assert.match(stuck, /Tasks \(stuck, 1\)/);
    assert.match(stuck, /look into the slow dns/);
    const partial = await c.ask("matrix", "admin", "tasks partial");
    assert.match(partial, /“rotate the certificates” — done \(partial\)/);
    const all = await c.ask("matrix", "admin", "tasks all");
    assert.match(all, /Tasks \(all, 5\)/);
    assert.match(
      await c.ask("shell", "operator", "tasks bogus"),
      /filter: use one of: open, waiting, stuck, partial, today, all/,
    );
  });

  test("`task <id>` shows goal, plan with step statuses, executions and approvals; by prefix", async () => {
    const answer = await c.ask("matrix", "operator", `task ${ids.approval!.slice(0, 8)}`);
    assert.match(answer, /Goal: restart gitea after the upgrade/);
    assert.match(answer, /Plan 1 \(approved\):/);
    assert.match(answer, /2\. restart gitea on `lxc:gitea` — pending/);
    assert.match(
      answer,
      new RegExp(
        `${ids.execution} \`systemctl restart gitea\` on \`lxc:gitea\` 🟡 config change — pending_approval`,
      ),
    );
    assert.match(answer, new RegExp(`${ids.approvalId} for ${ids.execution} — pending`));
    const closed = await c.ask("slack", "operator", `task ${ids.partial}`);
    assert.match(closed, /Outcome: partial — two of three rotated/);
    assert.match(await c.ask("shell", "operator", "task 00000000"), /There is no task `00000000`/);
  });

  for (const platform of PLATFORMS)
    test(`${platform}: a stranger gets the polite refusal, not the list`, async () => {
      const answer = await c.ask(platform, "stranger", "tasks");
      assert.match(answer, /I only take instructions from this room's operators/);
      assert.doesNotMatch(answer, /restart gitea/);
    });
});
