import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before } from "node:test";
import { eventually as poll } from "../bot/eventually.ts";
import { MatrixDouble } from "../matrix-double/matrix-double.ts";
import { type SpawnedCli, spawnCli } from "../run-cli.ts";
import { match, type ScriptedModelServer, startScriptedModel } from "../scripted-model/index.ts";
import type { Deployment } from "./deployment.ts";

// One task for crash tests and the restart benches: the operator asks in a Matrix room to append a
// line to a marker file, approves the plan with ✅, the agent runs `echo run >> marker` on a local
// target and completes. The model script is stateless (each step matches the transcript), so a
// restarted process that repeats a model call gets the same answer; the marker counts the runs.

export const BOT = "@oikos:double.test";
export const ALICE = "@alice:double.test";
export const SUMMARY = "Appended the marker line.";
export const ASK = "please append the marker line on my workstation";

/** Process starts over real sockets on a loaded machine: a generous bound, not a speed assertion. */
export const eventually = <T>(what: string, check: () => T | undefined | false) => poll(what, check, 120_000);

export interface MarkerTask {
  deployment: Deployment;
  double: MatrixDouble;
  model: ScriptedModelServer;
  room: string;
  marker: string;
  /** Lets the held model replies go (see `hold`). */
  release: () => void;
}

export interface MarkerTaskOptions {
  /** Hold the model's reply of this step until `release()`: a model call in flight. */
  hold?: "plan" | "run" | "close";
  /** The command writes `start`, sleeps this many seconds, then writes `run`: an execution in flight. */
  slowSeconds?: number;
}

export function registerMatrixUsers(double: MatrixDouble): void {
  double.registerUser(BOT, "tok_bot");
  double.registerUser(ALICE);
}

/** One Matrix double for a test file (started in `before`, closed in `after`) with the bot and Alice registered. */
export function matrixDoubleForFile(): () => MatrixDouble {
  let double: MatrixDouble | undefined;
  before(async () => {
    double = await MatrixDouble.start();
    registerMatrixUsers(double);
  });
  after(async () => {
    await double?.close();
  });
  return () => double!;
}

export async function markerTask(
  deployment: Deployment,
  double: MatrixDouble,
  options: MarkerTaskOptions = {},
): Promise<MarkerTask> {
  const marker = join(deployment.dir, "marker");
  writeFileSync(join(deployment.dir, "inventory.ini"), "[local]\nworkstation ansible_connection=local\n");
  const held = Promise.withResolvers<void>();
  if (!options.hold) held.resolve();
  const holdFor = (step: "plan" | "run" | "close") => (options.hold === step ? { hold: held.promise } : {});
  // The output line is not in the command's text, so the script sees the result, not the request.
  const command = options.slowSeconds
    ? `echo start >> ${marker} && sleep ${options.slowSeconds} && echo run >> ${marker} && printf 'marker %s\n' appended`
    : `echo run >> ${marker} && printf 'marker %s\n' appended`;
  const model = await startScriptedModel({
    script: [
      {
        name: "plan",
        when: match.all(
          match.lastUserMessage(/append the marker/),
          match.not(match.systemMentions(/Plan 1 \(/)),
        ),
        reply: {
          ...holdFor("plan"),
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
          ...holdFor("close"),
          toolCalls: [
            {
              name: "update_entity_attributes",
              arguments: { slug: "host:workstation", attributes: { "oikos.marker": marker } },
            },
            // The model closes the write-back step itself; only the final redraw shows it.
            { name: "update_plan_step", arguments: { seq: 2, status: "done" } },
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
          ...holdFor("run"),
          toolCalls: [
            {
              name: "run",
              arguments: {
                target: "host:workstation",
                command,
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
  return { deployment, double, model, room, marker, release: () => held.resolve() };
}

/** `oikos start`, headless, against the task's deployment, Matrix double and scripted model. */
export function startOikos(task: MarkerTask, env: NodeJS.ProcessEnv = {}): SpawnedCli {
  return spawnCli(["start"], {
    env: {
      ...task.deployment.env,
      OIKOS_LOG_LEVEL: "info",
      OIKOS_INVENTORY: join(task.deployment.dir, "inventory.ini"),
      OIKOS_OPERATORS: ALICE,
      MATRIX_HOMESERVER_URL: task.double.url,
      MATRIX_ACCESS_TOKEN: "tok_bot",
      MATRIX_ROOMS: task.room,
      OPENAI_BASE_URL: task.model.url,
      OPENAI_API_KEY: "test",
      OIKOS_MODEL: "scripted",
      ...env,
    },
  });
}

export const HEADLESS = "oikos running headless until SIGTERM or SIGINT";

export const botPosts = (task: MarkerTask) => task.double.sentBy(BOT).filter((e) => e.room_id === task.room);
export const bodies = (task: MarkerTask) => botPosts(task).map((e) => String(e.content.body ?? ""));
export const markerLines = (task: MarkerTask) =>
  existsSync(task.marker) ? readFileSync(task.marker, "utf8").split("\n").filter(Boolean) : [];

/** The operator asks; resolves with the plan card's event id once it is posted. */
export async function askForPlan(task: MarkerTask): Promise<string> {
  task.double.message(ALICE, task.room, ASK);
  const card = await eventually("plan card", () =>
    botPosts(task).find((e) => String(e.content.body).includes("📋 Plan")),
  );
  return card.event_id;
}

export async function approvePlan(task: MarkerTask, card: string): Promise<void> {
  task.double.react(ALICE, task.room, card, "✅");
  await eventually("the approval recorded", () =>
    bodies(task).some((b) => /approved by/.test(b)) ? true : undefined,
  );
}

export async function taskCompleted(task: MarkerTask): Promise<void> {
  await eventually("the task completed", () =>
    bodies(task).some((b) => b.includes(SUMMARY)) ? true : undefined,
  );
}

/** "oikos restarted; resuming …" lines the operator saw in the room. */
export const resumeNotices = (task: MarkerTask) =>
  bodies(task).filter((b) => b.startsWith("oikos restarted"));
