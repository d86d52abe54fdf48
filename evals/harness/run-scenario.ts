import { performance } from "node:perf_hooks";
import { type EntityInput, upsertEntities } from "../../store/entities.ts";
import { type KnowledgeInput, upsertKnowledge } from "../../store/knowledge.ts";
import type { ProxmoxCluster } from "../../test-support/proxmox/proxmox-lab.ts";
import { type ScriptedModelServer, startScriptedModel } from "../../test-support/scripted-model/index.ts";
import type { Homelab } from "../lab/homelab.ts";
import { evaluate, readToolFacts } from "./assertions.ts";
import { lastEditedTexts } from "./grant-expectations.ts";
import type { Scenario } from "./manifest.ts";
import { scriptOf } from "./model-script.ts";
import { OperatorDriver } from "./operator.ts";
import { readPlaceTexts } from "./place-texts.ts";
import { checkProxmox, setUpProxmox } from "./proxmox-step.ts";
import { RestartPoints } from "./restart-points.ts";
import { dumpFinalState } from "./state-dump.ts";
import { checkStuck, readStuck, stuckReport } from "./stuck.ts";
import { BOT, EvalSystem } from "./system.ts";
import { checkTiming, readTiming, type TimingFigures } from "./timing.ts";

export interface ScenarioResult {
  name: string;
  passed: boolean;
  failures: string[];
  tool_calls: number;
  model_calls: number;
  wall_ms: number;
  /** From the run's stored timestamps; on the scoreboard, not in the --json line. */
  timing?: TimingFigures;
  /** Observations that are not failures (a timing figure over its bound but within the slack). */
  notes?: string[];
  /** The failed scenario's final state, as a JSON file (evals/harness/state-dump.ts). */
  dump?: string;
}

export interface RunOptions {
  homelab: Homelab;
  /** A real OpenAI-compatible endpoint instead of the scenario's scripted model. */
  modelUrl?: string;
  modelName?: string;
  modelApiKey?: string;
  /** Looks at the running system after the scenario was evaluated, before it stops (a test's scrape). */
  inspect?: (system: EvalSystem) => Promise<void>;
}

/** Runs one scenario end to end on a fresh database and returns its score. */
export async function runScenario(scenario: Scenario, options: RunOptions): Promise<ScenarioResult> {
  const started = performance.now();
  const { homelab } = options;
  await homelab.prepare(scenario);
  let model: ScriptedModelServer | undefined;
  const restarts = new RestartPoints(scenario.operator);
  if (!options.modelUrl) {
    model = await startScriptedModel({
      script: scriptOf(scenario.model, restarts),
      fallback: { text: "(the eval script has nothing more to say)" },
    });
  }
  const failures: string[] = [];
  let system: EvalSystem | undefined;
  let cluster: ProxmoxCluster | undefined;
  let toolCalls = 0;
  let modelCalls = 0;
  let timing: TimingFigures | undefined;
  let dump: string | undefined;
  const notes: string[] = [];
  try {
    system = await EvalSystem.start({
      modelUrl: options.modelUrl ?? model!.url,
      modelName: options.modelName,
      modelApiKey: options.modelApiKey,
      executionWaitMs: scenario.execution_wait_ms,
      sshUser: homelab.lab.username,
      sshKeyPath: homelab.lab.privateKeyPath,
      config: scenario.config,
    });
    await seed(system, scenario, homelab);
    if (scenario.proxmox) cluster = await setUpProxmox(system, homelab, scenario.proxmox);
    const countModelCalls = async () =>
      model
        ? model.requests.length
        : Number(
            (
              await system!.store.db
                .selectFrom("token_usage")
                .select((eb) => eb.fn.countAll().as("n"))
                .executeTakeFirstOrThrow()
            ).n,
          );
    const liveCalls = () => model?.requests.length ?? 0;
    const driver = new OperatorDriver(
      system,
      homelab,
      Date.now() + scenario.timeout_s * 1000,
      liveCalls,
      model ? restarts : undefined,
    );
    let completed = true;
    try {
      for (const action of scenario.operator) await driver.perform(action);
      await driver.quiet();
    } catch (error) {
      completed = false;
      failures.push(`operator script stopped: ${error instanceof Error ? error.message : String(error)}`);
    }
    const { calls, results } = await readToolFacts(system.store.db);
    toolCalls = calls.length;
    modelCalls = await countModelCalls();
    const wallMs = Math.round(performance.now() - started);
    const botPosts = system.double.sentBy(BOT).map((event) => String(event.content.body ?? ""));
    const evaluated = await evaluate(scenario.expect, {
      db: system.store.db,
      homelab,
      sessionOf: (thread) => driver.sessionId(thread),
      calls,
      results,
      modelCalls,
      wallMs,
      botPosts,
      cardTexts: lastEditedTexts(system.double.sentBy(BOT)),
      unmatchedModelRequests: model?.unmatched.length ?? 0,
      places: await readPlaceTexts(system.store.db, botPosts, model?.requests),
    });
    if (cluster && scenario.expect.proxmox)
      evaluated.push(...(await checkProxmox(scenario.expect.proxmox, cluster)));
    const stuck = await readStuck(system.store.db);
    checkStuck(scenario.expect.stuck, stuck, evaluated);
    if (!completed && !scenario.expect.stuck) evaluated.push(...stuckReport(stuck));
    timing = await readTiming(system.store.db);
    await options.inspect?.(system);
    checkTiming(scenario.expect.timing, timing, evaluated, notes);
    failures.push(...(completed ? evaluated : evaluated.map((f) => `(after timeout) ${f}`)));
    if (failures.length > 0) {
      dump = await dumpFinalState(scenario.name, system.store.db, botPosts, model?.requests, failures).catch(
        (error: unknown) => {
          failures.push(`state dump failed: ${String(error)}`);
          return undefined;
        },
      );
    }
    if (failures.length > 0 && process.env.OIKOS_EVAL_DEBUG) await dumpState(system, model);
    if (system.double.violations.length > 0)
      failures.push(`bot sent ${system.double.violations.length} Matrix event(s) violating the spec schemas`);
  } catch (error) {
    failures.push(
      `harness error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
  } finally {
    restarts.releaseAll();
    await system?.stop().catch((error: unknown) => failures.push(`shutdown: ${String(error)}`));
    await model?.close();
    await cluster?.stop();
  }
  if (failures.length > 0 && scenario.on_failure) failures.unshift(`hint: ${scenario.on_failure.trim()}`);
  return {
    name: scenario.name,
    passed: failures.length === 0,
    failures,
    tool_calls: toolCalls,
    model_calls: modelCalls,
    wall_ms: Math.round(performance.now() - started),
    ...(timing ? { timing } : {}),
    ...(dump ? { dump } : {}),
    notes,
  };
}

async function seed(system: EvalSystem, scenario: Scenario, homelab: Homelab): Promise<void> {
  const entities: EntityInput[] = [
    ...scenario.hosts.map((host): EntityInput => {
      const lab = homelab.lab.host(host.name);
      return {
        slug: host.entity.slug,
        type: host.entity.type,
        name: host.entity.name ?? host.name,
        state: host.entity.state ?? "active",
        transport: "ssh",
        parentSlug: host.entity.parent ?? null,
        attributes: {
          ...host.entity.attributes,
          "ssh.host": lab.host,
          "ssh.port": lab.port,
          "ssh.user": lab.username,
        },
      };
    }),
    ...scenario.entities.map(
      (e): EntityInput => ({
        slug: e.slug,
        type: e.type,
        name: e.name ?? e.slug.split(":")[1]!,
        state: e.state ?? "active",
        transport: e.transport ?? "none",
        parentSlug: e.parent ?? null,
        attributes: e.attributes ?? {},
      }),
    ),
  ];
  // parents first: the batch is written in order
  entities.sort((a, b) => Number(Boolean(a.parentSlug)) - Number(Boolean(b.parentSlug)));
  const result = await upsertEntities(system.store.db, entities, { by: "eval" });
  if (result.failed.length > 0) throw new Error(`seeding entities failed: ${JSON.stringify(result.failed)}`);
  for (const entry of scenario.knowledge) {
    const written = await upsertKnowledge(system.store.db, entry as KnowledgeInput, { by: "eval" });
    if (written.status === "unknown_entities")
      throw new Error(`knowledge about unknown ${written.slugs.join(", ")}`);
  }
}

/** OIKOS_EVAL_DEBUG=1: the transcript, jobs and executions of a failed scenario, on stderr. */
async function dumpState(system: EvalSystem, model: ScriptedModelServer | undefined): Promise<void> {
  const db = system.store.db;
  const out = (line: string) => process.stderr.write(`${line}\n`);
  for (const m of await db.selectFrom("messages").selectAll().orderBy("id").execute()) {
    const calls = m.tool_calls ? ` calls=${JSON.stringify(m.tool_calls)}` : "";
    out(`msg ${m.role}${m.name ? `(${m.name})` : ""}: ${m.content.slice(0, 400)}${calls.slice(0, 400)}`);
  }
  for (const j of await db.selectFrom("queue_jobs").selectAll().orderBy("created_at").execute()) {
    out(`job ${j.queue} ${j.status} ${JSON.stringify(j.data)} ${JSON.stringify(j).slice(0, 300)}`);
  }
  for (const e of await db.selectFrom("executions").selectAll().execute()) {
    out(
      `exec ${e.status} ${e.target} ${e.command} exit=${e.exit_code} ${e.status_reason ?? ""} ${(e.stderr ?? "").slice(0, 200)}`,
    );
  }
  for (const p of await db.selectFrom("plans").selectAll().execute()) out(`plan ${JSON.stringify(p)}`);
  out(`model steps used: ${model?.requests.map((r) => r.step).join(", ")}`);
  out(
    `bot posts: ${system.double
      .sentBy(BOT)
      .map((e) => String(e.content.body ?? "").slice(0, 120))
      .join(" | ")}`,
  );
}
