import assert from "node:assert/strict";
import { chmod, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { taskCompleted } from "../store/domain-events.ts";
import { readExecutionSnapshot } from "../store/execution-snapshot.ts";
import { completeSessionTask } from "../store/task-completion.ts";
import { sessionOfThread } from "../test-support/bot/awaited-rows.ts";
import { type ChatHarness, createChatHarness } from "../test-support/bot/chat-harness.ts";
import { eventually } from "../test-support/bot/eventually.ts";
import { startMatrixBot } from "../test-support/bot/matrix-bot.ts";
import { startSlackBot } from "../test-support/bot/slack-bot.ts";
import { attachTerminal } from "../test-support/bot/terminal-chat.ts";
import { PVE_TARGETS, type PveStack, startPveStack } from "../test-support/jobs/proxmox/pve-stack.ts";
import { MatrixDouble } from "../test-support/matrix-double/matrix-double.ts";
import { sshLabUnavailable } from "../test-support/sshd/ssh-lab.ts";

const unavailable = await sshLabUnavailable();

/**
 * Rollback after the task completed, from each chat: the task changed a container on the fake
 * Proxmox cluster (snapshot first), the task is over, and later an operator reacts ⏪ on its summary.
 * The typed-phrase card lands in the old thread; the operator answers there — Matrix and Slack reply
 * in the thread, the terminal with `!reply #n …` as the card tells it — and the guest is back as it
 * was. Before, the terminal's phrase started a new task and the rollback never ran.
 */
describe("rollback from any chat after the task completed", {
  skip: unavailable ? `sshd unavailable: ${unavailable}` : false,
}, () => {
  let pve: PveStack;
  const guestFile = () => join(pve.cluster.guestDir(101), "version");

  before(async () => {
    pve = await startPveStack({ mode: "destructive" });
  });
  after(() => pve?.stop());

  const harness = (operator: string) =>
    createChatHarness(
      { operators: [operator], admins: [operator] },
      {
        shared: { store: pve.store, queue: pve.queue, events: pve.events },
        rollback: { runner: pve.router, targets: PVE_TARGETS },
      },
    );

  /** The task's change (snapshot before it), then the task completes and its summary is posted. */
  async function changeAndComplete(h: ChatHarness, sessionId: string) {
    await writeFile(guestFile(), "1.0\n", { mode: 0o666 });
    await chmod(guestFile(), 0o666);
    const change = await pve.execute(
      "lxc:gitea",
      "echo 2.0-broken > version",
      "destructive",
      "upgrade",
      sessionId,
    );
    assert.equal(change.status, "completed");
    assert.equal(readExecutionSnapshot(change.snapshot)?.state, "taken");
    assert.equal(await readFile(guestFile(), "utf8"), "2.0-broken\n");
    const done = await completeSessionTask(h.store.db, sessionId, {
      outcome: "failure",
      summary: "the upgrade broke gitea",
    });
    assert.ok(done.ok, JSON.stringify(done));
    await h.events.publish(taskCompleted({ sessionId, outcome: "failure" }));
    return change;
  }

  /** The rollback ran: the execution that rolled back `change` completed and the file is back. */
  async function rolledBack(h: ChatHarness, changeId: string) {
    const rollback = await eventually("the rollback ran", () =>
      h.store.db
        .selectFrom("executions")
        .selectAll()
        .where("rollback_of", "=", changeId)
        .where("status", "in", ["completed", "failed"])
        .executeTakeFirst(),
    );
    assert.equal(rollback.status, "completed", rollback.stderr ?? "");
    assert.equal(await readFile(guestFile(), "utf8"), "1.0\n");
    const sessions = await h.store.db.selectFrom("sessions").select("id").execute();
    return sessions.length;
  }

  test("terminal: ⏪ on the summary, then `!reply #n rollback lxc:gitea` as the card says", async () => {
    const h = await harness("alice");
    const { terminal, output } = await attachTerminal(h);
    try {
      await terminal.send("upgrade gitea");
      const sessionId = (
        await h.store.db
          .selectFrom("sessions")
          .select("id")
          .where("platform", "=", "shell")
          .executeTakeFirstOrThrow()
      ).id;
      const sessionsBefore = (await h.store.db.selectFrom("sessions").select("id").execute()).length;
      const change = await changeAndComplete(h, sessionId);
      const summary = await eventually("summary", () => /\[#(\d+)\] [^\n]*Task failure/.exec(output())?.[1]);
      // later, in another task: the terminal's next message is not in the old thread
      await terminal.send(`!react ⏪ #${summary}`);
      const told = await eventually(
        "the card says how to answer from here",
        () => /\(in this terminal: `(!reply #\d+ rollback lxc:gitea)`\)/.exec(output())?.[1],
      );
      // a plain message would start a new task; the phrase goes where the card is
      await terminal.send(told);
      assert.equal(await rolledBack(h, change.id), sessionsBefore, "no new task was started");
    } finally {
      await terminal.stop();
      await h.close();
    }
  });

  test("Matrix: ⏪ on the summary, the phrase as a reply in the task's thread", async () => {
    const BOT = "@oikos:double.test";
    const ALICE = "@alice:double.test";
    const double = await MatrixDouble.start();
    const token = double.registerUser(BOT);
    double.registerUser(ALICE);
    const room = double.createRoom({ creator: ALICE });
    double.invite(room, ALICE, BOT);
    const h = await harness(ALICE);
    const adapter = await startMatrixBot(h, double, {
      accessToken: token,
      rooms: [room],
      allowedInviters: [ALICE],
    });
    try {
      const root = double.message(ALICE, room, "upgrade gitea");
      const sessionId = (await sessionOfThread(h, root)).id;
      const change = await changeAndComplete(h, sessionId);
      const summary = await eventually("summary", () =>
        double.sentBy(BOT).find((e) => String(e.content.body ?? "").includes("Task failure")),
      );
      double.react(ALICE, room, summary.event_id, "⏪");
      await eventually("the typed-phrase card in the old thread", () =>
        double.sentBy(BOT).find((e) => String(e.content.body ?? "").includes("`rollback lxc:gitea`")),
      );
      double.message(ALICE, room, "rollback lxc:gitea", { thread: root });
      await rolledBack(h, change.id);
    } finally {
      await adapter.stop();
      await h.close();
      await double.close();
    }
    assert.deepEqual(double.violations, []);
  });

  test("Slack: the Roll back button on the summary, the phrase as a reply in the task's thread", async () => {
    const ALICE = "U0ALICE";
    const CHANNEL = "C0OPS";
    const h = await harness(ALICE);
    const bot = await startSlackBot({
      mode: "socket",
      access: { operators: [ALICE], admins: [ALICE] },
      channels: [CHANNEL],
      harness: h,
    });
    const { double } = bot;
    try {
      const root = (await double.userMessage(ALICE, CHANNEL, "upgrade gitea")).ts;
      const sessionId = (await sessionOfThread(h, root)).id;
      const change = await changeAndComplete(h, sessionId);
      const summary = await eventually("summary", () =>
        double.byBot().find((m) => m.text.includes("Task failure")),
      );
      await double.click(ALICE, CHANNEL, summary.ts, "oikos:rollback");
      await eventually("the typed-phrase card in the old thread", () =>
        double
          .botThread(CHANNEL, root)
          .find((m) => JSON.stringify(m.blocks ?? m.text).includes("rollback lxc:gitea")),
      );
      await double.userMessage(ALICE, CHANNEL, "rollback lxc:gitea", { threadTs: root });
      await rolledBack(h, change.id);
    } finally {
      await bot.close();
      await h.close();
    }
    assert.deepEqual(double.violations, []);
  });
});
