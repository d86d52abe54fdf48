import { sql } from "kysely";
import type { Executor } from "./audit.ts";

export interface HealthSummary {
  entities: { type: string; state: string; count: number }[];
  staleFacts: { count: number; oldest: { slug: string; lastChangedAt: Date }[] };
  openApprovals: number;
  openExecutions: { status: string; count: number }[];
}

/**
 * A one-call overview for the model: what exists, which facts are old (no attribute change and no
 * update for `staleAfterDays`), and what is still open (pending approvals, unfinished executions).
 */
export async function healthSummary(
  db: Executor,
  options: { now: Date; staleAfterDays: number; staleListLimit: number },
): Promise<HealthSummary> {
  const entityCounts = await db
    .selectFrom("entities")
    .select(["type", "state", (eb) => eb.fn.countAll<string>().as("count")])
    .groupBy(["type", "state"])
    .orderBy("type")
    .orderBy("state")
    .execute();
  const cutoff = new Date(options.now.getTime() - options.staleAfterDays * 86_400_000);
  const lastChange = db
    .selectFrom("entities")
    .leftJoin("entity_attribute_changes", "entity_attribute_changes.entity_slug", "entities.slug")
    .select([
      "entities.slug",
      sql<Date>`greatest(entities.updated_at, max(entity_attribute_changes.changed_at))`.as(
        "last_changed_at",
      ),
    ])
    .where("entities.state", "!=", "destroyed")
    // a task entity is a record of work done, not a fact that ages
    .where("entities.type", "!=", "task")
    .groupBy(["entities.slug", "entities.updated_at"])
    .as("last_change");
  const stale = await db
    .selectFrom(lastChange)
    .select(["slug", "last_changed_at"])
    .where("last_changed_at", "<", cutoff)
    .orderBy("last_changed_at")
    .execute();
  const approvals = await db
    .selectFrom("approvals")
    .select((eb) => eb.fn.countAll<string>().as("count"))
    .where("status", "=", "pending")
    .executeTakeFirstOrThrow();
  const executions = await db
    .selectFrom("executions")
    .select(["status", (eb) => eb.fn.countAll<string>().as("count")])
    .where("finished_at", "is", null)
    .groupBy("status")
    .orderBy("status")
    .execute();
  return {
    entities: entityCounts.map((row) => ({ type: row.type, state: row.state, count: Number(row.count) })),
    staleFacts: {
      count: stale.length,
      oldest: stale
        .slice(0, options.staleListLimit)
        .map((row) => ({ slug: row.slug, lastChangedAt: new Date(row.last_changed_at) })),
    },
    openApprovals: Number(approvals.count),
    openExecutions: executions.map((row) => ({ status: row.status, count: Number(row.count) })),
  };
}
