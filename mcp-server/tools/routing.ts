import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { refusal } from "../../policy/refusals.ts";
import { ROUTING_CHANGE_KEYS, routingKeyProblems } from "../../policy/routing.ts";
import { DEFAULT_APPROVAL_TTL_MS } from "../../store/approvals.ts";
import { approvalRequested } from "../../store/domain-events.ts";
import { entitySlugSchema } from "../../store/entities.ts";
import { requestRoutingChange } from "../../store/routing-approval.ts";
import { describeRouting } from "../../store/routing-change.ts";
import { outcome, outcomeSchema } from "../output-schema.ts";
import { now } from "../tool-deps.ts";
import { ok, refused } from "../tool-result.ts";
import { publish, type TaskToolDeps } from "./task-deps.ts";
import { defineSessionTool } from "./task-session-tool.ts";

const changeRoutingOutput = outcomeSchema(
  outcome("approval_requested", {
    approval_id: z.string(),
    slug: z.string(),
    status: z.literal("pending_approval"),
    was: z.string(),
    new: z.string(),
    message: z.string().describe("what the operator is asked, and that the turn ends now"),
  }),
);

/**
 * `change_routing`: the only way the agent can affect where an entity's commands go. It asks; an
 * operator's ✅ on the card (old → new) applies it (store/routing-approval.ts).
 */
export function registerRoutingTools(server: McpServer, deps: TaskToolDeps): void {
  defineSessionTool(
    server,
    deps,
    "change_routing",
    {
      access: "operator",
      description:
        "Ask the operator to change where an entity's commands run (transport, parent host, ssh.host/port/user, vmid, " +
        "proxmox.*, jail): posts a card with the old and new routing; NOTHING changes until an operator approves it, " +
        "and your turn ends. Use it when you observed that the inventory points somewhere wrong (a moved guest, a new IP).",
      inputSchema: {
        slug: entitySlugSchema,
        changes: z
          .record(z.string().min(1).max(100), z.union([z.string().max(512), z.number(), z.null()]))
          .describe(
            `routing keys to set, null to remove: {"ssh.host": "10.0.0.12", "ssh.port": 2222}. Only these keys: ${ROUTING_CHANGE_KEYS.join(", ")}; never credentials`,
          ),
        reason: z.string().min(5).max(500).describe("what you observed that makes the current routing wrong"),
      },
      outputSchema: changeRoutingOutput,
    },
    async (args, sessionId, { write }) => {
      // A closed set of keys (policy/routing.ts): a credential is refused before anything is stored or shown.
      const problems = routingKeyProblems(Object.keys(args.changes));
      if (problems.credentials.length > 0) {
        return refused(
          refusal(
            "routing_credentials",
            `change_routing refused: ${problems.credentials.join(", ")} ${problems.credentials.length === 1 ? "is a credential" : "are credentials"}, not routing; nothing was stored`,
          ),
        );
      }
      if (problems.notRouting.length > 0) {
        return refused(
          refusal(
            "routing_change_invalid",
            `change_routing refused: not routing keys: ${problems.notRouting.join(", ")}.`,
          ),
        );
      }
      const at = now(deps);
      const requested = await requestRoutingChange(deps.db, {
        sessionId,
        slug: args.slug,
        patch: args.changes,
        reason: args.reason,
        requestedBy: write.by,
        expiresAt: new Date(at.getTime() + DEFAULT_APPROVAL_TTL_MS),
        now: at,
      });
      if (!requested.ok) {
        return refused(
          requested.pending
            ? refusal("routing_change_pending", `change_routing refused: ${requested.reason}.`)
            : refusal("routing_change_invalid", `change_routing refused: ${requested.reason}.`),
        );
      }
      await publish(deps, approvalRequested({ sessionId, approvalId: requested.approvalId }));
      return ok({
        kind: "approval_requested",
        approval_id: requested.approvalId,
        slug: args.slug,
        status: "pending_approval",
        was: describeRouting(requested.before),
        new: describeRouting(requested.after),
        message:
          "The operator is asked to approve this routing change on its card. END YOUR TURN NOW and tell them what you " +
          "observed; you are resumed with their decision. Until then the entity routes as before.",
      });
    },
  );
}
