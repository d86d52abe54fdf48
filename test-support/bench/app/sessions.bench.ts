import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { MatrixDouble } from "../../matrix-double/matrix-double.ts";
import { createDeployment, type Deployment } from "../../oikos-process/deployment.ts";
import { ALICE, BOT, eventually, HEADLESS, registerMatrixUsers } from "../../oikos-process/marker-task.ts";
import { spawnCli } from "../../run-cli.ts";
import { match, startScriptedModel } from "../../scripted-model/index.ts";

const SESSIONS = 50;
/** Two sessions per target: the per-target limit (4) is not what is measured. */
const TARGETS = 25;
const COMMAND_SECONDS = 2;

const hostName = (n: number) => `bench-${String(n).padStart(2, "0")}`;

/**
 * sessions50_wall_ms: the composed app as a process (`oikos start`, default configuration, Matrix
 * double, scripted model). Fifty operators ask at once in fifty threads; each turn runs one 2 s
 * read-only command on a local target and answers. The figure is read from the stored rows: the
 * first execution created → the last one finished (so the process start and the model's answers
 * after the commands are not in it). Every execution must have completed and every thread been
 * answered, or there is no figure. The deployment is Postgres + Redis when DATABASE_URL and
 * REDIS_URL are set (the deployment for many sessions), else the embedded default; stderr says which.
 */
export default async function sessionsBench(): Promise<Record<string, number>> {
  const kind = process.env.DATABASE_URL && process.env.REDIS_URL ? "postgres+redis" : "embedded";
  const double = await MatrixDouble.start();
  registerMatrixUsers(double);
  const deployment = await createDeployment(kind, "bench-sessions50");
  try {
    const wall = await fiftySessions(deployment, double);
    process.stderr.write(
      `  sessions50 on ${kind}: ${Math.round(wall)} ms, load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}\n`,
    );
    return { sessions50_wall_ms: wall };
  } finally {
    await deployment.dispose();
    await double.close();
  }
}

async function fiftySessions(deployment: Deployment, double: MatrixDouble): Promise<number> {
  const inventory = Array.from({ length: TARGETS }, (_, i) => `${hostName(i + 1)} ansible_connection=local`);
  writeFileSync(join(deployment.dir, "inventory.ini"), `[local]\n${inventory.join("\n")}\n`);
  const model = await startScriptedModel({
    script: [
      {
        name: "answer",
        // The result inline, or by the continuation when run's wait ran out first.
        when: match.any(
          match.lastToolResult(/bench-\d+ checked/, "run"),
          match.lastSystemNote(/^Execution finished: .*bench-\d+ checked/s),
        ),
        reply: { text: "Checked: all good." },
        times: Number.POSITIVE_INFINITY,
      },
      {
        name: "check",
        when: match.all(
          match.lastUserMessage(/check bench-\d+/),
          match.not(match.anyMessage(/"execution_id"/)),
        ),
        reply: (request) => {
          const users = request.body.messages.filter((m) => m.role === "user");
          const host = /bench-\d+/.exec(String(users.at(-1)?.content ?? ""))![0];
          // The answer line is not in the command's text, so the script sees the result, not the request.
          return {
            toolCalls: [
              {
                name: "run",
                arguments: {
                  target: `host:${host}`,
                  command: `sleep ${COMMAND_SECONDS} && printf '%s checked\\n' ${host}`,
                  purpose: "the operator asked for a check",
                },
              },
            ],
          };
        },
        times: Number.POSITIVE_INFINITY,
      },
    ],
    fallback: { text: "Still waiting for the check." },
  });
  const room = double.createRoom({ creator: ALICE });
  double.invite(room, ALICE, BOT);
  const child = spawnCli(["start"], {
    env: {
      ...deployment.env,
      OIKOS_LOG_LEVEL: "info",
      OIKOS_INVENTORY: join(deployment.dir, "inventory.ini"),
      OIKOS_OPERATORS: ALICE,
      MATRIX_HOMESERVER_URL: double.url,
      MATRIX_ACCESS_TOKEN: "tok_bot",
      MATRIX_ROOMS: room,
      OPENAI_BASE_URL: model.url,
      OPENAI_API_KEY: "test",
      OIKOS_MODEL: "scripted",
      // e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof": profile the process under test, not the bench.
      ...(process.env.OIKOS_BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.OIKOS_BENCH_NODE_OPTIONS } : {}),
    },
  });
  try {
    await child.waitForLog(HEADLESS);
    for (let i = 0; i < SESSIONS; i++) {
      double.message(ALICE, room, `please check ${hostName((i % TARGETS) + 1)} (ticket ${i + 1})`);
    }
    const answered = () =>
      double
        .sentBy(BOT)
        .filter((e) => e.room_id === room && String(e.content.body ?? "").includes("Checked: all good."))
        .length;
    await eventually("every thread answered", () => (answered() >= SESSIONS ? true : undefined)).catch(
      (error: unknown) => {
        const steps = model.requests.map((r) => r.step ?? "fallback");
        const counts = Object.entries(Object.groupBy(steps, (s) => s)).map(([s, l]) => `${s}: ${l?.length}`);
        throw new Error(
          `${answered()} of ${SESSIONS} threads answered; model requests ${counts.join(", ")}\n${child.stderr().slice(-3000)}`,
          { cause: error },
        );
      },
    );
  } finally {
    child.kill("SIGTERM");
    await child.exited;
    await model.close();
  }
  const store = await deployment.open();
  try {
    const rows = await store.db
      .selectFrom("executions")
      .select(["status", "created_at", "started_at", "finished_at"])
      .execute();
    const completed = rows.filter((r) => r.status === "completed" && r.finished_at);
    if (rows.length !== SESSIONS || completed.length !== SESSIONS) {
      throw new Error(`expected ${SESSIONS} completed executions, got ${completed.length} of ${rows.length}`);
    }
    const at = (d: Date | string | null) => new Date(d ?? Number.NaN).getTime();
    const first = Math.min(...rows.map((r) => at(r.created_at)));
    const last = Math.max(...completed.map((r) => at(r.finished_at)));
    const span = (values: number[]) => Math.round(Math.max(...values) - Math.min(...values));
    const sessions = await store.db.selectFrom("sessions").select("created_at").execute();
    process.stderr.write(
      `  sessions created over ${span(sessions.map((r) => at(r.created_at)))} ms; executions created over ${span(rows.map((r) => at(r.created_at)))} ms, started over ` +
        `${span(rows.map((r) => at(r.started_at)))} ms; slowest ${Math.round(
          Math.max(...rows.map((r) => at(r.finished_at) - at(r.started_at))),
        )} ms from start to end\n`,
    );
    return last - first;
  } finally {
    await store.close();
  }
}

/** Measured on the deployment DATABASE_URL / REDIS_URL select (scripts/bench.ts names it with each figure). */
export const usesStore = true;
