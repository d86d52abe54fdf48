import type { Kysely } from "kysely";
import { z } from "zod";
import type { Database } from "../../store/schema.ts";
import { entitiesTouchedBy, taskSlug } from "../../store/task-graph.ts";

/**
 * `expect.graph`: what the tasks left on the knowledge graph (issue #33) — each thread's task entity
 * and the entities it touched (its `involves` edges), what the agent discovered (marked, with
 * evidence, inside what, stale or not, never runnable), and the runbooks offered to a thread.
 */
export const graphSpec = z
  .object({
    tasks: z
      .array(
        z.object({
          thread: z.string().default("main"),
          /** Exactly these entities, each by one `involves` edge. */
          involves: z.array(z.string()),
        }),
      )
      .default([]),
    discovered: z
      .array(
        z.object({
          slug: z.string(),
          inside: z.string().optional(),
          stale: z.boolean().optional(),
          /** Text the stored evidence of one of its sightings contains. */
          evidence: z.string().optional(),
        }),
      )
      .default([]),
    edges: z.array(z.object({ source: z.string(), type: z.string(), target: z.string() })).default([]),
    runbooks_offered: z.array(z.object({ thread: z.string(), slug: z.string() })).default([]),
  })
  .strict();
export type GraphSpec = z.infer<typeof graphSpec>;

export async function checkGraph(
  db: Kysely<Database>,
  spec: GraphSpec | undefined,
  sessionOf: (thread: string) => Promise<string | undefined>,
  failures: string[],
): Promise<void> {
  if (!spec) return;
  for (const task of spec.tasks) {
    const id = await sessionOf(task.thread);
    if (!id) {
      failures.push(`graph: no session for thread ${task.thread}`);
      continue;
    }
    const entity = await db
      .selectFrom("entities")
      .select("type")
      .where("slug", "=", taskSlug(id))
      .executeTakeFirst();
    if (entity?.type !== "task")
      failures.push(`graph: thread ${task.thread} has no task entity ${taskSlug(id)}`);
    const touched = await entitiesTouchedBy(db, id);
    const wanted = [...task.involves].sort();
    if (JSON.stringify(touched) !== JSON.stringify(wanted))
      failures.push(
        `graph: thread ${task.thread}'s task involves ${JSON.stringify(touched)}, expected ${JSON.stringify(wanted)}`,
      );
  }
  for (const d of spec.discovered) {
    const row = await db
      .selectFrom("entities")
      .select(["transport", "parent_slug", "discovered_at", "stale_since"])
      .where("slug", "=", d.slug)
      .executeTakeFirst();
    if (!row?.discovered_at) {
      failures.push(`graph: ${d.slug} was not discovered`);
      continue;
    }
    if (row.transport !== "none")
      failures.push(`graph: discovered ${d.slug} is reachable (${row.transport})`);
    if (d.inside !== undefined && row.parent_slug !== d.inside)
      failures.push(`graph: ${d.slug} is inside ${row.parent_slug}, expected ${d.inside}`);
    if (d.stale !== undefined && (row.stale_since !== null) !== d.stale)
      failures.push(`graph: ${d.slug} is ${row.stale_since ? "" : "not "}stale`);
    if (d.evidence !== undefined) {
      const sightings = await db
        .selectFrom("entity_sightings")
        .select("evidence")
        .where("entity_slug", "=", d.slug)
        .execute();
      if (!sightings.some((s) => s.evidence.includes(d.evidence!)))
        failures.push(`graph: no sighting of ${d.slug} with evidence "${d.evidence}"`);
    }
  }
  for (const e of spec.edges) {
    const row = await db
      .selectFrom("relationships")
      .select("id")
      .where("source_slug", "=", e.source)
      .where("type", "=", e.type)
      .where("target_slug", "=", e.target)
      .executeTakeFirst();
    if (!row) failures.push(`graph: no edge ${e.source} ${e.type} ${e.target}`);
  }
  for (const r of spec.runbooks_offered) {
    const id = await sessionOf(r.thread);
    const row = id
      ? await db
          .selectFrom("runbook_offers as o")
          .innerJoin("knowledge as k", "k.id", "o.knowledge_id")
          .select("o.session_id")
          .where("o.session_id", "=", id)
          .where("k.slug", "=", r.slug)
          .executeTakeFirst()
      : undefined;
    if (!row) failures.push(`graph: runbook ${r.slug} was not offered to thread ${r.thread}`);
  }
}
