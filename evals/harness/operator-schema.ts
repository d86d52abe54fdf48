import { z } from "zod";
import { CARD_KINDS } from "../../store/statuses.ts";
import { alertAction } from "./alert-step.ts";
import { writeFileAction } from "./lab-files.ts";
import { labAction } from "./lab-step.ts";
import { proxmoxAction } from "./proxmox-step.ts";

/** Things the harness waits for between operator actions. */
export const waitFor = z
  .object({
    /** A card kind, or several: the wait ends when cards of any of them reach `count`. */
    card: z
      .preprocess((v) => (typeof v === "string" ? [v] : v), z.array(z.enum(CARD_KINDS)).min(1))
      .optional(),
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

/** The keys that say what an operator step does, and the keys each may come with. */
const VERBS = {
  say: ["thread", "as"],
  react: ["card", "thread", "as"],
  wait: [],
  type_phrase: ["as"],
  restart: [],
  set_world: [],
  write_file: [],
  alert: [],
  lab: [],
  proxmox: [],
  when: ["then", "else"],
} as const;
type Verb = keyof typeof VERBS;

const baseShape = {
  say: z.string().optional(),
  react: z.string().optional(),
  card: z.enum(["plan", "approval", "question", "summary"]).optional(),
  thread: z.string().optional(),
  as: z.string().optional(),
  wait: waitFor.optional(),
  /** Types the confirmation phrase the pending approval of this thread's session asks for. */
  type_phrase: z.string().optional(),
  /**
   * Every process-level part stops without grace and starts again on the same database. With
   * `during: <model step name>` the restart waits until the model is asked for that step and
   * happens while its reply is held: a model call in flight (evals/harness/restart-points.ts).
   */
  restart: z
    .object({ during: z.string().min(1).optional() })
    .strict()
    .optional(),
  set_world: z
    .object({ host: z.string(), vars: z.record(z.string(), z.unknown()) })
    .strict()
    .optional(),
  /** A real file on a lab host changes now (evals/harness/lab-files.ts). */
  write_file: writeFileAction.optional(),
  /** A monitoring system sends an alert webhook (evals/harness/alert-step.ts); its thread gets the label. */
  alert: alertAction.optional(),
  /** Acts on the simulated homelab (evals/harness/lab-step.ts). */
  lab: labAction.optional(),
  /** Changes the simulated Proxmox cluster, or runs its periodic discovery (evals/harness/proxmox-step.ts). */
  proxmox: proxmoxAction.optional(),
};

function checkVerbs(verbNames: readonly Verb[]) {
  return (action: Record<string, unknown>, ctx: z.RefinementCtx) => {
    const verbs = verbNames.filter((verb) => action[verb] !== undefined);
    if (verbs.length !== 1) {
      ctx.addIssue({
        code: "custom",
        message: `an operator step takes exactly one of ${verbNames.join(", ")} (got ${verbs.length ? verbs.join(", ") : "none"})`,
      });
      return;
    }
    const verb = verbs[0]!;
    const allowed = new Set<string>([verb, ...VERBS[verb]]);
    for (const key of Object.keys(action).filter((k) => !allowed.has(k)))
      ctx.addIssue({ code: "custom", path: [key], message: `${key} does not go with ${verb}` });
    if (verb === "react" && action.card === undefined)
      ctx.addIssue({ code: "custom", path: ["card"], message: "react needs the card it reacts to" });
  };
}

const BASE_VERBS = (Object.keys(VERBS) as Verb[]).filter((verb) => verb !== "when");

/**
 * One operator step. A single strict object rather than a union of shapes, so a misspelt or
 * misplaced key is reported by name (`operator[3].lab.rotate_hostkey`), not as "invalid input".
 */
const baseAction = z.object(baseShape).strict().superRefine(checkVerbs(BASE_VERBS));
export type BaseOperatorAction = z.infer<typeof baseAction>;

/**
 * `when:` branches the script on the state at that moment; every key given must hold:
 * `card` (a card of that kind in the thread still waits for a decision: a proposed plan, a pending
 * approval, an open question; other kinds only have to be posted), `status` (the session's status matches, a regular
 * expression), `execution` (an execution of the thread has a status matching), `posted` (a bot
 * message contains the text), `phrase` (the pending approval asks for a typed phrase), `world` (lab variables have these values). `then` runs when it holds,
 * `else` when not; neither may hold another `when`.
 */
export const stateCondition = z
  .object({
    thread: z.string().default("main"),
    card: z.enum(CARD_KINDS).optional(),
    status: z.string().optional(),
    execution: z.string().optional(),
    posted: z.string().optional(),
    /** The thread's pending approval asks for a typed confirmation phrase (true) or does not (false). */
    phrase: z.boolean().optional(),
    world: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
  })
  .strict();
export type StateCondition = z.infer<typeof stateCondition>;

export const operatorAction = z
  .object({
    ...baseShape,
    when: stateCondition.optional(),
    then: z.array(baseAction).optional(),
    else: z.array(baseAction).optional(),
  })
  .strict()
  .superRefine(checkVerbs(Object.keys(VERBS) as Verb[]))
  .superRefine((action, ctx) => {
    if (action.when && !action.then && !action.else)
      ctx.addIssue({ code: "custom", path: ["then"], message: "when needs then, else or both" });
  });
export type OperatorAction = z.infer<typeof operatorAction>;
