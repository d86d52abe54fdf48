import type { EntityTypeSpec } from "../policy/entity-types.ts";
import type { Executor } from "./audit.ts";

export type { EntityTypeSpec } from "../policy/entity-types.ts";

/** The entity types every entity write is validated against (migrations/0360), by name. */
export async function listEntityTypes(db: Executor): Promise<EntityTypeSpec[]> {
  const rows = await db.selectFrom("entity_types").selectAll().orderBy("name").execute();
  return rows.map((row) => ({
    name: row.name,
    description: row.description,
    runnable: row.runnable,
    proposable: row.proposable,
  }));
}
