import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { after, test } from "node:test";
import { SLACK_APP_TOKEN, SLACK_SECRET, SLACK_TOKEN } from "../test-support/bot/slack-bot.ts";
import { MatrixDouble } from "../test-support/matrix-double/matrix-double.ts";
import { createDeployment, type Deployment } from "../test-support/oikos-process/deployment.ts";
import { ALICE, BOT, eventually, HEADLESS } from "../test-support/oikos-process/marker-task.ts";
import { type SpawnedCli, spawnCli } from "../test-support/run-cli.ts";
import { SlackDouble } from "../test-support/slack-double/slack-double.ts";

// Issue 36: the composed app as a process (`oikos start` on the embedded default) when a chat
// platform is down or refuses at start. The process keeps serving /healthz, /metrics, /mcp, the
// alert webhook and the terminal; the platform's state is on /metrics, `!status` and the log (one
// line per change); the platform is picked up when it comes back.

const MCP_TOKEN = "an-mcp-token-long-enough";
const HOOK_TOKEN = "an-alert-hook-token-long-enough";

const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function deployment(name: string): Promise<Deployment> {
  const d = await createDeployment("embedded", name);
  cleanups.push(() => d.dispose());
  return d;
}

function started(child: SpawnedCli): SpawnedCli {
  cleanups.push(async () => {
    child.kill("SIGKILL");
    await child.exited;
  });
  return child;
}

interface LogLine {
  level: number;
  msg: string;
  platform?: string;
  [key: string]: unknown;
}

function logLines(text: string): LogLine[] {
  return text
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as LogLine];
      } catch {
        return [];
      }
    });
}

async function metrics(base: string): Promise<string> {
  return (await fetch(`${base}/metrics`)).text();
}

const stateSeries = (platform: string, state: string) =>
  `oikos_chat_adapter_state{platform="${platform}",state="${state}"} 1`;

async function mcpAnswers(base: string): Promise<number> {
  const response = await fetch(`${base}/mcp`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${MCP_TOKEN}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } },
    }),
  });
  await response.text();
  return response.status;
}

test("Matrix homeserver down at start: oikos serves everything else, then picks Matrix up", async () => {
  const double = await MatrixDouble.start();
  cleanups.push(() => double.close());
  double.registerUser(BOT, "tok_bot");
  double.registerUser(ALICE);
  const room = double.createRoom({ creator: ALICE });
  double.invite(room, ALICE, BOT);
  await double.stopListening();

  const d = await deployment("matrix-down");
  const port = await freePort();
  const config = join(d.dir, "oikos.yaml");
  writeFileSync(
    config,
    [
      "alerts:",
      "  sources:",
      "    hook:",
      "      kind: generic",
      `      token: "${HOOK_TOKEN}"`,
      "  routes:",
      `    - room: "${room}"`,
      "      investigate: false",
      "",
    ].join("\n"),
  );
  const child = started(
    spawnCli(["start"], {
      env: {
        ...d.env,
        OIKOS_CONFIG: config,
        OIKOS_LOG_LEVEL: "debug",
        OIKOS_OPERATORS: ALICE,
        OIKOS_HTTP_PORT: String(port),
        OIKOS_MCP_TOKEN: MCP_TOKEN,
        MATRIX_HOMESERVER_URL: double.url,
        MATRIX_ACCESS_TOKEN: "tok_bot",
        MATRIX_ROOMS: room,
      },
    }),
  );
  await child.waitForLog(HEADLESS);
  const base = `http://127.0.0.1:${port}`;
  assert.equal((await fetch(`${base}/healthz`)).status, 200);
  assert.ok((await metrics(base)).includes(stateSeries("matrix", "unreachable")), "the state on /metrics");
  assert.equal(await mcpAnswers(base), 200, "/mcp serves while Matrix is down");
  const alert = await fetch(`${base}/alerts/hook`, {
    method: "POST",
    headers: { authorization: `Bearer ${HOOK_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ title: "Backup job failed on nas", labels: { host: "nas" }, severity: "warning" }),
  });
  assert.equal(alert.status < 300, true, `the alert is taken: ${alert.status}`);
  // At least one try after the first failed as well: a repeated failure is not logged again.
  await eventually("a second failed try", () =>
    logLines(child.stderr()).some(
      (l) => l.platform === "matrix" && l.level === 20 && /cannot be reached/.test(l.msg),
    )
      ? true
      : undefined,
  );
  await double.listenAgain();
  await eventually("Matrix connected", () =>
    logLines(child.stderr()).some(
      (l) => l.platform === "matrix" && /connected after \d+ failed tries/.test(l.msg),
    )
      ? true
      : undefined,
  );
  assert.ok((await metrics(base)).includes(stateSeries("matrix", "connected")), "the state on /metrics");
  const warned = logLines(child.stderr()).filter(
    (l) => l.platform === "matrix" && l.level >= 40 && /cannot be reached \(ECONNREFUSED\)/.test(l.msg),
  );
  assert.equal(warned.length, 1, "one line for the change, not one per try");
  assert.match(warned[0]!.msg, /MATRIX_HOMESERVER_URL/, "the line says what to check");
  // The alert that arrived while Matrix was down is posted once Matrix is back.
  await eventually("the alert thread posted", () =>
    double.sentBy(BOT).some((e) => e.room_id === room && String(e.content.body).includes("Backup job failed"))
      ? true
      : undefined,
  );
  double.message(ALICE, room, "!oikos status");
  const status = await eventually("status answered", () =>
    double.sentBy(BOT).find((e) => String(e.content.body).includes("oikos status")),
  );
  assert.match(String(status.content.body), /chat: .*matrix connected/);
  child.kill("SIGTERM");
  assert.equal(await child.exited, 0, child.stderr());
  assert.ok(!/\n\s+at /.test(child.stderr()), "no stack trace");
});

async function slackDouble(): Promise<SlackDouble> {
  const double = await SlackDouble.start({
    botToken: SLACK_TOKEN,
    signingSecret: SLACK_SECRET,
    appToken: SLACK_APP_TOKEN,
  });
  double.mode = "socket";
  cleanups.push(() => double.close());
  return double;
}

const slackEnv = (d: Deployment, double: SlackDouble, channel: string): NodeJS.ProcessEnv => ({
  ...d.env,
  OIKOS_OPERATORS: "UALICE",
  SLACK_BOT_TOKEN: SLACK_TOKEN,
  SLACK_APP_TOKEN: SLACK_APP_TOKEN,
  SLACK_API_URL: double.apiUrl,
  SLACK_CHANNELS: channel,
});

test("Slack's first auth.test fails once: oikos starts, and Slack is connected on the next try", async () => {
  const double = await slackDouble();
  double.addChannel("COPS", { members: ["UALICE"] });
  double.fail("auth.test", "service_unavailable", { times: 1 });
  const d = await deployment("slack-once");
  const child = started(
    spawnCli(["start"], { env: { ...slackEnv(d, double, "COPS"), OIKOS_LOG_LEVEL: "info" } }),
  );
  await child.waitForLog(HEADLESS);
  await eventually("Slack connected", () =>
    logLines(child.stderr()).some(
      (l) => l.platform === "slack" && /connected after 1 failed tries/.test(l.msg),
    )
      ? true
      : undefined,
  );
  const warned = logLines(child.stderr()).filter((l) => l.platform === "slack" && l.level >= 40);
  assert.equal(warned.length, 1, JSON.stringify(warned));
  assert.match(warned[0]!.msg, /service_unavailable/);
  await double.socketMode.connected();
  await double.userMessage("UALICE", "COPS", "!oikos status");
  await eventually("status answered", () =>
    double.byBot().some((m) => /slack connected/.test(double.shown(m))) ? true : undefined,
  );
  child.kill("SIGTERM");
  assert.equal(await child.exited, 0, child.stderr());
  assert.ok(!/unhandled|\n\s+at /i.test(child.stderr()), "no unhandled rejection, no stack trace");
});

test("a revoked Slack token: the terminal serves and says so; Slack connects once the token works again", async () => {
  const double = await slackDouble();
  double.addChannel("COPS", { members: ["UALICE"] });
  double.fail("auth.test", "token_revoked", { times: 2 });
  const d = await deployment("slack-revoked");
  const child = started(
    spawnCli(["start"], {
      stdin: "pipe",
      env: {
        ...slackEnv(d, double, "COPS"),
        OIKOS_OPERATORS: "UALICE,operator",
        OIKOS_SHELL: "true",
        OIKOS_LOG_LEVEL: "info",
      },
    }),
  );
  await eventually("the refusal shown on the terminal", () =>
    /slack refused oikos \(token_revoked\).*check SLACK_BOT_TOKEN/.test(child.stderr()) ? true : undefined,
  );
  child.write("!status\n");
  await eventually("!status in the terminal", () =>
    /slack (refused \(token_revoked\)|connected)/.test(child.stdout()) ? true : undefined,
  ).catch((error: Error) => {
    throw new Error(`${error.message}\nstdout:\n${child.stdout()}\nstderr:\n${child.stderr()}`);
  });
  const log = join(d.env.OIKOS_DATA_DIR!, "oikos.log");
  await eventually("Slack connected once auth.test answers again", () =>
    existsSync(log) && /connected after 2 failed tries/.test(readFileSync(log, "utf8")) ? true : undefined,
  );
  child.kill("SIGTERM");
  assert.equal(await child.exited, 0, child.stderr());
});
