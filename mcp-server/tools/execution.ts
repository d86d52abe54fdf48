import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { nextStepFor } from "../../jobs/execution/execution-view.ts";
import { inspectPathCommand, MAX_FAN_OUT_TARGETS, runMany } from "../../jobs/execution/fan-out.ts";
import { framedView } from "../../jobs/execution/output-frame.ts";
import { type RunOutcome, type RunService, resultOf } from "../../jobs/execution/run-service.ts";
import { type Refusal, refusal } from "../../policy/refusals.ts";
import { cancelPendingExecution } from "../../store/consent.ts";
import { executionFinished } from "../../store/domain-events.ts";
import { getExecution, isTerminalExecutionStatus, requestCancel } from "../../store/executions.ts";
import { defineTool } from "../define-tool.ts";
import { requireSession } from "../session-context.ts";
import type { ToolDeps } from "../tool-deps.ts";
import { gateRefused, ok, refused, type ToolResult } from "../tool-result.ts";
import { compactExecution } from "./compact-execution.ts";
import {
  cancelExecutionOutput,
  executionStatusOutput,
  fanOutOutput,
  runOutput,
} from "./execution-outputs.ts";
import { fanOutResult } from "./fan-out-result.ts";

export interface ExecutionToolDeps extends ToolDeps {
  /** The gated run service (jobs/execution). Without it the execution tools are not registered. */
  execution?: RunService;
}

const slug = z.string().min(1).max(200);
const purpose = z
  .string()
  .min(1)
  .max(500)
  .describe("why you run this, in one sentence (shown to the operator)");
const targets = z.array(slug).min(1).max(MAX_FAN_OUT_TARGETS);

/** run, get_execution_status, cancel_execution, run_many, inspect_path. */
export function registerExecutionTools(server: McpServer, deps: ExecutionToolDeps): void {
  const service = deps.execution;
  if (!service) return;

  defineTool(
    server,
    deps,
    "run",
    {
      access: "operator",
      description:
        "Run one shell command on one target (entity slug). Every command is classified and gated: read-only runs at " +
        "once; config_mutation needs an approved plan (or its own approval); destructive needs an operator's typed " +
        "confirmation. Returns the result, or {execution_id, status} when it takes longer than a few seconds (then call " +
        "get_execution_status later). When approval is needed, END YOUR TURN: you are resumed when the operator decides.",
      outputSchema: runOutput,
      inputSchema: {
        target: slug.describe("entity slug, e.g. host:hubris or lxc:gitea"),
        command: z.string().min(1).max(16_384),
        purpose,
        step_seq: z.number().int().min(1).optional().describe("the plan step this command carries out"),
        timeout_s: z
          .number()
          .int()
          .min(1)
          .max(86_400)
          .optional()
          .describe("kill the command after this long"),
      },
      annotations: { destructiveHint: true, openWorldHint: true },
    },
    async (args, { sessionId, write }) => {
      const outcome = await service.run({
        sessionId,
        target: args.target,
        command: args.command,
        purpose: args.purpose,
        stepSeq: args.step_seq,
        requestedBy: write.by,
        timeoutMs: args.timeout_s === undefined ? undefined : args.timeout_s * 1000,
      });
      return runResult(outcome, service.options.waitMs);
    },
  );

  defineTool(
    server,
    deps,
    "get_execution_status",
    {
      access: "operator",
      description:
        "Status and (redacted, capped) output of an execution started by run / run_many in this session. Waits up to a " +
        "few seconds for it to finish when wait is true.",
      outputSchema: executionStatusOutput,
      inputSchema: { execution_id: z.string().min(1).max(64), wait: z.boolean().optional() },
      annotations: { readOnlyHint: true },
    },
    async (args, context) => {
      const session = requireSession(context.extra, "get_execution_status");
      if ("refusal" in session) return session.refusal;
      const row = await getExecution(deps.db, args.execution_id);
      if (!row || row.session_id !== session.sessionId) {
        return refused(
          refusal(
            "unknown_execution",
            `There is no execution ${args.execution_id} in this session.`,
            "Use the execution_id that run returned.",
          ),
        );
      }
      const result = args.wait ? await service.awaitResult(row.id) : resultOf(row);
      return ok({
        kind: result.kind,
        ...framedView(result.execution),
        next_step: nextStepFor(result.execution),
      });
    },
  );

  defineTool(
    server,
    deps,
    "cancel_execution",
    {
      access: "operator",
      description:
        "Cancel an execution of this session: one waiting for approval or in the queue is cancelled at once; a running " +
        "one is signalled (TERM, then KILL) and ends `cancelled`.",
      inputSchema: { execution_id: z.string().min(1).max(64) },
      outputSchema: cancelExecutionOutput,
    },
    async (args, context) => {
      const session = requireSession(context.extra, "cancel_execution");
      if ("refusal" in session) return session.refusal;
      const row = await getExecution(deps.db, args.execution_id);
      if (!row || row.session_id !== session.sessionId) {
        return refused(
          refusal(
            "unknown_execution",
            `There is no execution ${args.execution_id} in this session.`,
            "Use the execution_id that run (or run_many) returned; check it with get_execution_status before cancelling.",
          ),
        );
      }
      if (await cancelPendingExecution(deps.db, row.id, context.write.by)) {
        await service.options.events.publish(executionFinished(row, "cancelled"));
        return ok({ kind: "cancelled", execution_id: row.id, status: "cancelled" });
      }
      if (await requestCancel(deps.db, row.id, context.write.by)) {
        const after = await service.awaitResult(row.id);
        return ok({
          kind: after.kind,
          ...framedView(after.execution),
          ...(after.kind === "pending"
            ? { note: "cancel requested; the worker stops it within seconds" }
            : {}),
        });
      }
      const now = await getExecution(deps.db, row.id);
      const status = now?.status ?? row.status;
      return refused(
        isTerminalExecutionStatus(status)
          ? refusal(
              "already_finished",
              `Execution ${row.id} already ended (${status}); there is nothing to cancel.`,
              `Read its result with get_execution_status("${row.id}").`,
            )
          : refusal(
              "not_cancellable",
              `Execution ${row.id} is ${status} and cannot be cancelled now.`,
              `Call get_execution_status("${row.id}") to follow it.`,
            ),
      );
    },
  );

  defineTool(
    server,
    deps,
    "run_many",
    {
      access: "operator",
      description:
        "Run one READ-ONLY command on many targets in parallel (fleet checks: uptime, df -h, docker ps …). Each target " +
        "is gated like run; a mutating command is refused (use run). Returns one result per target.",
      outputSchema: fanOutOutput,
      inputSchema: { targets, command: z.string().min(1).max(16_384), purpose },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async (args, { sessionId, write }) => {
      const result = await runMany(service, {
        sessionId,
        targets: args.targets,
        command: args.command,
        purpose: args.purpose,
        requestedBy: write.by,
      });
      return fanOutResult(result);
    },
  );

  defineTool(
    server,
    deps,
    "inspect_path",
    {
      access: "operator",
      description:
        "Everything about one path on many targets in one call: mount (findmnt), df -h, ls -la and stat. Use it " +
        "instead of several run calls when a path's storage, permissions or owner matter.",
      outputSchema: fanOutOutput,
      inputSchema: { path: z.string().min(1).max(4096), targets, purpose: purpose.optional() },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async (args, { sessionId, write }) => {
      const result = await runMany(service, {
        sessionId,
        targets: args.targets,
        command: inspectPathCommand(args.path),
        purpose: args.purpose ?? `inspect ${args.path}`,
        requestedBy: write.by,
      });
      return fanOutResult(result);
    },
  );
}

function runResult(outcome: RunOutcome | Refusal, waitMs: number): ToolResult {
  switch (outcome.kind) {
    case "finished":
      return ok({
        kind: "finished",
        ...compactExecution(outcome.execution),
        next_step: nextStepFor(outcome.execution),
      });
    case "pending":
      return ok({
        kind: "pending",
        execution_id: outcome.execution.execution_id,
        status: outcome.execution.status,
        message: `Not finished after ${Math.round(waitMs / 1000)} s; it keeps running.`,
        next_step: nextStepFor(outcome.execution),
      });
    case "approval_requested":
      return ok({
        kind: "approval_requested",
        execution_id: outcome.executionId,
        approval_id: outcome.approvalId,
        status: "pending_approval",
        risk: outcome.risk,
        message:
          `Needs operator approval: ${outcome.reason}.` +
          (outcome.phrase ? ` The operator must type \`${outcome.phrase}\`.` : "") +
          " END YOUR TURN NOW and tell the operator what you want to run and why; do not call run again until you are" +
          " resumed with their decision.",
        ...(outcome.phrase ? { phrase: outcome.phrase } : {}),
      });
    case "refused":
      return gateRefused(outcome);
  }
}
