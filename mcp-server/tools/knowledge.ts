import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { closeMatches } from "../../policy/close-matches.ts";
import { refusal } from "../../policy/refusals.ts";
import { findEntity, listEntitySlugs } from "../../store/entities.ts";
import {
  entityKnowledge,
  getKnowledge,
  KNOWLEDGE_KINDS,
  type KnowledgeSummary,
  listKnowledgeSlugs,
  RANKED_CANDIDATES,
  searchKnowledge,
  upsertKnowledge,
} from "../../store/knowledge.ts";
import { defineTool } from "../define-tool.ts";
import { nextCursor, pageFrom, pageInput } from "../pagination.ts";
import { unknownSlugMessage } from "../suggest.ts";
import { now } from "../tool-deps.ts";
import { ok, refused } from "../tool-result.ts";
import { entityHints } from "./entity-hints.ts";
import { unknownEntity } from "./entity-view.ts";
import { publish, type TaskToolDeps } from "./task-deps.ts";

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

/** Knowledge tools: find what was learned before, read it, and write back what was learned now. */
export function registerKnowledgeTools(server: McpServer, deps: TaskToolDeps): void {
  defineTool(
    server,
    deps,
    "search_knowledge",
    {
      description:
        'Full-text search over runbooks, investigations and documents (title and content; words, "phrases", ' +
        "-exclusions). Optional kind and about (entity slug) filters. Returns excerpts; read one with get_knowledge_content.",
      inputSchema: {
        query: z.string().min(1),
        kind: z.enum(KNOWLEDGE_KINDS).optional(),
        about: z.string().optional().describe("only entries linked to this entity slug"),
        include_superseded: z
          .boolean()
          .optional()
          .describe("also entries a newer one replaced (default false)"),
        ...pageInput,
      },
      annotations: READ_ONLY,
      access: "records",
    },
    async (args) => {
      if (args.about && !(await findEntity(deps.db, args.about))) return unknownEntity(deps, args.about);
      const page = pageFrom(args, 20);
      const { entries, hasMore, broad } = await searchKnowledge(
        deps.db,
        { query: args.query, kind: args.kind, about: args.about, includeSuperseded: args.include_superseded },
        page,
      );
      return ok({
        entries: entries.map(summaryRow),
        entity_hints: await entityHints(
          deps.db,
          entries.flatMap((e) => e.about),
          now(deps),
        ),
        next_cursor: nextCursor(page, hasMore),
        ...(broad
          ? {
              note:
                `More than ${RANKED_CANDIDATES} entries match; only ${RANKED_CANDIDATES} of them were ranked. ` +
                "Add words, a kind or about (an entity slug) to narrow the search instead of paging.",
            }
          : {}),
      });
    },
  );

  defineTool(
    server,
    deps,
    "get_entity_knowledge",
    {
      description:
        "Knowledge linked to an entity, runbooks first (follow a runbook when one fits), then investigations " +
        "and documents, newest first (entries a newer one replaced are left out), and when oikos last audited " +
        "it (last_touched): do not repeat a same-day audit. Call this before working on an entity.",
      inputSchema: {
        slug: z.string().describe("entity slug"),
        include_superseded: z
          .boolean()
          .optional()
          .describe("also entries a newer one replaced (default false)"),
        ...pageInput,
      },
      annotations: READ_ONLY,
      access: "records",
    },
    async (args) => {
      if (!(await findEntity(deps.db, args.slug))) return unknownEntity(deps, args.slug);
      const page = pageFrom(args, 20);
      const { entries, hasMore } = await entityKnowledge(deps.db, args.slug, page, {
        includeSuperseded: args.include_superseded,
      });
      return ok({
        slug: args.slug,
        last_touched: (await entityHints(deps.db, [args.slug], now(deps)))[args.slug],
        entries: entries.map(summaryRow),
        next_cursor: nextCursor(page, hasMore),
      });
    },
  );

  defineTool(
    server,
    deps,
    "get_knowledge_content",
    {
      description: "The full markdown content of one knowledge entry, by its slug.",
      inputSchema: {
        slug: z.string().describe("knowledge slug from search_knowledge or get_entity_knowledge"),
      },
      annotations: READ_ONLY,
      access: "records",
    },
    async ({ slug }) => {
      const entry = await getKnowledge(deps.db, slug);
      if (!entry) {
        return refused(
          refusal(
            "unknown_knowledge",
            unknownSlugMessage("knowledge entry", slug, await listKnowledgeSlugs(deps.db)),
          ),
        );
      }
      return ok({
        ...summaryRow(entry),
        content: entry.content,
        created_at: entry.createdAt.toISOString(),
        created_by: entry.createdBy,
      });
    },
  );

  defineTool(
    server,
    deps,
    "upsert_knowledge",
    {
      access: "operator",
      description:
        "Write back what you learned: a runbook (repeatable procedure), investigation (what was wrong and how it " +
        "was found/fixed) or document. The slug comes from the title, so the same title updates the entry in " +
        "place (content replaced, about links added). about lists the entity slugs it concerns; all must exist.",
      inputSchema: {
        title: z.string().min(3).max(200),
        content: z.string().min(1).describe("markdown"),
        kind: z.enum(KNOWLEDGE_KINDS),
        about: z.array(z.string()).max(50).describe('entity slugs this is about, e.g. ["lxc:gitea"]'),
        tags: z.array(z.string().min(1).max(50)).max(20),
      },
    },
    async (args, { write }) => {
      const result = await upsertKnowledge(deps.db, args, write);
      if (result.status === "unknown_entities") {
        const known = await listEntitySlugs(deps.db);
        const hints = result.slugs.map((slug) => {
          const close = closeMatches(slug, known, 3);
          return close.length > 0 ? `${slug} (did you mean ${close.join(", ")}?)` : slug;
        });
        return refused(
          refusal(
            "unknown_about_entities",
            `Nothing written: unknown entities in about: ${hints.join("; ")}.`,
          ),
        );
      }
      const { events, ...written } = result;
      for (const event of events) await publish(deps, event);
      return ok(written);
    },
  );
}

function summaryRow(entry: KnowledgeSummary): Record<string, unknown> {
  return {
    slug: entry.slug,
    title: entry.title,
    kind: entry.kind,
    tags: entry.tags,
    about: entry.about,
    ...(entry.supersededBy ? { superseded_by: entry.supersededBy } : {}),
    updated_at: entry.updatedAt.toISOString(),
    excerpt: entry.excerpt,
  };
}
