import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { KNOWLEDGE_KINDS } from "../../store/statuses.ts";
import { alertAction } from "./alert-step.ts";

/** One fake command behaviour on a lab host (see evals/lab/fake-tool.mjs). */
const toolRule = z.object({
  args: z.string().optional(),
  when: z.record(z.string(), z.unknown()).optional(),
  hang_while: z.record(z.string(), z.unknown()).optional(),
  sleep_ms: z.number().int().min(0).optional(),
  set: z.record(z.string(), z.unknown()).optional(),
  stdout: z.string().optional(),
  stderr: z.string().optional(),
  exit: z.number().int().optional(),
});
export type ToolRule = z.infer<typeof toolRule>;

const entity = z.object({
  slug: z.string(),
  type: z.string(),
  name: z.string().optional(),
  state: z.enum(["active", "stopped", "destroyed", "unknown"]).optional(),
  parent: z.string().optional(),
  transport: z.enum(["ssh", "pct-exec", "qm-guest-exec", "local", "none"]).optional(),
  attributes: z.record(z.string(), z.unknown()).optional(),
});
export type ScenarioEntity = z.infer<typeof entity>;

/** A simulated machine: one sshd of the lab, its entity, its world variables and fake commands. */
const host = z.object({
  name: z.string().regex(/^[a-z][a-z0-9-]*$/),
  entity: entity.omit({ transport: true }),
  vars: z.record(z.string(), z.unknown()).default({}),
  tools: z.record(z.string(), z.array(toolRule)).default({}),
});
export type ScenarioHost = z.infer<typeof host>;

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
      .array(z.object({ name: z.string(), args: z.record(z.string(), z.unknown()).default({}) }))
      .optional(),
    fault: z.enum(["empty", "http", "refusal", "drop"]).optional(),
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

/** Things the harness waits for between operator actions. */
const waitFor = z
  .object({
    card: z.enum(["plan", "approval", "question", "summary"]).optional(),
    count: z.number().int().min(1).optional(),
    thread: z.string().optional(),
    status: z.string().optional(),
    execution: z.string().optional(),
    calls: z.object({ host: z.string(), tool: z.string(), count: z.number().int().min(1) }).optional(),
    quiet: z.boolean().optional(),
    /** No agent turn holds any session (commands may still run). */
    turns_idle: z.boolean().optional(),
    ms: z.number().int().min(0).optional(),
    timeout_s: z.number().min(1).optional(),
  })
  .strict();
export type WaitFor = z.infer<typeof waitFor>;

const operatorAction = z.union([
  z.object({ say: z.string(), thread: z.string().optional(), as: z.string().optional() }).strict(),
  z
    .object({
      react: z.string(),
      card: z.enum(["plan", "approval", "question"]),
      thread: z.string().optional(),
      as: z.string().optional(),
    })
    .strict(),
  z.object({ wait: waitFor }).strict(),
  /** Types the confirmation phrase the pending approval of the thread's session asks for. */
  z.object({ type_phrase: z.string().default("main"), as: z.string().optional() }).strict(),
  z.object({ restart: z.object({ during: z.string().optional() }).default({}) }).strict(),
  z.object({ set_world: z.object({ host: z.string(), vars: z.record(z.string(), z.unknown()) }) }).strict(),
  /** A monitoring system sends an alert webhook (evals/harness/alert-step.ts); its thread gets the label. */
  z.object({ alert: alertAction }).strict(),
]);
export type OperatorAction = z.infer<typeof operatorAction>;

const count = z.union([
  z.number().int().min(0),
  z
    .object({ min: z.number().int().optional(), max: z.number().int().optional() })
    .refine((c) => c.min !== undefined || c.max !== undefined, "a count needs min, max or a number"),
]);
export type CountSpec = z.infer<typeof count>;

const expectation = z
  .object({
    session: z
      .object({
        thread: z.string().default("main"),
        status: z.string().optional(),
        outcome: z.string().optional(),
        summary_contains: z.string().optional(),
      })
      .strict()
      .optional(),
    sessions: z
      .array(z.object({ thread: z.string(), status: z.string().optional(), outcome: z.string().optional() }))
      .optional(),
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
    plans: z
      .object({
        thread: z.string().optional(),
        generations: count.optional(),
        status: z.string().optional(),
        decided_via: z.string().optional(),
        decided_by: z.string().optional(),
      })
      .strict()
      .optional(),
    approvals: z
      .object({
        thread: z.string().optional(),
        requested: count.optional(),
        approved: count.optional(),
        denied: count.optional(),
        by: z.string().optional(),
        via: z.string().optional(),
        required_phrase_contains: z.string().optional(),
      })
      .strict()
      .optional(),
    executions: z
      .object({
        thread: z.string().optional(),
        by_status: z.record(z.string(), count).optional(),
        total: count.optional(),
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
    world_calls: z
      .array(z.object({ host: z.string(), tool: z.string(), args: z.string().optional(), count }))
      .optional(),
    cards: z.object({ thread: z.string().optional(), by_kind: z.record(z.string(), count) }).optional(),
    posts_contain: z.array(z.string()).optional(),
    model_calls: count.optional(),
    tool_calls: count.optional(),
    wall_ms: count.optional(),
    script_drift: z.boolean().default(false),
  })
  .strict();
export type Expectation = z.infer<typeof expectation>;

export const scenarioSchema = z
  .object({
    name: z.string().regex(/^[a-z0-9-]+$/),
    replays: z.string(),
    fast: z.boolean().default(false),
    /** Shown first under a failing scenario: what a failure here most likely means (a known product gap). */
    on_failure: z.string().optional(),
    timeout_s: z.number().min(5).default(90),
    /** Agent knobs for this scenario (e.g. a small execution wait to force the async path). */
    execution_wait_ms: z.number().int().min(0).default(1500),
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
        }),
      )
      .default([]),
    model: z.array(modelStep),
    operator: z.array(operatorAction).min(1),
    expect: expectation,
  })
  .strict();
export type Scenario = z.infer<typeof scenarioSchema>;

export const SCENARIO_DIR = new URL("../scenarios/", import.meta.url).pathname;

/** Every manifest in evals/scenarios, parsed and validated, in file-name order. */
export async function loadScenarios(dir = SCENARIO_DIR): Promise<Scenario[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith(".yaml")).sort();
  const scenarios: Scenario[] = [];
  for (const file of files) {
    const raw = parseYaml(await readFile(join(dir, file), "utf8")) as unknown;
    const parsed = scenarioSchema.safeParse(raw);
    if (!parsed.success) {
      throw new Error(`${file}: ${z.prettifyError(parsed.error)}`);
    }
    scenarios.push(parsed.data);
  }
  return scenarios;
}
