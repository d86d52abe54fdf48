import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { decideProposedEntity, type EntityDecision, type ProposedEntity } from "../../policy/discovery.ts";
import { refusal } from "../../policy/refusals.ts";
import { DEFAULT_APPROVAL_TTL_MS } from "../../store/approvals.ts";
import { discoveryFacts, recordDiscovery } from "../../store/discovery.ts";
import { approvalRequested } from "../../store/domain-events.ts";
import { entitySlugSchema, SECRET_ATTRIBUTE_KEY } from "../../store/entities.ts";
import { listEntityTypes } from "../../store/entity-types.ts";
import { getExecution } from "../../store/executions.ts";
import { createRelationship } from "../../store/relationships.ts";
import { requestRoutingChange } from "../../store/routing-approval.ts";
import { describeRouting } from "../../store/routing-change.ts";
import { outcome, outcomeSchema } from "../output-schema.ts";
import { now } from "../tool-deps.ts";
import { ok, refused } from "../tool-result.ts";
import { publish, type TaskToolDeps } from "./task-deps.ts";
import { defineSessionTool } from "./task-session-tool.ts";

const MAX_ENTITIES = 50;

const written = {
  created: z.array(z.string()),
  refreshed: z.array(z.string()),
  annotated: z.array(z.string()).describe("the operator's own entities: only facts were added"),
  edges: z.array(z.string()),
  stale: z.array(z.string()).describe("discovered entities the evidence no longer lists: kept, marked stale"),
  refused: z.array(
    z.object({ slug: z.string(), code: z.string(), reason: z.string(), next_step: z.string() }),
  ),
};

const proposeOutput = outcomeSchema(
  outcome("entities_proposed", written),
  outcome("approval_requested", {
    ...written,
    approval_id: z.string(),
    slug: z.string(),
    status: z.literal("pending_approval"),
    was: z.string(),
    new: z.string(),
    message: z.string(),
  }),
);

/**
 * `propose_entities`: what the agent found inside a guest or host (services, containers, volumes,
 * ports) becomes entities, each with the execution whose output showed it as evidence. What carries
 * no routing is written at once and marked discovered (never a command target); routing for a new
 * target is asked of the operator like change_routing.
 */
export function registerDiscoveryTools(server: McpServer, deps: TaskToolDeps): void {
  defineSessionTool(
    server,
    deps,
    "propose_entities",
    {
      access: "operator",
      description:
        "Record what a command of this task showed you inside a guest or host — services, docker containers, " +
        "compose stacks, volumes, ports — as entities of the graph, so blast radius and knowledge reach inside it. " +
        "Name the execution whose output shows them and, per entity, a line of that output as evidence. " +
        "`inside` links it to what it runs in (runs-on / part-of, chosen by type). They are written at once, " +
        "marked discovered, and are never command targets (commands for them run on what they run inside). " +
        "complete_for says the output listed every entity of a type inside one entity: discovered ones it no " +
        "longer lists are marked stale. A new SSH target (host/lxc/vm with routing) is only asked of the operator.",
      inputSchema: {
        execution_id: z.string().describe("the execution of this task whose output shows them"),
        entities: z
          .array(
            z.object({
              slug: entitySlugSchema.describe(
                "type:name, e.g. container:nextcloud-app-1, volume:nextcloud_data",
              ),
              name: z.string().max(200).optional(),
              inside: entitySlugSchema
                .optional()
                .describe("what it runs inside or is part of, e.g. lxc:cloud"),
              evidence: z.string().min(3).max(500).describe("a line of the execution's output that shows it"),
              attributes: z
                .record(z.string(), z.unknown())
                .optional()
                .describe("facts: image, version, port…"),
              routing: z
                .record(z.string().min(1).max(100), z.union([z.string().max(512), z.number(), z.null()]))
                .optional()
                .describe("only for a new host/lxc/vm: how to reach it; the operator is asked"),
            }),
          )
          .min(1)
          .max(MAX_ENTITIES),
        relationships: z
          .array(z.object({ source: z.string(), type: z.string(), target: z.string() }))
          .max(100)
          .optional()
          .describe("further edges among them, e.g. (container:x, mounts, volume:y)"),
        complete_for: z
          .object({ inside: entitySlugSchema, type: z.string() })
          .optional()
          .describe("the output lists every entity of this type inside this entity"),
      },
      outputSchema: proposeOutput,
    },
    async (args, sessionId, { write }) => {
      const execution = await getExecution(deps.db, args.execution_id);
      if (!execution || execution.session_id !== sessionId) {
        return refused(
          refusal(
            "unknown_execution",
            `There is no execution ${args.execution_id} in this session.`,
            "Name the execution_id run returned for the command whose output shows them.",
          ),
        );
      }
      if (execution.stdout === null && execution.stderr === null) {
        return refused(
          refusal(
            "no_discovery_evidence",
            `Execution ${execution.id} is ${execution.status} and has no output yet.`,
            "Wait for it (get_execution_status with wait) and name it again once it finished.",
          ),
        );
      }
      const proposals = args.entities as ProposedEntity[];
      const slugs = proposals.flatMap((p) => [p.slug, ...(p.inside ? [p.inside] : [])]);
      const [types, facts] = await Promise.all([listEntityTypes(deps.db), discoveryFacts(deps.db, slugs)]);
      const batch = new Map(
        proposals.map((p) => [p.slug, { type: p.slug.split(":")[0] ?? "", inside: p.inside ?? null }]),
      );
      const output = `${execution.stdout ?? ""}\n${execution.stderr ?? ""}`;
      const decisions: EntityDecision[] = proposals.map((p) =>
        decideProposedEntity(
          p,
          {
            types,
            containment: facts.containment,
            existing: facts.existing,
            output,
            executionTarget: execution.target,
            isSecretKey: (key) => SECRET_ATTRIBUTE_KEY.test(key),
          },
          batch,
        ),
      );
      const refusedItems: Refused[] = decisions.flatMap((d) =>
        d.kind === "refused" ? [{ slug: d.slug, code: d.code, reason: d.reason, next_step: d.nextStep }] : [],
      );
      // An entity inside one refused in this call cannot be written either.
      const writes = withoutOrphans(decisions, refusedItems);
      if (writes.length === 0) {
        return refused(
          refusal(
            "nothing_discovered",
            `Nothing written: ${refusedItems.map((r) => `${r.slug}: ${r.reason}`).join("; ")}.`,
            refusedItems[0]?.next_step,
            { refused: refusedItems },
          ),
        );
      }
      const at = now(deps);
      const recorded = await recordDiscovery(
        deps.db,
        {
          sessionId,
          execution: { id: execution.id, command: execution.command },
          entities: writes,
          ...(args.complete_for ? { completeFor: args.complete_for } : {}),
          at,
        },
        write,
      );
      for (const event of recorded.events) await publish(deps, event);
      const edges = [...recorded.edges];
      for (const rel of args.relationships ?? []) {
        const made = await createRelationship(deps.db, rel, write);
        if (made.status === "created") edges.push(`${rel.source} ${rel.type} ${rel.target}`);
        else if (made.status !== "exists")
          refusedItems.push({
            slug: `${rel.source} ${rel.type} ${rel.target}`,
            code: made.status,
            reason:
              made.status === "unknown_entity" ? `${made.slug} is not an entity` : `${rel.type} does not fit`,
            next_step: "create_relationship explains the valid types",
          });
      }
      const result = {
        created: recorded.created,
        refreshed: recorded.refreshed,
        annotated: recorded.annotated,
        edges,
        stale: recorded.stale,
        refused: refusedItems,
      };
      const routed = writes.find((w) => w.routing !== null);
      if (!routed?.routing) return ok({ kind: "entities_proposed", ...result });
      const requested = await requestRoutingChange(deps.db, {
        sessionId,
        slug: routed.slug,
        patch: routed.routing,
        reason: `discovered by ${execution.id} (\`${execution.command}\`): ${routed.evidence}`,
        requestedBy: write.by,
        expiresAt: new Date(at.getTime() + DEFAULT_APPROVAL_TTL_MS),
        now: at,
      });
      if (!requested.ok) {
        result.refused.push({
          slug: routed.slug,
          code: "routing_change_invalid",
          reason: `its routing was not asked for: ${requested.reason}`,
          next_step:
            "It is recorded, not runnable. Ask with change_routing once the pending change is decided.",
        });
        return ok({ kind: "entities_proposed", ...result });
      }
      await publish(deps, approvalRequested({ sessionId, approvalId: requested.approvalId }));
      return ok({
        kind: "approval_requested",
        ...result,
        approval_id: requested.approvalId,
        slug: routed.slug,
        status: "pending_approval",
        was: describeRouting(requested.before),
        new: describeRouting(requested.after),
        message:
          `${routed.slug} is recorded but not runnable: the operator is asked to approve how to reach it on its card. ` +
          "END YOUR TURN NOW and tell them what you found; you are resumed with their decision." +
          (writes.filter((w) => w.routing !== null).length > 1
            ? " Routing for the other new targets is not asked yet: ask again after this one is decided."
            : ""),
      });
    },
  );
}

type Write = Extract<EntityDecision, { kind: "write" }>;
interface Refused {
  slug: string;
  code: string;
  reason: string;
  next_step: string;
}

function withoutOrphans(
  decisions: EntityDecision[],
  refusedItems: { slug: string; code: string; reason: string; next_step: string }[],
): Write[] {
  const refusedSlugs = new Set(refusedItems.map((r) => r.slug));
  let writes = decisions.filter((d): d is Write => d.kind === "write");
  for (let changed = true; changed; ) {
    changed = false;
    for (const w of writes) {
      if (w.inside && refusedSlugs.has(w.inside)) {
        refusedSlugs.add(w.slug);
        refusedItems.push({
          slug: w.slug,
          code: "unknown_inside",
          reason: `${w.inside}, which it runs inside, was refused`,
          next_step: "Fix that entity and propose both again.",
        });
        changed = true;
      }
    }
    writes = writes.filter((w) => !refusedSlugs.has(w.slug));
  }
  return writes;
}
