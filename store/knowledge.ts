import { type Kysely, type SqlBool, sql } from "kysely";
import { type Executor, recordAudit, type WriteContext } from "./audit.ts";
import type { DomainEvent } from "./domain-events.ts";
import { supersedeSameSubject } from "./knowledge-supersede.ts";
import type { Database } from "./schema.ts";

import type { KnowledgeKind } from "./statuses.ts";
import { touchEntities } from "./task-graph.ts";

export { KNOWLEDGE_KINDS, type KnowledgeKind } from "./statuses.ts";

/** Same title, same slug: that is what makes upsert_knowledge update in place. */
export function knowledgeSlug(title: string): string {
  return (
    title
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 80)
      .replace(/-+$/, "") || "untitled"
  );
}

export interface KnowledgeInput {
  title: string;
  content: string;
  kind: KnowledgeKind;
  about: string[];
  tags: string[];
  /** An adopted runbook's symptom words (policy/runbook-match.ts): it is offered when a task on its entities says them. */
  symptom?: string[];
}

export type UpsertKnowledgeResult =
  | {
      status: "created" | "updated";
      slug: string;
      about: string[];
      superseded?: string[];
      /** `entity.touched` for the entities a task wrote about for the first time; the caller publishes them. */
      events: DomainEvent[];
    }
  | { status: "unknown_entities"; slugs: string[] };

/**
 * Creates or updates (by slug from title) one knowledge entry. `about` links are added to the existing
 * ones rather than replacing them: a later update from another session should not silently unlink facts.
 * Every about slug must exist; otherwise nothing is written and the unknown slugs come back.
 */
export async function upsertKnowledge(
  db: Kysely<Database>,
  input: KnowledgeInput,
  context: WriteContext,
): Promise<UpsertKnowledgeResult> {
  const slug = knowledgeSlug(input.title);
  const about = [...new Set(input.about)];
  const tags = [...new Set(input.tags)];
  return db.transaction().execute(async (tx) => {
    if (about.length > 0) {
      const known = await tx.selectFrom("entities").select("slug").where("slug", "in", about).execute();
      const knownSet = new Set(known.map((row) => row.slug));
      const unknown = about.filter((s) => !knownSet.has(s));
      if (unknown.length > 0) return { status: "unknown_entities", slugs: unknown };
    }
    const existing = await tx
      .selectFrom("knowledge")
      .select("id")
      .where("slug", "=", slug)
      .executeTakeFirst();
    const values = {
      kind: input.kind,
      title: input.title,
      content: input.content,
      tags: JSON.stringify(tags),
      session_id: context.sessionId ?? null,
      ...(input.symptom ? { symptom: JSON.stringify(input.symptom) } : {}),
    };
    const id = existing
      ? (
          await tx
            .updateTable("knowledge")
            .set({ ...values, updated_at: new Date() })
            .where("id", "=", existing.id)
            .returning("id")
            .executeTakeFirstOrThrow()
        ).id
      : (
          await tx
            .insertInto("knowledge")
            .values({ ...values, slug, created_by: context.by, superseded_by: null })
            .returning("id")
            .executeTakeFirstOrThrow()
        ).id;
    if (about.length > 0) {
      await tx
        .insertInto("knowledge_about")
        .values(about.map((entity) => ({ knowledge_id: id, entity_slug: entity })))
        .onConflict((oc) => oc.columns(["knowledge_id", "entity_slug"]).doNothing())
        .execute();
    }
    const linked = await aboutOf(tx, id);
    const status = existing ? "updated" : "created";
    await recordAudit(tx, context, {
      action: `knowledge.${status === "created" ? "create" : "update"}`,
      subject: slug,
      details: { kind: input.kind, about },
    });
    const superseded =
      status === "created"
        ? await supersedeSameSubject(tx, { id, slug, kind: input.kind, about: linked }, context)
        : [];
    const touched = context.sessionId
      ? await touchEntities(tx, { sessionId: context.sessionId, slugs: about, via: "knowledge" })
      : undefined;
    return {
      status,
      slug,
      about: linked,
      ...(superseded.length > 0 ? { superseded } : {}),
      events: touched?.events ?? [],
    };
  });
}

async function aboutOf(db: Executor, knowledgeId: string): Promise<string[]> {
  const rows = await db
    .selectFrom("knowledge_about")
    .select("entity_slug")
    .where("knowledge_id", "=", knowledgeId)
    .orderBy("entity_slug")
    .execute();
  return rows.map((row) => row.entity_slug);
}

export interface KnowledgeSummary {
  slug: string;
  title: string;
  kind: string;
  tags: string[];
  about: string[];
  supersededBy: string | null;
  updatedAt: Date;
  excerpt: string;
}

const EXCERPT_CHARS = 240;

interface SummaryRow {
  id: string;
  slug: string;
  title: string;
  kind: string;
  tags: string[];
  superseded_by: string | null;
  updated_at: Date;
  content: string;
}

async function summarize(db: Executor, rows: SummaryRow[]): Promise<KnowledgeSummary[]> {
  const ids = rows.map((row) => row.id);
  const links =
    ids.length === 0
      ? []
      : await db
          .selectFrom("knowledge_about")
          .select(["knowledge_id", "entity_slug"])
          .where("knowledge_id", "in", ids)
          .orderBy("entity_slug")
          .execute();
  return rows.map((row) =>
    summaryOf(
      row,
      links.filter((link) => link.knowledge_id === row.id).map((link) => link.entity_slug),
    ),
  );
}

function summaryOf(row: SummaryRow, about: string[]): KnowledgeSummary {
  return {
    slug: row.slug,
    title: row.title,
    kind: row.kind,
    tags: row.tags,
    about,
    supersededBy: row.superseded_by,
    updatedAt: row.updated_at,
    excerpt: row.content.length > EXCERPT_CHARS ? `${row.content.slice(0, EXCERPT_CHARS)}…` : row.content,
  };
}

const SUMMARY_COLUMNS = [
  "knowledge.id",
  "knowledge.slug",
  "knowledge.title",
  "knowledge.kind",
  "knowledge.tags",
  "knowledge.superseded_by",
  "knowledge.updated_at",
  "knowledge.content",
] as const;

/**
 * Entries one search ranks at most. A common word matches thousands of documents, and reading each
 * one's row to rank it was what made search slow on a big graph (the rank itself is cheap): the
 * newest RANKED_CANDIDATES matches are ranked (the planner walks the primary key backwards and stops
 * there, or, for a selective query, reads its few matches through the text indexes), and `broad`
 * says the query matched more, so the caller can narrow it instead of paging through a sample.
 */
export const RANKED_CANDIDATES = 500;

/**
 * Full-text search (english tsvector, websearch syntax) with a title substring fallback so a query
 * like `gitea` or `host:hubris` also finds titles the stemmer would not match. Best rank first among
 * the newest RANKED_CANDIDATES matches. Superseded entries are left out unless asked for. One query:
 * the page's rows come with their excerpt and their entities.
 */
export async function searchKnowledge(
  db: Executor,
  filter: { query: string; kind?: KnowledgeKind; about?: string; includeSuperseded?: boolean },
  page: { offset: number; limit: number },
): Promise<{ entries: KnowledgeSummary[]; hasMore: boolean; broad: boolean }> {
  const tsquery = sql`websearch_to_tsquery('english', ${filter.query})`;
  const pattern = `%${filter.query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  let matches = db
    .selectFrom("knowledge")
    .select([
      "knowledge.id",
      "knowledge.updated_at",
      sql<number>`ts_rank(knowledge.search, ${tsquery})`.as("rank"),
    ])
    .where((eb) =>
      eb.or([
        // A bare predicate, not `(… @@ …) = true`: the planner only takes an index for the bare form.
        sql<SqlBool>`knowledge.search @@ ${tsquery}`,
        eb("knowledge.title", "ilike", pattern),
      ]),
    );
  if (filter.kind) matches = matches.where("knowledge.kind", "=", filter.kind);
  if (!filter.includeSuperseded) matches = matches.where("knowledge.superseded_by", "is", null);
  if (filter.about) {
    const about = filter.about;
    matches = matches.where((eb) =>
      eb.exists(
        eb
          .selectFrom("knowledge_about")
          .select("knowledge_about.knowledge_id")
          .whereRef("knowledge_about.knowledge_id", "=", "knowledge.id")
          .where("knowledge_about.entity_slug", "=", about),
      ),
    );
  }
  // Newest first, one more than the cap: a full candidate set means the query matched more.
  const candidates = matches.orderBy("knowledge.id", "desc").limit(RANKED_CANDIDATES + 1);
  const rows = await db
    .with("candidates", () => candidates)
    .selectFrom("candidates")
    .innerJoin("knowledge", "knowledge.id", "candidates.id")
    .select(SUMMARY_COLUMNS.filter((column) => column !== "knowledge.content"))
    // the excerpt is all a search shows: never the whole content of twenty entries
    .select(sql<string>`left(knowledge.content, ${EXCERPT_CHARS + 1})`.as("content"))
    .select(
      sql<
        string[]
      >`ARRAY(SELECT a.entity_slug FROM knowledge_about a WHERE a.knowledge_id = knowledge.id ORDER BY a.entity_slug)`.as(
        "about",
      ),
    )
    .select(sql<string>`(SELECT count(*) FROM candidates)`.as("matched"))
    .orderBy("candidates.rank", "desc")
    .orderBy("candidates.updated_at", "desc")
    .orderBy("knowledge.id", "desc")
    .offset(page.offset)
    .limit(page.limit + 1)
    .execute();
  return {
    entries: rows.slice(0, page.limit).map((row) => summaryOf(row, row.about)),
    hasMore: rows.length > page.limit,
    broad: Number(rows[0]?.matched ?? 0) > RANKED_CANDIDATES,
  };
}

/**
 * Knowledge linked to an entity: runbooks first, then investigations, then documents; newest
 * first within. Superseded entries only when asked.
 */
export async function entityKnowledge(
  db: Executor,
  entitySlug: string,
  page: { offset: number; limit: number },
  options: { includeSuperseded?: boolean } = {},
): Promise<{ entries: KnowledgeSummary[]; hasMore: boolean }> {
  let query = db
    .selectFrom("knowledge")
    .innerJoin("knowledge_about", "knowledge_about.knowledge_id", "knowledge.id")
    .select([...SUMMARY_COLUMNS])
    .where("knowledge_about.entity_slug", "=", entitySlug);
  if (!options.includeSuperseded) query = query.where("knowledge.superseded_by", "is", null);
  const rows = await query
    .orderBy(sql`CASE knowledge.kind WHEN 'runbook' THEN 0 WHEN 'investigation' THEN 1 ELSE 2 END`)
    .orderBy("knowledge.updated_at", "desc")
    .offset(page.offset)
    .limit(page.limit + 1)
    .execute();
  return { entries: await summarize(db, rows.slice(0, page.limit)), hasMore: rows.length > page.limit };
}

export interface KnowledgeEntry extends KnowledgeSummary {
  content: string;
  createdAt: Date;
  createdBy: string | null;
}

export async function getKnowledge(db: Executor, slug: string): Promise<KnowledgeEntry | undefined> {
  const row = await db
    .selectFrom("knowledge")
    .select([...SUMMARY_COLUMNS, "knowledge.created_at", "knowledge.created_by"])
    .where("knowledge.slug", "=", slug)
    .executeTakeFirst();
  if (!row) return undefined;
  const [summary] = await summarize(db, [row]);
  return { ...summary!, content: row.content, createdAt: row.created_at, createdBy: row.created_by };
}

export async function listKnowledgeSlugs(db: Executor): Promise<string[]> {
  const rows = await db.selectFrom("knowledge").select("slug").orderBy("slug").execute();
  return rows.map((row) => row.slug);
}

/** The sessions that wrote these knowledge entries (slug → the session's thread). */
export async function sessionsOfKnowledge(db: Executor, slugs: readonly string[]) {
  if (slugs.length === 0) return [];
  return db
    .selectFrom("knowledge")
    .innerJoin("sessions", "sessions.id", "knowledge.session_id")
    .select(["knowledge.slug", "sessions.id", "sessions.platform", "sessions.room", "sessions.thread"])
    .where("knowledge.slug", "in", [...slugs])
    .execute();
}
