import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { eventually as poll } from "../bot/testing/eventually.ts";
import { MatrixDouble } from "../test-support/matrix-double/matrix-double.ts";
import {
  createDeployment,
  type Deployment,
  deploymentKinds,
} from "../test-support/oikos-process/deployment.ts";
import { type SpawnedCli, spawnCli } from "../test-support/run-cli.ts";
import { match, type ScriptedModelServer, startScriptedModel } from "../test-support/scripted-model/index.ts";

// The composed app as a process (`oikos start`, headless) with the Matrix double and the scripted
// model, stopped at awkward moments with SIGKILL and SIGTERM and started again: the approved command
// runs exactly once, the task ends as it would have, and the operator is told once.
const BOT = "@oikos:double.test";
const ALICE = "@alice:double.test";
const SUMMARY = "Appended the marker line.";

let double: MatrixDouble;
/** Process starts over real sockets on a loaded machine: a generous bound, not a speed assertion. */
const eventually = <T>(what: string, check: () => T | undefined | false) => poll(what, check, 120_000);

before(async () => {
  double = await MatrixDouble.start();
  double.registerUser(BOT, "tok_bot");
  double.registerUser(ALICE);
});

after(async () => {
  await double?.close();
});

interface Scenario {
  deployment: Deployment;
  model: ScriptedModelServer;
  room: string;
  marker: string;
  /** Resolves the held reply of the step that runs the command. */
  releaseRun: () => void;
}

async function scenario(deployment: Deployment, options: { holdRun?: boolean } = {}): Promise<Scenario> {
  const marker = join(deployment.dir, "marker");
  writeFileSync(join(deployment.dir, "inventory.ini"), "[local]\nworkstation ansible_connection=local\n");
  const held = Promise.withResolvers<void>();
  if (!options.holdRun) held.resolve();
  const model = await startScriptedModel({
    script: [
      {
        name: "plan",
        when: match.all(
          match.lastUserMessage(/append the marker/),
          match.not(match.systemMentions(/Plan 1 \(/)),
        ),
        reply: {
          toolCalls: [
            { name: "set_goal", arguments: { goal: "Append the marker line on the workstation" } },
            {
              name: "propose_plan",
              arguments: {
                steps: [
                  { title: "Append the marker line", target: "host:workstation", risk: "config_mutation" },
                ],
              },
            },
          ],
        },
        times: Number.POSITIVE_INFINITY,
      },
      {
        name: "close",
        when: match.anyMessage(/marker appended/),
        reply: {
          toolCalls: [
            {
              name: "update_entity_attributes",
              arguments: { slug: "host:workstation", attributes: { "oikos.marker": marker } },
            },
            {
              name: "complete_task",
              arguments: { outcome: "success", summary: SUMMARY, verification: "echo said marker appended" },
            },
          ],
        },
        times: Number.POSITIVE_INFINITY,
      },
      {
        name: "run",
        when: match.all(
          match.systemMentions(/Plan 1 \(approved\)/),
          match.not(match.anyMessage(/"execution_id"/)),
        ),
        reply: {
          hold: held.promise,
          toolCalls: [
            {
              name: "run",
              arguments: {
                target: "host:workstation",
                command: `echo run >> ${marker} && echo marker appended`,
                purpose: "the operator asked for it",
                step_seq: 1,
              },
            },
          ],
        },
        times: Number.POSITIVE_INFINITY,
      },
    ],
    fallback: { text: "Waiting for the command to finish." },
  });
  const room = double.createRoom({ creator: ALICE });
  double.invite(room, ALICE, BOT);
  return { deployment, model, room, marker, releaseRun: () => held.resolve() };
}

function start(s: Scenario): SpawnedCli {
  return spawnCli(["start"], {
    env: {
      ...s.deployment.env,
      OIKOS_LOG_LEVEL: "info",
      OIKOS_SHUTDOWN_GRACE_MS: "3000",
      OIKOS_INVENTORY: join(s.deployment.dir, "inventory.ini"),
      OIKOS_OPERATORS: ALICE,
      MATRIX_HOMESERVER_URL: double.url,
      MATRIX_ACCESS_TOKEN: "tok_bot",
      MATRIX_ROOMS: s.room,
      OPENAI_BASE_URL: s.model.url,
      OPENAI_API_KEY: "test",
      OIKOS_MODEL: "scripted",
    },
  });
}

const botPosts = (room: string) => double.sentBy(BOT).filter((e) => e.room_id === room);
const bodies = (room: string) => botPosts(room).map((e) => String(e.content.body ?? ""));
const markerLines = (s: Scenario) =>
  existsSync(s.marker) ? readFileSync(s.marker, "utf8").split("\n").filter(Boolean) : [];

/** Operator asks; the plan card comes; returns the card's event id. */
async function askForPlan(s: Scenario): Promise<string> {
  double.message(ALICE, s.room, "please append the marker line on my workstation");
  const card = await eventually("plan card", () =>
    botPosts(s.room).find((e) => String(e.content.body).includes("📋 Plan")),
  );
  return card.event_id;
}

async function stopped(child: SpawnedCli, signal: NodeJS.Signals): Promise<number | null> {
  child.kill(signal);
  return child.exited;
}

function assertQuietStop(child: SpawnedCli): void {
  const log = child.stderr();
  assert.doesNotMatch(log, /driver has already been destroyed/);
  assert.doesNotMatch(log, /"level":(50|60)/, "a normal stop logs no error");
  assert.doesNotMatch(log, /\n\s+at /, "no stack trace");
}

for (const { kind, skip } of deploymentKinds()) {
  describe(`restart safety (${kind})`, { skip }, () => {
    test("SIGKILL right after ✅: the restarted process runs the approved command once and says so once", async () => {
      const deployment = await createDeployment(kind, "kill-after-approve");
      const s = await scenario(deployment);
      let child = start(s);
      try {
        await child.waitForLog("oikos running headless until SIGTERM or SIGINT");
        const card = await askForPlan(s);
        double.react(ALICE, s.room, card, "✅");
        await eventually("the approval recorded", () =>
          bodies(s.room).some((b) => /approved by/.test(b)) ? true : undefined,
        );
        await stopped(child, "SIGKILL");
        child = start(s);
        await eventually("the task completed", () =>
          bodies(s.room).some((b) => b.includes(SUMMARY)) ? true : undefined,
        );
        assert.deepEqual(markerLines(s), ["run"], "the approved command ran exactly once");
        const told = bodies(s.room).filter((b) => b.startsWith("oikos restarted"));
        assert.ok(told.length <= 1, `told once at most: ${told.join(" | ")}`);
        assert.equal(await stopped(child, "SIGTERM"), 0);
        assertQuietStop(child);
      } finally {
        child.kill("SIGKILL");
        await child.exited;
        await s.model.close();
        await deployment.dispose();
      }
    });

    test("SIGTERM during a model call: a quick clean exit, then the turn resumes once and the command runs once", async () => {
      const deployment = await createDeployment(kind, "term-in-model");
      const s = await scenario(deployment, { holdRun: true });
      let child = start(s);
      try {
        await child.waitForLog("oikos running headless until SIGTERM or SIGINT");
        const card = await askForPlan(s);
        double.react(ALICE, s.room, card, "✅");
        await eventually("the model asked for the run", () =>
          s.model.requests.some((r) => r.step === "run") ? true : undefined,
        );
        child.kill("SIGTERM");
        s.releaseRun();
        assert.equal(await child.exited, 0);
        assertQuietStop(child);
        child = start(s);
        await eventually("the task completed", () =>
          bodies(s.room).some((b) => b.includes(SUMMARY)) ? true : undefined,
        );
        assert.deepEqual(markerLines(s), ["run"], "the approved command ran exactly once");
        const told = bodies(s.room).filter((b) => b.startsWith("oikos restarted"));
        assert.ok(told.length <= 1, `told once at most: ${told.join(" | ")}`);
        assert.equal(await stopped(child, "SIGTERM"), 0);
        assertQuietStop(child);
      } finally {
        child.kill("SIGKILL");
        await child.exited;
        await s.model.close();
        await deployment.dispose();
      }
    });
  });
}
