import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import type { CommandIO } from "../app/command-module.ts";
import { compose } from "../app/compose.ts";
import { openRuntime } from "../app/runtime.ts";
import { terminalLogger } from "../app/terminal-log.ts";
import { waitForQuietQueue } from "../bot/shell/quiet-queue.ts";
import { upsertEntities } from "../store/entities.ts";
import { type Approver, type ConversationEnd, converse } from "./conversation.ts";
import { demoConfig } from "./demo-config.ts";
import { LocalSimulatedHost } from "./homelab/local-host.ts";
import type { Incident } from "./incident.ts";
import { whatsappBridge } from "./incidents/whatsapp-bridge.ts";
import { narrateCommands } from "./narration.ts";
import { startScriptedModel } from "./scripted-model/index.ts";

export interface DemoOptions {
  approver: Approver;
  incident?: Incident;
  /** The whole conversation's bound (default 2 minutes; it takes seconds). */
  timeoutMs?: number;
  /** An empty PostgreSQL database instead of the embedded one (tests: it starts faster). */
  databaseUrl?: string;
}

/**
 * `oikos demo`: one recorded incident end to end in the terminal chat — the real app (gates, plan
 * card, approval, executions, summary) on an embedded database in a temporary folder, a simulated
 * host reached with the local transport, and the model's answers played from a recording. Needs no
 * model, no host, no network and no root; everything it made is removed at the end.
 */
export interface DemoResult {
  /** The exit code: 0 once the task closed as a success or the person denied the plan. */
  code: number;
  end: ConversationEnd;
  /** The simulated host's world variables at the end (what the commands changed). */
  world: Record<string, unknown>;
}

export async function runDemo(io: CommandIO, options: DemoOptions): Promise<DemoResult> {
  const incident = options.incident ?? whatsappBridge;
  io.stdout.write(header(incident));
  const dir = await mkdtemp(join(tmpdir(), "oikos-demo-"));
  const path = process.env.PATH;
  const model = await startScriptedModel({ script: incident.script, fallback: { text: incident.fallback } });
  try {
    const host = await LocalSimulatedHost.create(join(dir, "homelab"), incident.host);
    // Commands on the local transport inherit this process's environment: the fake tools come first.
    process.env.PATH = `${host.binDir}${delimiter}${path ?? ""}`;
    const config = demoConfig(dir, model.url);
    if (options.databaseUrl) config.database.url = options.databaseUrl;
    const end = await replay(io, options, incident, config);
    const world = await host.vars();
    io.stdout.write(footer(end, world));
    const code = end.kind === "denied" || (end.kind === "completed" && end.outcome === "success") ? 0 : 1;
    return { code, end, world };
  } finally {
    process.env.PATH = path;
    await model.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function replay(
  io: CommandIO,
  options: DemoOptions,
  incident: Incident,
  config: ReturnType<typeof demoConfig>,
): Promise<ConversationEnd> {
  if (!config.database.url)
    io.stdout.write("(starting oikos on an embedded database in a temporary folder: a few seconds)\n\n");
  const runtime = await openRuntime(config, { logger: terminalLogger(config, io.stderr).logger });
  const composition = await compose(runtime, "all");
  composition.ctx.terminalAttached = true;
  const quiet = narrateCommands(runtime.events, runtime.db, io.stdout);
  try {
    await upsertEntities(runtime.db, [{ ...incident.entity, transport: "local" }], { by: "demo" });
    await runtime.queue.start();
    await composition.started();
    const runTerminal = composition.ctx.runTerminal;
    if (!runTerminal) throw new Error("the demo's composition has no terminal chat");
    const conversation = converse({
      events: runtime.events,
      settled: () => waitForQuietQueue(runtime.db, runtime.queue),
      opening: incident.opening,
      approver: options.approver,
      stdin: io.stdin,
      stdout: io.stdout,
      timeoutMs: options.timeoutMs ?? 120_000,
    });
    const [end] = await Promise.all([
      conversation.ended,
      runTerminal({ stdin: conversation.input, stdout: io.stdout }).then(() => conversation.terminalEnded()),
    ]);
    return end;
  } finally {
    quiet();
    await composition.quiesce();
    await runtime.queue.close({ graceMs: config.shutdown.graceMs });
    await composition.stop();
    await runtime.close();
  }
}

function header(incident: Incident): string {
  return [
    `oikos demo — a recorded incident: ${incident.title}.`,
    "The host is simulated (fake tools in a temporary folder, reached with the local transport) and the",
    "model's answers are a recording; the agent, its gates, the plan card and the approval are oikos's own.",
    "Nothing leaves this machine. Lines starting with `you>` are the operator's.",
    "",
  ].join("\n");
}

function footer(end: ConversationEnd, world: Record<string, unknown>): string {
  const how =
    end.kind === "completed"
      ? `The task closed as ${end.outcome}. The simulated host now: ${Object.entries(world)
          .map(([key, value]) => `${key} ${String(value)}`)
          .join(", ")}.`
      : end.kind === "denied"
        ? "You denied the plan, so nothing changed on the host."
        : `The demo stopped: ${end.why}.`;
  return [
    "",
    how,
    'Next: point oikos at your own host and a model (README.md: "Your first host", "A model").',
    "",
  ].join("\n");
}
