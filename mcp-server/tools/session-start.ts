import { randomUUID } from "node:crypto";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { AGENT_PRINCIPAL } from "../../policy/principal.ts";
import { recordAudit } from "../../store/audit.ts";
import { createSession } from "../../store/sessions.ts";
import { defineTool } from "../define-tool.ts";
import { SESSION_HEADER, SESSION_META_KEY } from "../session-context.ts";
import { ok } from "../tool-result.ts";
import type { TaskToolDeps } from "./task-deps.ts";
import { startSessionOutput } from "./task-outputs.ts";
import { setGoal } from "./task-plan.ts";

/** Where an outside client's sessions live: no chat room, the principal as the room. */
export const MCP_SESSION_PLATFORM = "mcp";

/**
 * `start_session`, for outside clients: a session of their own, owned by their principal, so their
 * plans, approvals and windows are theirs and no one else's. The agent's sessions come from chat,
 * so the agent does not get this tool.
 */
export function registerSessionStart(server: McpServer, deps: TaskToolDeps): void {
  if (deps.principal.id === AGENT_PRINCIPAL.id) return;
  defineTool(
    server,
    deps,
    "start_session",
    {
      access: "operator",
      description:
        `Start an oikos session of your own and get its id. Pass the id on every later call in request _meta ` +
        `"${SESSION_META_KEY}" (or header ${SESSION_HEADER}); run, plan and task tools need it. Only this client ` +
        "may use it, and approvals given in other sessions never apply to it.",
      inputSchema: {
        title: z.string().min(3).max(200).describe("what this session is for, in a few words"),
        goal: z.string().min(3).max(500).optional().describe("the goal, if known (as set_goal)"),
      },
      outputSchema: startSessionOutput,
    },
    async (args) => {
      const { principal } = deps;
      const session = await createSession(deps.db, {
        platform: MCP_SESSION_PLATFORM,
        room: principal.id,
        thread: randomUUID(),
        createdBy: principal.id,
        principal: principal.id,
      });
      await recordAudit(
        deps.db,
        { by: principal.id, sessionId: session.id },
        { action: "session_started", subject: session.id, details: { title: args.title } },
      );
      if (args.goal) await setGoal(deps, session.id, args.goal);
      return ok({
        kind: "session_started",
        session_id: session.id,
        principal: principal.id,
        goal: args.goal?.trim() ?? null,
        next:
          `Pass "${session.id}" as _meta "${SESSION_META_KEY}" on every call in this session` +
          (args.goal ? "; research read-only, then propose_plan." : "; call set_goal first."),
      });
    },
  );
}
