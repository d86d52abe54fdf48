import { type Executor, recordAudit, type WriteContext } from "./audit.ts";
import type { KnowledgeKind } from "./statuses.ts";

/**
 * A new entry supersedes the older current ones of the same kind about exactly the same
 * entities: the newest learning is what search finds; the older stay readable by slug and with
 * `includeSuperseded`. Returns the slugs it superseded.
 */
export async function supersedeSameSubject(
  tx: Executor,
  entry: { id: string; slug: string; kind: KnowledgeKind; about: readonly string[] },
  context: WriteContext,
  now = new Date(),
): Promise<string[]> {
  if (entry.about.length === 0) return [];
  const wanted = [...entry.about].sort().join("\u0000");
  const candidates = await tx
    .selectFrom("knowledge")
    .innerJoin("knowledge_about", "knowledge_about.knowledge_id", "knowledge.id")
    .select(["knowledge.id", "knowledge.slug"])
    .where("knowledge.kind", "=", entry.kind)
    .where("knowledge.superseded_by", "is", null)
    .where("knowledge.id", "!=", entry.id)
    .where("knowledge_about.entity_slug", "in", [...entry.about])
    .groupBy(["knowledge.id", "knowledge.slug"])
    .execute();
  if (candidates.length === 0) return [];
  const links = await tx
    .selectFrom("knowledge_about")
    .select(["knowledge_id", "entity_slug"])
    .where(
      "knowledge_id",
      "in",
      candidates.map((c) => c.id),
    )
    .execute();
  const same = candidates.filter(
    (c) =>
      links
        .filter((l) => l.knowledge_id === c.id)
        .map((l) => l.entity_slug)
        .sort()
        .join("\u0000") === wanted,
  );
  if (same.length === 0) return [];
  await tx
    .updateTable("knowledge")
    .set({ superseded_by: entry.slug, updated_at: now })
    .where(
      "id",
      "in",
      same.map((s) => s.id),
    )
    .execute();
  const slugs = same.map((s) => s.slug).sort();
  await recordAudit(tx, context, {
    action: "knowledge.supersede",
    subject: entry.slug,
    details: { superseded: slugs, kind: entry.kind, about: [...entry.about] },
  });
  return slugs;
}

/** For each of `slugs`: the older entries it superseded (newest first), for listings that show only the current one. */
export async function supersededEntries(
  db: Executor,
  slugs: readonly string[],
): Promise<Map<string, string[]>> {
  const older = new Map<string, string[]>();
  if (slugs.length === 0) return older;
  const rows = await db
    .selectFrom("knowledge")
    .select(["slug", "superseded_by"])
    .where("superseded_by", "in", [...slugs])
    .orderBy("id", "desc")
    .execute();
  for (const row of rows) {
    if (row.superseded_by === null) continue;
    older.set(row.superseded_by, [...(older.get(row.superseded_by) ?? []), row.slug]);
  }
  return older;
}
