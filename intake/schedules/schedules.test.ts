import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { eventually } from "../../test-support/bot/eventually.ts";
import { BOT, body, IntakeApp, ONCALL, OPERATOR } from "../../test-support/intake/intake-app.ts";
import { redisTestUrl } from "../../test-support/redis.ts";
import {
  match,
  type ScriptedModelServer,
  startScriptedModel,
} from "../../test-support/scripted-model/index.ts";

// Schedules on both queue adapters, through the composed app and the Matrix double: a schedule
// fires on its cron, a run that finds nothing wrong posts one quiet line, a run that finds
// something opens a thread with the findings and a plan card, and a restart neither loses the
// schedule nor runs a fire twice. `!oikos schedules` lists them with their next run; admins pause
// and resume.

const adapters = [
  { name: "in-process queue", queue: "in-process" as const, skip: false as const },
  {
    name: "BullMQ",
    queue: "bullmq" as const,
    skip: redisTestUrl() ? (false as const) : "BullMQ adapter skipped: REDIS_URL is not set",
  },
];

const QUIET = "backup-freshness";
const AUDIT = "disk-audit";

for (const adapter of adapters) {
  describe(`schedules on the ${adapter.name}`, { skip: adapter.skip, timeout: 120_000 }, () => {
    let model: ScriptedModelServer;
    let app: IntakeApp;
    const runs = (schedule: string) =>
      app.store.db
        .selectFrom("schedule_runs")
        .selectAll()
        .where("schedule", "=", schedule)
        .orderBy("fired_at")
        .execute();
    const quietLines = () => app.topLevel().filter((e) => body(e).startsWith(`🗓 ${QUIET}: nothing wrong`));
    /** The bot's answer to a command: its reply in the thread the command message starts. */
    const command = async (user: string, text: string) => {
      const sent = app.double.message(user, app.room, text);
      return body(await eventually(`an answer to ${text}`, () => app.inThread(sent)[0]));
    };

    before(async () => {
      model = await startScriptedModel({
        script: [
          {
            name: "all-fresh",
            when: match.lastUserMessage(/Scheduled check "backup-freshness"/),
            reply: {
              toolCalls: [
                {
                  name: "complete_task",
                  arguments: {
                    outcome: "success",
                    summary: "every backup is younger than 24 h",
                    verification: "ls -l",
                  },
                },
              ],
            },
            times: Number.POSITIVE_INFINITY,
          },
          {
            name: "disk-full",
            when: match.lastUserMessage(/Scheduled check "disk-audit"/),
            reply: {
              text: "Found: /srv/backup on vm:nas is 96% full.",
              toolCalls: [
                {
                  name: "propose_plan",
                  arguments: {
                    steps: [
                      {
                        title: "Prune backups older than 90 days",
                        target: "vm:nas",
                        risk: "config_mutation",
                      },
                    ],
                  },
                },
              ],
            },
          },
        ],
        fallback: { text: "noted" },
      });
      app = await IntakeApp.start({
        modelUrl: model.url,
        queue: adapter.queue,
        schedules: [
          { name: QUIET, cron: "* * * * * *", room: "$ROOM", prompt: "Check that every backup is fresh." },
          {
            name: AUDIT,
            cron: "0 0 1 1 *",
            room: "$ROOM",
            prompt: "Audit the disks of the fleet.",
            targets: ["vm:*"],
          },
        ],
      });
    });
    after(async () => {
      await app?.stop();
      await model?.close();
      assert.deepEqual(app.double.violations, []);
    });

    test("a schedule fires on its cron; a run that finds nothing wrong posts one quiet line and no thread", async () => {
      await eventually(
        "two quiet runs",
        async () => (await runs(QUIET)).filter((r) => r.outcome === "quiet").length >= 2,
        20_000,
      );
      await eventually("their quiet lines", () => quietLines().length >= 2);
      assert.match(body(quietLines()[0]!), /every backup is younger than 24 h/);
      const run = (await runs(QUIET))[0]!;
      assert.match(run.fire_id, /^repeat:schedule:backup-freshness:\d+$/);
      assert.equal(run.thread_state, "quiet");
      for (const line of quietLines())
        assert.equal(app.inThread(line.event_id).length, 0, "a quiet run opens no thread");
    });

    test("a restart loses no schedule and runs no fire twice", async () => {
      await app.restart();
      const before = (await runs(QUIET)).length;
      await eventually(
        "runs after the restart",
        async () => (await runs(QUIET)).length >= before + 2,
        20_000,
      );
      await app.restart();
      await eventually(
        "runs after a second restart",
        async () => (await runs(QUIET)).length >= before + 4,
        20_000,
      );
      const all = await runs(QUIET);
      // Every task a fire started belongs to exactly one recorded fire (read in one query: a fire
      // may be committing meanwhile).
      const orphans = await app.store.db
        .selectFrom("sessions")
        .leftJoin("schedule_runs", "schedule_runs.session_id", "sessions.id")
        .select(["sessions.id", "schedule_runs.fire_id"])
        .where("sessions.created_by", "=", `schedule:${QUIET}`)
        .where("schedule_runs.fire_id", "is", null)
        .execute();
      assert.deepEqual(orphans, [], "one task per fire");
      const times = all.map((r) => Number(r.fire_id.slice(r.fire_id.lastIndexOf(":") + 1)));
      assert.equal(new Set(times).size, times.length);
      await eventually("a quiet line per finished run", async () => {
        const quiet = (await runs(QUIET)).filter((r) => r.outcome === "quiet").length;
        return quiet > 0 && quietLines().length === quiet;
      });
    });

    test("`!oikos schedules` lists every schedule with its next run; only admins pause and resume", async () => {
      const list = await command(ONCALL, "!oikos schedules");
      assert.match(list, /Schedules \(2\)/);
      assert.match(
        list,
        new RegExp(
          `${AUDIT}\\s+\`0 0 1 1 \\*\` UTC → ${app.room.replace(/[.*+?^${}()|[\]\\!]/g, "\\$&")}: next \\d{4}-01-01 00:00 UTC, never ran`,
        ),
      );
      assert.match(await command(ONCALL, `!oikos schedules pause ${QUIET}`), /for admins/);
      const pausedReply = await command(OPERATOR, `!oikos schedules pause ${QUIET}`);
      assert.match(pausedReply, /paused/);
      assert.ok(pausedReply.includes(`(\`!oikos schedules resume ${QUIET}\`)`), pausedReply);
      // fires already queued are still delivered and recorded as skipped_paused; none starts a task
      // but the one that may have passed its pause check before the pause
      const started = async () => (await runs(QUIET)).filter((r) => r.outcome !== "skipped_paused").length;
      const startedAtPause = await started();
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      assert.ok((await started()) <= startedAtPause + 1, "a paused schedule starts no task");
      assert.match(
        await command(OPERATOR, "!schedules"),
        new RegExp(`${QUIET} .*paused by ${OPERATOR.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`),
      );
      assert.match(await command(OPERATOR, `!oikos schedules pause ${QUIET}`), /already paused/);
      assert.match(await command(OPERATOR, "!oikos schedules resume nope"), /no schedule `nope`/);
      await app.restart();
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      assert.ok((await started()) <= startedAtPause + 1, "the pause survives a restart");
      assert.match(await command(OPERATOR, `!oikos schedules resume ${QUIET}`), /resumed/);
      await eventually(
        "fires again after resume",
        async () => (await runs(QUIET)).some((r) => r.outcome === "started" || r.outcome === "quiet"),
        10_000,
      );
    });

    test("a run that finds something opens a thread: the schedule, the findings, the plan card", async () => {
      // Fire the yearly audit now, as its cron would.
      await app.runtime.queue.enqueue("schedule", { name: AUDIT }, { jobId: `repeat:schedule:${AUDIT}:1` });
      const root = await eventually("the audit's thread", () =>
        app.topLevel().find((e) => body(e).startsWith(`🗓 Scheduled run of ${AUDIT}`)),
      );
      const thread = await eventually("findings and the plan card", () => {
        const posts = app.inThread(root.event_id).map(body);
        return posts.some((p) => p.startsWith("Found:")) && posts.some((p) => p.includes("📋 Plan")) && posts;
      });
      assert.ok(
        thread.findIndex((p) => p.startsWith("Found:")) < thread.findIndex((p) => p.includes("📋 Plan")),
      );
      const [run] = await runs(AUDIT);
      assert.equal(run?.thread_state, "posted");
      assert.equal(
        app.botEvents().filter((e) => e.sender === BOT && body(e).includes("disk-audit: nothing wrong"))
          .length,
        0,
      );
    });
  });
}
