import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { KNOWLEDGE_KINDS } from "../../store/statuses.ts";
import { absentSpec } from "./absent.ts";
import { scenarioConfig } from "./config-step.ts";
import { count } from "./count.ts";
import { grantsSpec } from "./grant-expectations.ts";
import { graphSpec } from "./graph-expectations.ts";
import { entity, host } from "./host-schema.ts";
import { expectFiles, previewsSpec } from "./lab-files.ts";
import { labStep } from "./lab-step.ts";
import { type BaseOperatorAction, type OperatorAction, operatorAction } from "./operator-schema.ts";
import { expectProxmox, proxmoxBlock } from "./proxmox-step.ts";
import { restartSteps } from "./restart-points.ts";
import { stuckSpec } from "./stuck.ts";
import { plansSpec, sessionSpec } from "./thread-expectations.ts";
import { timingSpec } from "./timing.ts";

export type { ToolRule } from "../../demo/homelab/tool-rule.ts";
export type { ScenarioEntity, ScenarioHost } from "./host-schema.ts";
export type { OperatorAction, WaitFor } from "./operator-schema.ts";

/** When a scripted model step answers; every key given must hold. */
const when = z
  .object({
    user: z.string().optional(),
    tool_result: z.string().optional(),
    tool_result_of: z.string().optional(),
    after_tool: z.string().optional(),
    note: z.string().optional(),
    any: z.string().optional(),
    none: z.string().optional(),
    system: z.string().optional(),
    no_tools: z.boolean().optional(),
    /** The model's most recent tool call, as `name {json arguments}`. */
    last_call: z.string().optional(),
  })
  .strict();
export type StepWhen = z.infer<typeof when>;

const reply = z
  .object({
    text: z.string().optional(),
    tools: z
      .array(
        z
          .object({
            name: z.string(),
            /** An object is sent JSON-encoded; a string is sent verbatim as the call's arguments (malformed JSON, a bare string). */
            args: z.union([z.record(z.string(), z.unknown()), z.string()]).default({}),
          })
          .strict(),
      )
      .optional(),
    fault: z.enum(["empty", "http", "refusal", "drop", "malformed"]).optional(),
    status: z.number().int().optional(),
    delay_ms: z.number().int().min(0).optional(),
  })
  .strict();
export type StepReply = z.infer<typeof reply>;

const modelStep = z
  .object({
    name: z.string().optional(),
    when: when.optional(),
    reply,
    times: z.union([z.number().int().min(1), z.literal("always")]).optional(),
  })
  .strict();
export type ModelStep = z.infer<typeof modelStep>;

export type { CountSpec } from "./count.ts";

const expectation = z
  .object({
    session: sessionSpec.optional(),
    sessions: z.array(sessionSpec).optional(),
    tools: z
      .object({
        thread: z.string().optional(),
        called: z.array(z.string()).optional(),
        not_called: z.array(z.string()).optional(),
        before: z.array(z.tuple([z.string(), z.string()])).optional(),
        count: z.record(z.string(), count).optional(),
        total: count.optional(),
        max_same_command: z.number().int().optional(),
        no_run_on: z.array(z.string()).optional(),
        no_propose_after_run: z.boolean().optional(),
        results: z
          .array(
            z.object({ tool: z.string().optional(), contains: z.string(), count: count.default({ min: 1 }) }),
          )
          .optional(),
      })
      .strict()
      .optional(),
    /** One thread's plans, or a list of threads' (evals/harness/thread-expectations.ts). */
    plans: plansSpec.optional(),
    approvals: z
      .object({
        thread: z.string().optional(),
        requested: count.optional(),
        approved: count.optional(),
        denied: count.optional(),
        by: z.string().optional(),
        via: z.string().optional(),
        /** How many approvals were decided through each channel (`reaction`, `phrase`, `grant` …). */
        by_channel: z.record(z.string(), count).optional(),
        required_phrase_contains: z.string().optional(),
      })
      .strict()
      .optional(),
    executions: z
      .object({
        thread: z.string().optional(),
        by_status: z.record(z.string(), count).optional(),
        total: count.optional(),
        /** How many executions carry each stored flag (output cut to the limit, binary streams). */
        flags: z
          .object({ output_truncated: count, stdout_binary: count, stderr_binary: count })
          .partial()
          .strict()
          .optional(),
      })
      .strict()
      .optional(),
    steps: z
      .object({
        thread: z.string().optional(),
        done: count.optional(),
        all_closed: z.boolean().optional(),
        in_order: z.boolean().optional(),
      })
      .strict()
      .optional(),
    knowledge: z
      .array(
        z.object({
          kind: z.enum(KNOWLEDGE_KINDS).optional(),
          title_contains: z.string().optional(),
          content_contains: z.string().optional(),
          about: z.string().optional(),
          count: count.default({ min: 1 }),
        }),
      )
      .optional(),
    entities: z
      .array(z.object({ slug: z.string(), attributes: z.record(z.string(), z.unknown()) }))
      .optional(),
    goals: z.object({ thread: z.string().optional(), statuses: z.array(z.string()) }).optional(),
    world: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
    /** The simulated Proxmox cluster at the end (evals/harness/proxmox-step.ts). */
    proxmox: expectProxmox.optional(),
    /** Real files on lab hosts at the end (evals/harness/lab-files.ts). */
    files: expectFiles.optional(),
    /** Plan previews the session recorded: shown, rechecked, asked again, after-run outcome. */
    previews: previewsSpec.optional(),
    world_calls: z
      .array(z.object({ host: z.string(), tool: z.string(), args: z.string().optional(), count }))
      .optional(),
    cards: z.object({ thread: z.string().optional(), by_kind: z.record(z.string(), count) }).optional(),
    posts_contain: z.array(z.string()).optional(),
    /** What must not appear in posts, stored output, the audit log, model requests (evals/harness/absent.ts). */
    absent: z.array(absentSpec).optional(),
    model_calls: count.optional(),
    tool_calls: count.optional(),
    wall_ms: count.optional(),
    /** Figures from stored timestamps (evals/harness/timing.ts); `*_ms` bounds fail only beyond a slack. */
    timing: timingSpec.optional(),
    /** What is left non-terminal at the end, by kind (evals/harness/stuck.ts); `none` for nothing. */
    stuck: stuckSpec.optional(),
    script_drift: z.boolean().default(false),
    /** Standing grants (♾️): made, used, audited, named on cards (evals/harness/grant-expectations.ts). */
    grants: grantsSpec.optional(),
    /** What the tasks left on the knowledge graph (evals/harness/graph-expectations.ts). */
    graph: graphSpec.optional(),
  })
  .strict();
export type Expectation = z.infer<typeof expectation>;

export const scenarioSchema = z
  .object({
    name: z.string().regex(/^[a-z0-9-]+$/),
    replays: z.string(),
    fast: z.boolean().default(false),
    /** Lab hosts that play Proxmox nodes, guest worlds, and the discovery run before the operator speaks. */
    proxmox: proxmoxBlock.optional(),
    /** Shown first under a failing scenario: what a failure here most likely means (a known product gap). */
    on_failure: z.string().optional(),
    timeout_s: z.number().min(5).default(90),
    /** Agent knobs for this scenario (e.g. a small execution wait to force the async path). */
    execution_wait_ms: z.number().int().min(0).default(1500),
    /** Any oikos configuration key, laid over the harness's own (evals/harness/config-step.ts). */
    config: scenarioConfig.default({}),
    hosts: z.array(host).default([]),
    entities: z.array(entity).default([]),
    knowledge: z
      .array(
        z.object({
          kind: z.string(),
          title: z.string(),
          content: z.string(),
          about: z.array(z.string()).default([]),
          tags: z.array(z.string()).default([]),
          /** An adopted runbook's symptom words: offered to a task on its entities that says them. */
          symptom: z.array(z.string()).optional(),
        }),
      )
      .default([]),
    model: z.array(modelStep),
    operator: z.array(operatorAction).min(1),
    expect: expectation,
  })
  .strict()
  .superRefine((scenario, ctx) => {
    const steps = new Set(scenario.model.flatMap((step) => (step.name ? [step.name] : [])));
    for (const during of restartSteps(scenario.operator))
      if (!steps.has(during))
        ctx.addIssue({
          code: "custom",
          path: ["operator"],
          message: `restart during "${during}": no model step has that name (${[...steps].join(", ") || "none"})`,
        });
    const hosts = new Set(scenario.hosts.map((h) => h.name));
    scenario.operator.forEach((action, index) => {
      for (const [path, host] of hostsNamedBy(action))
        if (!hosts.has(host))
          ctx.addIssue({
            code: "custom",
            path: ["operator", index, ...path],
            message: `no lab host named ${host} in hosts (${[...hosts].join(", ") || "none"})`,
          });
    });
  });
export type Scenario = z.infer<typeof scenarioSchema>;

/** The lab hosts an operator step acts on, with the key that names each (inside then/else too). */
function hostsNamedBy(action: OperatorAction | BaseOperatorAction): [(string | number)[], string][] {
  const named: [(string | number)[], string][] = [];
  if ("when" in action) {
    for (const host of Object.keys(action.when?.world ?? {})) named.push([["when", "world", host], host]);
    for (const branch of ["then", "else"] as const)
      (action[branch] ?? []).forEach((step, i) => {
        for (const [path, host] of hostsNamedBy(step)) named.push([[branch, i, ...path], host]);
      });
  }
  if (action.lab) {
    const { name, host } = labStep(action.lab);
    named.push([["lab", name], host]);
  }
  if (action.set_world) named.push([["set_world", "host"], action.set_world.host]);
  if (action.write_file) named.push([["write_file", "host"], action.write_file.host]);
  if (action.wait?.calls) named.push([["wait", "calls", "host"], action.wait.calls.host]);
  return named;
}

export const SCENARIO_DIR = new URL("../scenarios/", import.meta.url).pathname;

/** One manifest, validated; the error names the file and the path of every offending key. */
export function parseScenario(raw: unknown, file: string): Scenario {
  const parsed = scenarioSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`${file}: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** Every manifest in evals/scenarios, parsed and validated, in file-name order. */
export async function loadScenarios(dir = SCENARIO_DIR): Promise<Scenario[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith(".yaml")).sort();
  const scenarios: Scenario[] = [];
  for (const file of files) {
    scenarios.push(parseScenario(parseYaml(await readFile(join(dir, file), "utf8")) as unknown, file));
  }
  return scenarios;
}
