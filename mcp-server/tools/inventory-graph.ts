import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { closeMatches } from "../../policy/close-matches.ts";
import { refusal } from "../../policy/refusals.ts";
import { findEntity } from "../../store/entities.ts";
import {
  blastRadius,
  createRelationship,
  getRelations,
  listRelationshipTypes,
  type RelationshipType,
} from "../../store/relationships.ts";
import { defineTool } from "../define-tool.ts";
import { nextCursor, pageFrom, pageInput } from "../pagination.ts";
import { ok, refused } from "../tool-result.ts";
import { unknownEntity } from "./entity-view.ts";
import { publish, type TaskToolDeps } from "./task-deps.ts";

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;
const BLAST_MAX_DEPTH = 6;
const BLAST_MAX_NODES = 200;

/** Relationship tools: read edges, walk dependents, add validated edges. */
export function registerGraphTools(server: McpServer, deps: TaskToolDeps): void {
  defineTool(
    server,
    deps,
    "get_relations",
    {
      description:
        "Relationships of an entity as {source, type, target} edges. direction: out (entity is source), " +
        "in (entity is target) or both (default). Optional type filter, e.g. runs-on, hosts, depends-on.",
      inputSchema: {
        slug: z.string().describe("entity slug"),
        direction: z.enum(["out", "in", "both"]).optional(),
        type: z.string().optional().describe("relationship type"),
        ...pageInput,
      },
      annotations: READ_ONLY,
      access: "records",
    },
    async (args) => {
      if (!(await findEntity(deps.db, args.slug))) return unknownEntity(deps, args.slug);
      const page = pageFrom(args, 100);
      const { relations, hasMore } = await getRelations(
        deps.db,
        args.slug,
        { direction: args.direction ?? "both", type: args.type },
        page,
      );
      return ok({ slug: args.slug, relations, next_cursor: nextCursor(page, hasMore) });
    },
  );

  defineTool(
    server,
    deps,
    "get_blast_radius",
    {
      description:
        "What breaks if this entity goes down or is changed: every entity that depends on it, transitively " +
        "(guests of a host, services running on a container, hosts mounting an export…), with the edge that " +
        `links each. Bounded to depth ${BLAST_MAX_DEPTH} and ${BLAST_MAX_NODES} entities. Check it before a restart or upgrade.`,
      inputSchema: { slug: z.string().describe("entity slug") },
      annotations: READ_ONLY,
      access: "records",
    },
    async ({ slug }) => {
      if (!(await findEntity(deps.db, slug))) return unknownEntity(deps, slug);
      const radius = await blastRadius(deps.db, slug, {
        maxDepth: BLAST_MAX_DEPTH,
        maxNodes: BLAST_MAX_NODES,
      });
      return ok({
        slug,
        dependents: radius.dependents.map((d) => ({
          slug: d.slug,
          depth: d.depth,
          via: `${d.via.source} ${d.via.type} ${d.via.target}`,
        })),
        truncated: radius.truncated,
      });
    },
  );

  defineTool(
    server,
    deps,
    "create_relationship",
    {
      access: "operator",
      description:
        "Record a typed edge between two entities, e.g. (service:nextcloud, lxc:nextcloud, runs-on). Types and " +
        "the entity types they connect are fixed data; an invalid type is refused with the valid list. Idempotent.",
      inputSchema: {
        source: z.string().describe("source entity slug"),
        target: z.string().describe("target entity slug"),
        type: z.string().describe("relationship type, e.g. runs-on, hosts, depends-on, mounts"),
      },
      annotations: { idempotentHint: true, openWorldHint: false },
    },
    async (args, { write }) => {
      const result = await createRelationship(deps.db, args, write);
      switch (result.status) {
        case "created":
        case "exists":
          for (const event of result.events) await publish(deps, event);
          return ok({ ...args, status: result.status });
        case "unknown_entity":
          return unknownEntity(deps, result.slug);
        case "invalid_type": {
          const close = closeMatches(
            args.type,
            result.validTypes.map((t) => t.name),
            3,
          );
          return refused(
            refusal(
              "unknown_relationship_type",
              `Unknown relationship type "${args.type}".${close.length > 0 ? ` Did you mean ${close.join(", ")}?` : ""}`,
              `Valid types: ${result.validTypes.map(describeType).join("; ")}.`,
            ),
          );
        }
        case "type_not_allowed": {
          const fitting = (await listRelationshipTypes(deps.db)).filter(
            (t) => allows(t.sourceTypes, result.sourceType) && allows(t.targetTypes, result.targetType),
          );
          return refused(
            refusal(
              "relationship_not_allowed",
              `"${args.type}" cannot link a ${result.sourceType} to a ${result.targetType}: ${describeType(result.relationshipType)}. ` +
                `Types that fit ${result.sourceType} -> ${result.targetType}: ${fitting.map((t) => t.name).join(", ") || "none"}.`,
            ),
          );
        }
      }
    },
  );
}

function allows(allowed: string[], type: string): boolean {
  return allowed.length === 0 || allowed.includes(type);
}

function describeType(type: RelationshipType): string {
  const side = (types: string[]) => (types.length === 0 ? "any" : types.join("|"));
  return `${type.name} (${side(type.sourceTypes)} -> ${side(type.targetTypes)})`;
}
