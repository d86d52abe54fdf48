import { z } from "zod";
import { CARD_KINDS } from "../../store/statuses.ts";
import { alertAction } from "./alert-step.ts";
import { labAction } from "./lab-step.ts";

/** Things the harness waits for between operator actions. */
export const waitFor = z
  .object({
    card: z.enum(CARD_KINDS).optional(),
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
  alert: [],
  lab: [],
} as const;
type Verb = keyof typeof VERBS;
const VERB_NAMES = Object.keys(VERBS) as Verb[];

/**
 * One operator step. A single strict object rather than a union of shapes, so a misspelt or
 * misplaced key is reported by name (`operator[3].lab.rotate_hostkey`), not as "invalid input".
 */
export const operatorAction = z
  .object({
    say: z.string().optional(),
    react: z.string().optional(),
    card: z.enum(["plan", "approval", "question"]).optional(),
    thread: z.string().optional(),
    as: z.string().optional(),
    wait: waitFor.optional(),
    /** Types the confirmation phrase the pending approval of this thread's session asks for. */
    type_phrase: z.string().optional(),
    /** Every process-level part stops without grace and starts again on the same database. */
    restart: z.object({ during: z.string().optional() }).strict().optional(),
    set_world: z
      .object({ host: z.string(), vars: z.record(z.string(), z.unknown()) })
      .strict()
      .optional(),
    /** A monitoring system sends an alert webhook (evals/harness/alert-step.ts); its thread gets the label. */
    alert: alertAction.optional(),
    /** Acts on the simulated homelab (evals/harness/lab-step.ts). */
    lab: labAction.optional(),
  })
  .strict()
  .superRefine((action, ctx) => {
    const verbs = VERB_NAMES.filter((verb) => action[verb] !== undefined);
    if (verbs.length !== 1) {
      ctx.addIssue({
        code: "custom",
        message: `an operator step takes exactly one of ${VERB_NAMES.join(", ")} (got ${verbs.length ? verbs.join(", ") : "none"})`,
      });
      return;
    }
    const verb = verbs[0]!;
    const allowed = new Set<string>([verb, ...VERBS[verb]]);
    for (const key of Object.keys(action).filter((k) => !allowed.has(k)))
      ctx.addIssue({ code: "custom", path: [key], message: `${key} does not go with ${verb}` });
    if (verb === "react" && action.card === undefined)
      ctx.addIssue({ code: "custom", path: ["card"], message: "react needs the card it reacts to" });
  });
export type OperatorAction = z.infer<typeof operatorAction>;
