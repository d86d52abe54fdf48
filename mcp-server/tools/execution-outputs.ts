import { z } from "zod";
import { refusalSchema } from "../../policy/refusals.ts";
import { EXECUTION_STATUSES, STEP_RISKS } from "../../store/statuses.ts";
import { outcome, outcomeSchema } from "../output-schema.ts";

/** What the execution tools return as `structuredContent` (and, as JSON, as their text). */

const status = z.enum(EXECUTION_STATUSES);
const nextStep = z.string().describe("what to do next with this execution");

/** An execution as run and run_many report it: the fields a model needs, bookkeeping left out. */
const compactShape = {
  execution_id: z.string(),
  status,
  exit_code: z.number().int().nullable(),
  stdout: z.string().nullable(),
  stderr: z.string().optional(),
  stdout_binary: z.string().optional().describe("set when stdout was binary: it holds a printable preview"),
  stderr_binary: z.string().optional().describe("set when stderr was binary: it holds a printable preview"),
  output_truncated: z.string().optional().describe("set when the output was cut: how much there was"),
  duration_ms: z.number().optional(),
  reason: z.string().optional().describe("why it ended as it did (timeout, cancel, denial …)"),
  jail: z
    .string()
    .optional()
    .describe("read-only runs: whether it ran inside the read-only jail on the target, and why not"),
  next_step: nextStep.optional(),
};

export type CompactExecution = {
  execution_id: string;
  status: z.infer<typeof status>;
  exit_code: number | null;
  stdout: string | null;
  stderr?: string;
  stdout_binary?: string;
  stderr_binary?: string;
  output_truncated?: string;
  duration_ms?: number;
  reason?: string;
  jail?: string;
  next_step?: string;
};

export const runOutput = outcomeSchema(
  outcome("finished", { ...compactShape, next_step: nextStep }),
  outcome("pending", {
    execution_id: z.string(),
    status,
    message: z.string(),
    next_step: nextStep,
  }),
  outcome("approval_requested", {
    execution_id: z.string(),
    approval_id: z.string(),
    status: z.literal("pending_approval"),
    risk: z.enum(STEP_RISKS),
    message: z.string().describe("what the operator is asked, and that the turn ends now"),
    phrase: z.string().optional().describe("the words the operator must type (destructive commands)"),
  }),
);

/** An execution in full, as get_execution_status and cancel_execution report it. */
const viewShape = {
  execution_id: z.string(),
  status,
  finished: z.boolean(),
  target: z.string(),
  command: z.string(),
  risk: z.enum(STEP_RISKS),
  exit_code: z.number().int().nullable(),
  stdout: z.string().nullable(),
  stderr: z.string().nullable(),
  stdout_binary: z.boolean(),
  stderr_binary: z.boolean(),
  output_truncated: z.boolean(),
  output_bytes: z.number().nullable(),
  duration_ms: z.number().nullable(),
  reason: z.string().nullable(),
  jailed: z
    .boolean()
    .nullable()
    .describe(
      "it ran inside the read-only jail (writes, mounts, signals outside it refused); null: it has not run",
    ),
  jail_note: z
    .string()
    .nullable()
    .describe("why it did not run jailed, or what the jail refused or hid from it"),
  jail_grants: z
    .array(z.string())
    .describe(
      "read-only runs: what the jail opened to it (named by its proof); empty: no network, sockets or devices",
    ),
  jail_engine: z.string().nullable().describe("the engine that jailed it"),
  jail_hidden: z
    .array(z.string())
    .describe("what the jail hid that it seems to have needed: its output may be empty or incomplete"),
  step_seq: z.number().int().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
};

export const executionStatusOutput = outcomeSchema(
  outcome("finished", { ...viewShape, next_step: nextStep }),
  outcome("pending", { ...viewShape, next_step: nextStep }),
);

export const cancelExecutionOutput = outcomeSchema(
  outcome("cancelled", { execution_id: z.string(), status: z.literal("cancelled") }),
  outcome("finished", viewShape),
  outcome("pending", { ...viewShape, note: z.string() }),
);

const fanOutItem = z.discriminatedUnion("kind", [
  z.object({ target: z.string(), kind: z.literal("finished"), ...compactShape }),
  z.object({ target: z.string(), kind: z.literal("pending"), ...compactShape }),
  refusalSchema.extend({ target: z.string() }),
]);

const refusedTarget = refusalSchema.extend({ target: z.string() });

export const fanOutOutput = outcomeSchema(
  outcome("fan_out", {
    summary: z.string().describe("one line: how many targets completed, which never started or were refused"),
    next_step: z.string().optional().describe("set when some targets did not run: what to do about them"),
    results: z.array(fanOutItem).describe("one result per target, in request order"),
  }),
  outcome("fan_out_refused", {
    results: z.array(refusedTarget).describe("why each target was refused, in request order"),
    message: z.string().describe("one line per target, and that the turn ends now"),
    next_step: z.string(),
  }),
);
