import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { loadClassifier } from "../../policy/classify.ts";
import { getApproval } from "../../store/approvals.ts";
import { decideApproval } from "../../store/consent.ts";
import { upsertEntities } from "../../store/entities.ts";
import { endStandingGrant, getStandingGrant, grantMadeBy } from "../../store/standing-grants.ts";
import { createTestStore, defaultDialect, type TestStore } from "../../test-support/store.ts";
import { InProcessEventBus } from "../events/in-process.ts";
import { InProcessQueue } from "../queue/in-process.ts";
import { execLocal } from "../ssh/transport-local.ts";
import { startExecuteWorker } from "./execute-worker.ts";
import { type RunOutcome, type RunRequest, RunService } from "./run-service.ts";

const DAY = 86_400_000;
const TARGET = "lxc:bridges";

// Standing grants through the real run gate (issue #32): one approval with ♾️, then the same command
// runs in later sessions unasked — each run executes for real (a line appended to a file the test
// reads back) and is audited; anything else, an expired grant, or a re-routed target asks again.
describe("standing grants in the run gate", () => {
  let store: TestStore;
  let queue: InProcessQueue;
  let events: InProcessEventBus;
  let dir = "";
  let command = "";
  let day = 0;
  const start = Date.now();
  let service: RunService;
  let sessions = 0;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "oikos-grant-"));
    command = `echo restarted >> ${dir}/log`;
    store = await createTestStore(defaultDialect());
    await upsertEntities(
      store.db,
      [
        {
          slug: TARGET,
          type: "lxc",
          name: "bridges",
          transport: "ssh",
          attributes: { "ssh.host": "10.0.0.5" },
        },
      ],
      { by: "test" },
    );
    queue = new InProcessQueue();
    events = new InProcessEventBus();
    // The target's transport is ssh; the runner runs the command here, whatever the target.
    startExecuteWorker({
      db: store.db,
      events,
      queue,
      runner: { exec: (_target, text, options) => execLocal(text, options) },
      sshUser: "root",
    });
    await queue.start();
    service = new RunService({
      db: store.db,
      events,
      queue,
      classifier: loadClassifier,
      waitMs: 10_000,
      timeoutMs: 30_000,
      selfTargets: [],
      sshUser: "root",
      clock: () => new Date(start + day * DAY),
    });
  });
  after(async () => {
    await queue.close({ graceMs: 1_000 });
    await events.close();
    await store.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  /** A new task's session (a new day's run), with an approved plan or none. */
  async function session(plan: "approved" | "none"): Promise<string> {
    const id = `s-${++sessions}`;
    await store.db
      .insertInto("sessions")
      .values({
        id,
        platform: "matrix",
        room: "!ops",
        thread: id,
        created_by: "@alice",
        ...(plan === "approved" ? { plan_generation: 1 } : {}),
      })
      .execute();
    if (plan === "approved")
      await store.db
        .insertInto("plans")
        .values({ session_id: id, generation: 1, status: "approved" })
        .execute();
    return id;
  }
  const run = (sessionId: string, text = command): Promise<RunOutcome> =>
    service.run({
      sessionId,
      target: TARGET,
      command: text,
      purpose: "daily restart",
      requestedBy: "agent",
    } as RunRequest);
  const runs = async () =>
    (await readFile(join(dir, "log"), "utf8").catch(() => "")).split("\n").filter(Boolean).length;
  const audits = async (action: string) =>
    (await store.db.selectFrom("audit_log").select("id").where("action", "=", action).execute()).length;

  let grantId = "";
  test("day 1: the change asks; ♾️ approves it and grants the same command", async () => {
    const sessionId = await session("approved");
    const asked = await run(sessionId);
    assert.equal(asked.kind, "approval_requested", JSON.stringify(asked));
    if (asked.kind !== "approval_requested") return;
    const approval = await getApproval(store.db, asked.approvalId);
    assert.equal(approval?.grant_basis?.command, command, "the approval records what a grant would cover");
    const decided = await decideApproval(store.db, {
      approvalId: asked.approvalId,
      sessionId,
      decision: "approved",
      by: "@alice",
      via: "reaction",
      grant: { days: null },
      now: new Date(start),
    });
    assert.ok(decided.ok);
    await service.options.queue.enqueue("execute", { executionId: asked.executionId });
    await service.awaitResult(asked.executionId, 10_000);
    assert.equal(await runs(), 1);
    const grant = await grantMadeBy(store.db, asked.approvalId);
    assert.ok(grant);
    grantId = grant.id;
  });

  test("days 2–7: a new task each day runs it unasked (no plan, no card to approve), each use audited", async () => {
    for (day = 1; day <= 6; day++) {
      const outcome = await run(await session("none"));
      assert.equal(outcome.kind, "finished", `day ${day + 1}: ${JSON.stringify(outcome)}`);
      if (outcome.kind === "finished") assert.equal(outcome.execution.status, "completed");
    }
    assert.equal(await runs(), 7, "seven runs");
    assert.equal(await audits("grant.used"), 6, "six of them under the grant, each audited");
    assert.equal(await audits("approval.approved"), 1, "one approval by a person");
    assert.equal((await getStandingGrant(store.db, grantId))?.uses, 6);
    const uses = await store.db
      .selectFrom("approvals")
      .select(["channel", "decided_by"])
      .where("standing_grant_id", "=", grantId)
      .execute();
    assert.equal(uses.length, 6);
    assert.ok(uses.every((u) => u.channel === "grant" && u.decided_by === "@alice"));
  });

  test("anything but the exact command asks again, and nothing runs", async () => {
    day = 3;
    for (const other of [
      `${command} `,
      `sudo ${command}`,
      `echo restarted >>  ${dir}/log`,
      `echo other >> ${dir}/log`,
    ]) {
      const outcome = await run(await session("none"), other);
      assert.ok(outcome.kind === "refused" && outcome.code === "plan_required", `${other}: ${outcome.kind}`);
    }
    assert.equal(await runs(), 7);
  });

  test("day 8: the grant expired; the command needs a plan and an approval again", async () => {
    day = 7;
    const outcome = await run(await session("none"));
    assert.ok(outcome.kind === "refused" && outcome.code === "plan_required");
    assert.equal(await runs(), 7);
  });

  test("revoked, the grant covers nothing: within its days the command needs a plan again", async () => {
    day = 1;
    await endStandingGrant(store.db, grantId, { by: "@bob", reason: "revoked", now: new Date(start + DAY) });
    const outcome = await run(await session("none"));
    assert.ok(outcome.kind === "refused" && outcome.code === "plan_required");
    assert.equal(await runs(), 7);
  });

  test("a re-routed target ends its grant at the next use (audited), and the command asks again", async () => {
    day = 1;
    const sessionId = await session("approved");
    const asked = await run(sessionId);
    assert.equal(asked.kind, "approval_requested");
    if (asked.kind !== "approval_requested") return;
    await decideApproval(store.db, {
      approvalId: asked.approvalId,
      sessionId,
      decision: "approved",
      by: "@bob",
      via: "button",
      grant: { days: 30 },
      now: new Date(start + DAY),
    });
    const grant = await grantMadeBy(store.db, asked.approvalId);
    assert.ok(grant);
    await service.options.queue.enqueue("execute", { executionId: asked.executionId });
    await service.awaitResult(asked.executionId, 10_000);
    const before = await runs();
    // an inventory import moves the container to another address
    await upsertEntities(
      store.db,
      [
        {
          slug: TARGET,
          type: "lxc",
          name: "bridges",
          transport: "ssh",
          attributes: { "ssh.host": "10.0.0.99" },
        },
      ],
      { by: "import" },
    );
    const outcome = await run(await session("none"));
    assert.ok(outcome.kind === "refused" && outcome.code === "plan_required", JSON.stringify(outcome));
    const ended = await getStandingGrant(store.db, grant.id);
    assert.equal(ended?.end_reason, "routing_changed");
    assert.equal(await audits("grant.invalidated"), 1);
    assert.equal(await runs(), before, "nothing ran");
  });

  test("a command oikos cannot read: its approval records why, and no grant may be made", async () => {
    const sessionId = await session("approved");
    const asked = await run(sessionId, `python3 -c 'open("${dir}/x", "w")'`);
    assert.equal(asked.kind, "approval_requested");
    if (asked.kind !== "approval_requested") return;
    const approval = await getApproval(store.db, asked.approvalId);
    assert.equal(approval?.unreadable, "inline_program");
    assert.equal(approval?.grant_basis, null);
    await store.db
      .updateTable("approvals")
      .set({ status: "cancelled" })
      .where("id", "=", asked.approvalId)
      .execute();
  });

  test("a destructive command is never granted: ♾️ on its card approves nothing", async () => {
    const sessionId = await session("approved");
    const asked = await run(sessionId, `rm -rf ${dir}/gone`);
    assert.equal(asked.kind, "approval_requested");
    if (asked.kind !== "approval_requested") return;
    assert.equal((await getApproval(store.db, asked.approvalId))?.grant_basis, null);
    const refused = await decideApproval(store.db, {
      approvalId: asked.approvalId,
      sessionId,
      decision: "approved",
      by: "@alice",
      via: "phrase",
      typedPhrase: asked.phrase ?? "",
      grant: { days: null },
    });
    assert.ok(!refused.ok && refused.code === "not_grantable");
  });
});
