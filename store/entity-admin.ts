import type { Kysely } from "kysely";
import { recordAudit, type WriteContext } from "./audit.ts";
import { findEntity } from "./entities.ts";
import type { Database } from "./schema.ts";
import type { EntityState } from "./statuses.ts";

/**
 * The operator's edits of the graph from chat: a state change (retire = destroyed) and the
 * deletion of a retired entity. Each is one conditional write with its audit row.
 */
export type SetStateResult =
  | { status: "changed"; from: EntityState; to: EntityState }
  | { status: "unchanged"; state: EntityState }
  | { status: "unknown" };

export async function setEntityState(
  db: Kysely<Database>,
  slug: string,
  to: EntityState,
  context: WriteContext,
): Promise<SetStateResult> {
  return db.transaction().execute(async (tx) => {
    const entity = await findEntity(tx, slug);
    if (!entity) return { status: "unknown" };
    if (entity.state === to) return { status: "unchanged", state: to };
    await tx
      .updateTable("entities")
      .set({ state: to, updated_at: new Date() })
      .where("slug", "=", slug)
      .execute();
    await recordAudit(tx, context, {
      action: "entity.set_state",
      subject: slug,
      details: { from: entity.state, to },
    });
    return { status: "changed", from: entity.state, to };
  });
}

export type DeleteEntityResult =
  | { status: "deleted"; relationships: number; knowledgeLinks: number }
  | { status: "not_retired"; state: EntityState }
  | { status: "has_children"; children: string[] }
  | { status: "unknown" };

/**
 * Deletes an entity that is already retired (state destroyed): its relationships and knowledge
 * links go with it, so the audit row keeps the whole entity. Children must be moved or deleted first.
 */
export async function deleteRetiredEntity(
  db: Kysely<Database>,
  slug: string,
  context: WriteContext,
): Promise<DeleteEntityResult> {
  return db.transaction().execute(async (tx) => {
    const entity = await findEntity(tx, slug);
    if (!entity) return { status: "unknown" };
    if (entity.state !== "destroyed") return { status: "not_retired", state: entity.state };
    const children = await tx.selectFrom("entities").select("slug").where("parent_slug", "=", slug).execute();
    if (children.length > 0) return { status: "has_children", children: children.map((c) => c.slug) };
    const relationships = await tx
      .selectFrom("relationships")
      .select(["source_slug", "type", "target_slug"])
      .where((eb) => eb.or([eb("source_slug", "=", slug), eb("target_slug", "=", slug)]))
      .execute();
    const links = await tx
      .selectFrom("knowledge_about")
      .innerJoin("knowledge", "knowledge.id", "knowledge_about.knowledge_id")
      .select("knowledge.slug")
      .where("knowledge_about.entity_slug", "=", slug)
      .execute();
    await tx.deleteFrom("entities").where("slug", "=", slug).execute();
    await recordAudit(tx, context, {
      action: "entity.delete",
      subject: slug,
      details: {
        entity: {
          type: entity.type,
          name: entity.name,
          transport: entity.transport,
          parent: entity.parent_slug,
          attributes: entity.attributes,
        },
        relationships: relationships.map((r) => `${r.source_slug} ${r.type} ${r.target_slug}`),
        knowledge: links.map((l) => l.slug),
      },
    });
    return { status: "deleted", relationships: relationships.length, knowledgeLinks: links.length };
  });
}
