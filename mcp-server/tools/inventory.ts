import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { refusal } from "../../policy/refusals.ts";
import { routingAttributesIn } from "../../policy/routing.ts";
import {
  attributeChangedAt,
  ENTITY_STATES,
  entitySlugSchema,
  findEntity,
  listEntities,
  SECRET_ATTRIBUTE_KEY,
  updateEntityAttributes,
} from "../../store/entities.ts";
import { entityNeighbourhood, type NeighbourNode } from "../../store/entity-neighbourhood.ts";
import { healthSummary } from "../../store/health-summary.ts";
import { entityKnowledge } from "../../store/knowledge.ts";
import { getRelations } from "../../store/relationships.ts";
import { sessionIdentity } from "../../store/sessions.ts";
import { grantsInPlay } from "../../store/standing-grants.ts";
import { entitiesTouchedBy, taskSlug, tasksThatTouched } from "../../store/task-graph.ts";
import { defineTool } from "../define-tool.ts";
import { nextCursor, pageFrom, pageInput } from "../pagination.ts";
import { now } from "../tool-deps.ts";
import { ok, refused } from "../tool-result.ts";
import { registerDiscoveryTools } from "./discovery.ts";
import { ageInDays, discoveryOf, entityRow, unknownEntity } from "./entity-view.ts";
import { registerGraphTools } from "./inventory-graph.ts";
import { publish, type TaskToolDeps } from "./task-deps.ts";

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;
const STALE_AFTER_DAYS = 30;
const RECENT_TASKS = 5;

/** Inventory tools: who am I, what exists, how it is connected, and attribute writeback. */
export function registerInventoryTools(server: McpServer, deps: TaskToolDeps): void {
  defineTool(
    server,
    deps,
    "whoami",
    {
      description:
        "Who this MCP connection acts as (its principal and role) and which oikos session (goal, status) the calls belong to.",
      inputSchema: {},
      annotations: READ_ONLY,
      access: "records",
    },
    async (_args, { sessionId }) => {
      const session = sessionId ? await sessionIdentity(deps.db, sessionId) : undefined;
      return ok({
        server: "oikos",
        principal: deps.principal,
        session: session ?? (sessionId ? { id: sessionId, known: false } : null),
        ...(sessionId ? {} : { note: "No oikos session: read tools work, session-bound tools will refuse." }),
      });
    },
  );

  defineTool(
    server,
    deps,
    "get_health_summary",
    {
      description:
        "Overview of the inventory: entity counts by type and state, stale facts (entities whose attributes " +
        "were not updated for N days), open approvals and unfinished executions. Start here for a fleet check.",
      inputSchema: {
        stale_after_days: z
          .number()
          .int()
          .min(1)
          .max(3650)
          .optional()
          .describe(`default ${STALE_AFTER_DAYS}`),
      },
      annotations: READ_ONLY,
      access: "records",
    },
    async ({ stale_after_days }) => {
      const at = now(deps);
      const summary = await healthSummary(deps.db, {
        now: at,
        staleAfterDays: stale_after_days ?? STALE_AFTER_DAYS,
        staleListLimit: 20,
      });
      return ok({
        entities: summary.entities,
        stale_facts: {
          after_days: stale_after_days ?? STALE_AFTER_DAYS,
          count: summary.staleFacts.count,
          oldest: summary.staleFacts.oldest.map((s) => ({
            slug: s.slug,
            age_days: ageInDays(s.lastChangedAt, at),
          })),
        },
        open_approvals: summary.openApprovals,
        open_executions: summary.openExecutions,
      });
    },
  );

  defineTool(
    server,
    deps,
    "list_entities",
    {
      description:
        "List inventory entities (hosts, lxc, vm, services, groups…) by slug. Filters: type, state, query " +
        "(substring of slug or name). Destroyed entities are hidden unless include_destroyed or state=destroyed.",
      inputSchema: {
        type: z.string().optional().describe("entity type, e.g. host, lxc, vm, service, group"),
        state: z.enum(ENTITY_STATES).optional(),
        query: z.string().optional().describe("substring of slug or name"),
        include_destroyed: z.boolean().optional(),
        ...pageInput,
      },
      annotations: READ_ONLY,
      access: "records",
    },
    async (args) => {
      const page = pageFrom(args);
      const { entities, hasMore } = await listEntities(
        deps.db,
        { type: args.type, state: args.state, query: args.query, includeDestroyed: args.include_destroyed },
        page,
      );
      return ok({ entities: entities.map(entityRow), next_cursor: nextCursor(page, hasMore) });
    },
  );

  defineTool(
    server,
    deps,
    "get_entity",
    {
      description:
        "One entity with its attributes, the age in days of each attribute (old facts may be wrong: verify " +
        "before relying on them), relation counts, linked knowledge titles, and the last tasks that touched it " +
        "(goal, how they ended, the knowledge they wrote), its owners and what runs inside it (containers, " +
        "services, volumes the agent discovered): start an incident from what earlier tasks found. " +
        "`standing_grants`: commands an operator granted (♾️) on it in this room, live until `until`: " +
        "each runs with `run` directly, without a plan, exactly as written.",
      inputSchema: { slug: z.string().describe("entity slug, e.g. lxc:gitea") },
      annotations: READ_ONLY,
      access: "records",
    },
    async ({ slug }, { sessionId }) => {
      const entity = await findEntity(deps.db, slug);
      if (!entity) return unknownEntity(deps, slug);
      const at = now(deps);
      // Only a session's own room's grants, and only for the agent (an outside client has no room).
      const grants = sessionId ? await grantsInPlay(deps.db, sessionId, [slug], at) : [];
      const changedAt = await attributeChangedAt(deps.db, slug);
      const outgoing = await getRelations(deps.db, slug, { direction: "out" }, { offset: 0, limit: 200 });
      const incoming = await getRelations(deps.db, slug, { direction: "in" }, { offset: 0, limit: 200 });
      const knowledge = await entityKnowledge(deps.db, slug, { offset: 0, limit: 10 });
      const tasks = entity.type === "task" ? [] : await tasksThatTouched(deps.db, slug, RECENT_TASKS);
      const touched =
        entity.type === "task" && typeof entity.attributes.session === "string"
          ? await entitiesTouchedBy(deps.db, entity.attributes.session)
          : null;
      const hood = await entityNeighbourhood(deps.db, slug, { maxDepth: 3, maxNodes: 40 });
      return ok({
        ...entityRow(entity),
        attributes: entity.attributes,
        attribute_age_days: Object.fromEntries(
          Object.keys(entity.attributes).map((key) => [
            key,
            ageInDays(changedAt[key] ?? entity.updated_at, at),
          ]),
        ),
        relations: { outgoing: outgoing.relations.length, incoming: incoming.relations.length },
        knowledge: knowledge.entries.map((k) => ({ slug: k.slug, kind: k.kind, title: k.title })),
        ...discoveryOf(entity),
        ...(hood.ancestors.length > 0 ? { owners: hood.ancestors } : {}),
        ...(hood.children.length > 0
          ? {
              inside_it: flattenTree(hood.children),
              ...(hood.truncated ? { inside_it_truncated: true } : {}),
            }
          : {}),
        ...(touched ? { touched } : {}),
        ...(grants.length > 0
          ? {
              standing_grants: grants.map((g) => ({
                grant: g.id,
                command: g.command,
                until: g.expires_at.toISOString(),
              })),
            }
          : {}),
        recent_tasks: tasks.map((t) => ({
          task: taskSlug(t.sessionId),
          goal: t.goal,
          status: t.status,
          outcome: t.outcome,
          ...(t.summary ? { summary: t.summary } : {}),
          last_touched_at: t.lastTouchedAt.toISOString(),
          touches: t.touches,
          knowledge: t.knowledge.map((k) => k.slug),
        })),
      });
    },
  );

  defineTool(
    server,
    deps,
    "update_entity_attributes",
    {
      access: "operator",
      description:
        "Write back facts you verified about an entity (versions, ports, paths, vmid…). Shallow merge into its " +
        "attributes; a null value removes a key. Each changed key is recorded with who and when. Never store secrets.",
      inputSchema: {
        slug: entitySlugSchema.describe("entity slug, e.g. lxc:gitea"),
        attributes: z.record(z.string(), z.unknown()).describe("keys to set (null deletes a key)"),
      },
    },
    async ({ slug, attributes }, { write }) => {
      const secretKeys = Object.keys(attributes).filter((key) => SECRET_ATTRIBUTE_KEY.test(key));
      if (secretKeys.length > 0) {
        return refused(
          refusal(
            "secret_attributes",
            `Refused: ${secretKeys.join(", ")} look like secrets, and the knowledge graph is model context.`,
          ),
        );
      }
      const routing = routingAttributesIn(Object.keys(attributes));
      if (routing.length > 0) {
        return refused(
          refusal(
            "routing_owned_by_operator",
            `${routing.join(", ")} decide where commands run on ${slug}, so only the operator changes them.`,
            undefined,
            { keys: routing },
          ),
        );
      }
      if (Object.keys(attributes).length === 0) {
        return refused(refusal("empty_attributes", "attributes is empty."));
      }
      const result = await updateEntityAttributes(deps.db, slug, attributes, write);
      if (!result) return unknownEntity(deps, slug);
      for (const event of result.events) await publish(deps, event);
      return ok({ slug, changed: result.changed, attributes: result.attributes });
    },
  );

  registerGraphTools(server, deps);
  registerDiscoveryTools(server, deps);
}

/** What runs on an entity or is part of it, as `{slug, type, in}` rows (`in`: what it sits in). */
function flattenTree(nodes: NeighbourNode[], parent?: string): Record<string, unknown>[] {
  return nodes.flatMap((node) => [
    {
      slug: node.slug,
      type: node.type,
      ...(parent ? { in: parent } : {}),
      ...(node.stale ? { stale: true } : {}),
    },
    ...flattenTree(node.children, node.slug),
  ]);
}
