import { z } from "zod";
import { redact } from "./redact.ts";
import { ROUTING_CHANGE_KEYS } from "./routing.ts";

/**
 * Every refusal a tool can return, keyed by its code: the closed `RefusalCode` union is this
 * table's keys. Each row carries
 * - `nextStep`: the next correct action, in the words the model and the operator read (a producer
 *   may pass a more specific one, e.g. naming the pending execution; this is the default);
 * - `endsTurn`: after this refusal the only correct move is to wait for the operator, so the agent
 *   loop stops the turn (agent/turn.ts reads this, never the wording);
 * - `producers`: the files that return it (ARCHITECTURE.md "Refusals" lists them; a test checks
 *   each file really produces the code);
 * - `forClient` (optional): the next step as an outside MCP client reads it — a person at the
 *   Inspector or an IDE — where the model's wording would mislead them (mcp-server/define-tool.ts
 *   swaps it in for every principal but the agent).
 *
 * To add a code: add a row here, return it with `refusal(code, reason)` from the producer named in
 * the row, and add it to ARCHITECTURE.md's table (policy/refusals.test.ts fails until all three agree).
 */
export interface RefusalSpec {
  nextStep: string;
  endsTurn: boolean;
  producers: readonly string[];
  forClient?: string;
}

/** How an outside MCP client passes its session id: with its own session, start_session's answer. */
const CLIENT_SESSION_STEP =
  "pass it with every session tool's call as request metadata, never as an argument: in the MCP Inspector " +
  '`--tool-metadata oikos/session=<id>`, over HTTP the header `x-oikos-session: <id>`, in your own client `_meta["oikos/session"]`';

const RUN_GATE = "policy/decide-run.ts";
const TASK_PLAN = "mcp-server/tools/task-plan.ts";
const TASK_COMPLETION = "store/task-completion.ts";

const TABLE = {
  // ── the run gate, in gate order (policy/decide-run.ts) ──
  no_session: {
    nextStep:
      "this is a wiring fault, not yours: tell the operator the tool call carried no session id, and end your turn",
    endsTurn: false,
    producers: [RUN_GATE, "mcp-server/session-context.ts"],
    forClient: `Start a session of your own with start_session (a title; it returns session_id), then ${CLIENT_SESSION_STEP}.`,
  },
  unknown_session: {
    nextStep:
      "this is a wiring fault, not yours: tell the operator the tool call carried an unknown session id, and end your turn",
    endsTurn: false,
    forClient: `No session has this id here. Use the session_id start_session returned to you (or start one), and ${CLIENT_SESSION_STEP}.`,
    producers: [RUN_GATE, "mcp-server/tools/task-deps.ts", TASK_COMPLETION],
  },
  session_closed: {
    nextStep:
      "the task is closed; answer the operator and end your turn; their next message reopens it (then set_goal and propose_plan)",
    endsTurn: true,
    producers: [RUN_GATE],
  },
  unknown_target: {
    nextStep: "use an entity slug from list_entities (e.g. host:name, lxc:name)",
    endsTurn: false,
    producers: [RUN_GATE],
  },
  target_not_runnable: {
    nextStep: "pick a runnable target (see get_entity for its transport) or run on its host",
    endsTurn: false,
    producers: [RUN_GATE],
  },
  lint: {
    nextStep: "rewrite the command as one plain shell line and call run again",
    endsTurn: false,
    producers: [RUN_GATE],
  },
  secret_in_command: {
    nextStep:
      "do not write secrets into commands: read them on the target where they already live (a client's own config or option file, e.g. `mysql --defaults-extra-file=/root/.my.cnf`, an environment file the service uses, `curl -H @/path/to/header-file`), or ask the operator (ask_operator) to set that up; never ask them for the secret itself",
    endsTurn: false,
    producers: [RUN_GATE],
  },
  command_rejected: {
    nextStep:
      "rewrite it as plain commands oikos can read: no piping downloads or decoded text into a shell, no eval of dynamic text; fetch a script to a file and read it first",
    endsTurn: false,
    producers: [RUN_GATE],
  },
  wrong_target: {
    nextStep:
      "run it on a target that can run it; look up the target's relationships (get_entity) to find it",
    endsTurn: false,
    producers: [RUN_GATE],
  },
  not_read_only: {
    nextStep:
      "run_many and inspect_path run read-only commands only; use run for each target (it goes through approval)",
    endsTurn: false,
    producers: [RUN_GATE],
  },
  retry_cap: {
    nextStep:
      "stop retrying and investigate why it fails: look at the process (ps, strace -p, lsof), the service logs (journalctl -u …, docker logs), locks and mounts; or call ask_operator",
    endsTurn: false,
    producers: [RUN_GATE],
  },
  preplan_cap: {
    nextStep:
      "call propose_plan now with what you found and the steps you intend (or ask_operator if you are stuck); read-only checks continue once a plan exists",
    endsTurn: false,
    producers: [RUN_GATE],
  },
  plan_required: {
    nextStep:
      "call propose_plan with numbered steps that include this command and its target, then end your turn and wait for the operator",
    endsTurn: false,
    producers: [RUN_GATE],
  },
  plan_not_approved: {
    nextStep:
      "end your turn and wait: the operator approves the plan (that opens the assent window) and you are resumed with their answer",
    endsTurn: true,
    producers: [RUN_GATE],
  },
  approval_pending: {
    nextStep:
      "wait for the operator to decide on the pending execution: end your turn, you are resumed with the decision",
    endsTurn: true,
    producers: [RUN_GATE],
  },
  jail_unavailable: {
    nextStep:
      "the read-only jail cannot hold this command on this target, and nothing runs there unjailed with nobody asked: use run for it (the operator is asked to approve running it unjailed), or read the same on another target",
    endsTurn: false,
    producers: [RUN_GATE],
  },
  // ── fan-out (run_many, inspect_path) ──
  no_targets: {
    nextStep: "pass one or more entity slugs",
    endsTurn: false,
    producers: ["jobs/execution/fan-out.ts"],
  },
  too_many_targets: {
    nextStep: "split the targets into batches",
    endsTurn: false,
    producers: ["jobs/execution/fan-out.ts"],
  },
  execution_vanished: {
    nextStep: "call get_execution_status with its execution_id; do not re-run",
    endsTurn: false,
    producers: ["jobs/execution/fan-out.ts"],
  },
  // ── get_execution_status, cancel_execution ──
  unknown_execution: {
    nextStep: "use the execution_id that run (or run_many) returned in this session",
    endsTurn: false,
    producers: ["mcp-server/tools/execution.ts", "mcp-server/tools/discovery.ts"],
  },
  already_finished: {
    nextStep: "read its result with get_execution_status",
    endsTurn: false,
    producers: ["mcp-server/tools/execution.ts"],
  },
  not_cancellable: {
    nextStep: "follow it with get_execution_status",
    endsTurn: false,
    producers: ["mcp-server/tools/execution.ts"],
  },
  // ── the task tools ──
  task_closed: {
    nextStep:
      "Do not continue it. If the operator asks for something new, their message reopens the session; then call set_goal and propose_plan.",
    endsTurn: false,
    producers: ["mcp-server/tools/task-deps.ts"],
  },
  no_goal: {
    nextStep: "Call set_goal(goal) first, then propose_plan.",
    endsTurn: false,
    producers: [TASK_PLAN],
  },
  reopened_without_goal: {
    nextStep: "Call set_goal with the new goal first, then propose_plan.",
    endsTurn: false,
    producers: [TASK_PLAN, TASK_COMPLETION],
  },
  plan_started: {
    nextStep:
      "Advance with update_plan_step; to change course, mark the remaining steps replaced with a replaced_reason, then propose again.",
    endsTurn: false,
    producers: [TASK_PLAN],
  },
  no_plan: { nextStep: "Call propose_plan first.", endsTurn: false, producers: [TASK_PLAN] },
  plan_denied: {
    nextStep: "Ask what they want (ask_operator) or propose a revised plan.",
    endsTurn: false,
    producers: [TASK_PLAN],
  },
  unknown_step: {
    nextStep: "Use one of the plan's seq numbers.",
    endsTurn: false,
    producers: [TASK_PLAN],
  },
  replaced_reason_required: {
    nextStep: "Prefer done or skipped; replace only when the step is wrong for a reason you can name.",
    endsTurn: false,
    producers: [TASK_PLAN],
  },
  step_closed: {
    nextStep: "Advance to the next open step, or mark the closed step failed or replaced (with a reason).",
    endsTurn: false,
    producers: [TASK_PLAN],
  },
  steps_out_of_order: {
    nextStep: "Finish it (done), or close it as skipped / blocked / replaced (with a reason) first.",
    endsTurn: false,
    producers: [TASK_PLAN],
  },
  step_needs_approval: {
    nextStep: "End your turn; you are resumed when the operator decides.",
    endsTurn: false,
    producers: [TASK_PLAN],
  },
  foreign_execution: {
    nextStep: "Pass the execution_id that run returned in this session, or omit execution_id.",
    endsTurn: false,
    producers: [TASK_PLAN],
  },
  already_complete: {
    nextStep:
      "Do not call complete_task again. If the operator pointed out something still wrong, answer them; a new request reopens the session and needs set_goal + propose_plan.",
    endsTurn: false,
    producers: [TASK_COMPLETION],
  },
  open_executions: {
    nextStep:
      "Wait for their results (you are resumed when they finish) and verify, or complete with outcome partial and say what is left.",
    endsTurn: false,
    producers: [TASK_COMPLETION],
  },
  no_evidence: {
    nextStep:
      "Propose the plan again (propose_plan) to retry once the cause is clear, or call complete_task with outcome partial or failure and say which steps did not run.",
    endsTurn: false,
    producers: [TASK_COMPLETION],
  },
  no_writeback: {
    nextStep:
      "Call update_entity_attributes (facts you learned: versions, IPs, states) and create_relationship (dependencies you found), then complete_task again. If nothing was learned, complete with outcome partial.",
    endsTurn: false,
    producers: [TASK_COMPLETION],
  },
  completed_meanwhile: {
    nextStep: "Do not call complete_task again; end your turn with a short summary for the operator.",
    endsTurn: false,
    producers: [TASK_COMPLETION],
  },
  // ── the inventory and knowledge tools ──
  unknown_entity: {
    nextStep: "Use list_entities with query= to search.",
    endsTurn: false,
    producers: ["mcp-server/tools/entity-view.ts"],
  },
  unknown_knowledge: {
    nextStep: "Use search_knowledge to find it.",
    endsTurn: false,
    producers: ["mcp-server/tools/knowledge.ts"],
  },
  unknown_about_entities: {
    nextStep:
      "Fix the slugs (list_entities with query= finds them) or leave out entities that are not in the inventory, then call upsert_knowledge again.",
    endsTurn: false,
    producers: ["mcp-server/tools/knowledge.ts"],
  },
  secret_attributes: {
    nextStep: "Store where the secret lives (e.g. a file path or vault key name) instead of its value.",
    endsTurn: false,
    producers: ["mcp-server/tools/inventory.ts"],
  },
  routing_owned_by_operator: {
    nextStep:
      "Call change_routing with what you observed (the operator approves it on a card), or ask the operator to fix the inventory (`oikos routing`, `oikos import`); record what you saw under a non-routing key meanwhile (e.g. `observed.ip`).",
    endsTurn: false,
    producers: ["mcp-server/tools/inventory.ts"],
  },
  empty_attributes: {
    nextStep: "Pass at least one key.",
    endsTurn: false,
    producers: ["mcp-server/tools/inventory.ts"],
  },
  unknown_relationship_type: {
    nextStep: "Use one of the valid types.",
    endsTurn: false,
    producers: ["mcp-server/tools/inventory-graph.ts"],
  },
  relationship_not_allowed: {
    nextStep: "If the direction is reversed, swap source and target.",
    endsTurn: false,
    producers: ["mcp-server/tools/inventory-graph.ts"],
  },
  // ── propose_entities (mcp-server/tools/discovery.ts) ──
  no_discovery_evidence: {
    nextStep: "Wait for the execution to finish and name it again.",
    endsTurn: false,
    producers: ["mcp-server/tools/discovery.ts"],
  },
  nothing_discovered: {
    nextStep: "Fix what each refusal names and propose again.",
    endsTurn: false,
    producers: ["mcp-server/tools/discovery.ts"],
  },
  // ── change_routing (mcp-server/tools/routing.ts) ──
  routing_change_invalid: {
    nextStep: `Pass only routing keys (${ROUTING_CHANGE_KEYS.join(", ")}) of an existing entity, with a change from what it is now.`,
    endsTurn: false,
    producers: ["mcp-server/tools/routing.ts"],
  },
  routing_credentials: {
    nextStep: `Credentials are not routing and oikos never stores them: it logs in with its own SSH key or agent, which the operator configures (ssh.privateKeyPath or OIKOS_SSH_KEY) and installs on the target. Do not repeat the credential anywhere; if the login fails, tell the operator (ask_operator) which target refuses oikos's key. change_routing takes only: ${ROUTING_CHANGE_KEYS.join(", ")}.`,
    endsTurn: false,
    producers: ["mcp-server/tools/routing.ts"],
  },
  routing_change_pending: {
    nextStep: "Wait for the operator to decide on the routing change already on its card; end your turn.",
    endsTurn: true,
    producers: ["mcp-server/tools/routing.ts"],
  },
  // ── the execute worker (jobs/execution/routing-stamp.ts) ──
  routing_changed: {
    nextStep:
      "Tell the operator the target was re-routed after approval; if the new routing is right, run the command again (it needs a new approval).",
    endsTurn: false,
    producers: ["jobs/execution/routing-stamp.ts"],
  },
  // ── who may call (mcp-server/principal-gate.ts over policy/principal.ts) ──
  session_not_yours: {
    nextStep:
      "A session belongs to the client that started it: call start_session for your own and pass its id; another client's approvals and windows never apply to you.",
    endsTurn: false,
    producers: ["mcp-server/principal-gate.ts"],
  },
  read_only_principal: {
    nextStep:
      "This token may only read oikos's records (list_entities, get_entity, search_knowledge …); running commands on hosts, sessions and writes need an operator token: ask the operator for one.",
    endsTurn: false,
    producers: ["mcp-server/principal-gate.ts"],
  },
  // ── any tool ──
  invalid_argument: {
    nextStep:
      "Arguments are text: remove control characters (tab and newline are fine) and call the tool again.",
    endsTurn: false,
    producers: ["mcp-server/define-tool.ts"],
  },
  tool_failed: {
    nextStep: "If it happens again, continue without this tool and tell the operator.",
    endsTurn: false,
    producers: ["mcp-server/define-tool.ts"],
  },
  internal_error: {
    nextStep: "Retry once; if it fails again, continue without this tool and tell the operator.",
    endsTurn: false,
    producers: ["mcp-server/define-tool.ts"],
  },
} as const satisfies Record<string, RefusalSpec>;

export type RefusalCode = keyof typeof TABLE;

export const REFUSALS: Readonly<Record<RefusalCode, RefusalSpec>> = TABLE;

export const REFUSAL_CODES = Object.keys(REFUSALS) as RefusalCode[];

/**
 * A refusal as every layer carries it, unchanged from where it is decided to the MCP
 * `structuredContent` and the agent loop: `reason` says what is wrong, `next_step` what to do.
 * `detail` holds machine-readable extras (e.g. the open executions that block complete_task).
 */
export interface Refusal<C extends RefusalCode = RefusalCode> {
  kind: "refused";
  code: C;
  reason: string;
  next_step: string;
  detail?: Record<string, unknown>;
}

export const refusalSchema = z.object({
  kind: z.literal("refused"),
  code: z.enum(REFUSAL_CODES as [RefusalCode, ...RefusalCode[]]),
  reason: z.string(),
  next_step: z.string(),
  detail: z
    .record(z.string(), z.unknown())
    .meta({ additionalProperties: true, description: "machine-readable extras, e.g. the open executions" })
    .optional(),
});

/**
 * Builds a refusal; `nextStep` defaults to the code's row. Reasons quote commands and slugs, so what
 * leaves here is redacted.
 */
export function refusal<C extends RefusalCode>(
  code: C,
  reason: string,
  nextStep: string = REFUSALS[code].nextStep,
  detail?: Record<string, unknown>,
): Refusal<C> {
  return {
    kind: "refused",
    code,
    reason: redact(reason),
    next_step: redact(nextStep),
    ...(detail === undefined ? {} : { detail }),
  };
}

export function isRefusalCode(value: unknown): value is RefusalCode {
  return typeof value === "string" && Object.hasOwn(REFUSALS, value);
}
