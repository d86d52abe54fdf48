import type { Executor } from "./audit.ts";

/** What runs inside or is part of an entity: these edges point from the inner entity to the outer one. */
const INNER_TO_OUTER = ["runs-on", "part-of"];
/** And these from the outer entity to the inner one. */
const OUTER_TO_INNER = ["hosts"];

export interface NeighbourNode {
  slug: string;
  type: string;
  state: string;
  /** Set on a discovered entity that was not seen when its parent was last looked at. */
  stale: boolean;
  depth: number;
  children: NeighbourNode[];
}

export interface Neighbourhood {
  /** The owning entities, nearest first (parent, its parent …). */
  ancestors: string[];
  /** What runs on it or is part of it, as a tree. */
  children: NeighbourNode[];
  truncated: boolean;
}

/**
 * An entity's neighbourhood for a compact tree: its parents up the ownership chain, and what runs
 * on it or is part of it (by parent or by a `runs-on` / `part-of` / `hosts` edge), `maxDepth` deep,
 * at most `maxNodes` in all. Task entities are not part of it (they are listed as tasks).
 */
export async function entityNeighbourhood(
  db: Executor,
  slug: string,
  bounds: { maxDepth: number; maxNodes: number } = { maxDepth: 3, maxNodes: 40 },
): Promise<Neighbourhood> {
  const ancestors: string[] = [];
  let current: string | null = slug;
  while (current && ancestors.length < 5) {
    const row: { parent_slug: string | null } | undefined = await db
      .selectFrom("entities")
      .select("parent_slug")
      .where("slug", "=", current)
      .executeTakeFirst();
    current = row?.parent_slug ?? null;
    if (!current || current === slug || ancestors.includes(current)) break;
    ancestors.push(current);
  }
  const seen = new Set([slug, ...ancestors]);
  let count = 0;
  let truncated = false;
  const expand = async (parents: NeighbourNode[], depth: number): Promise<void> => {
    if (parents.length === 0) return;
    const slugs = parents.map((p) => p.slug);
    const [byParent, inward, outward] = await Promise.all([
      db
        .selectFrom("entities")
        .select(["slug", "parent_slug as outer"])
        .where("parent_slug", "in", slugs)
        .execute(),
      db
        .selectFrom("relationships")
        .select(["source_slug as slug", "target_slug as outer"])
        .where("target_slug", "in", slugs)
        .where("type", "in", INNER_TO_OUTER)
        .execute(),
      db
        .selectFrom("relationships")
        .select(["target_slug as slug", "source_slug as outer"])
        .where("source_slug", "in", slugs)
        .where("type", "in", OUTER_TO_INNER)
        .execute(),
    ]);
    const links = [...byParent, ...inward, ...outward].sort((a, b) => a.slug.localeCompare(b.slug));
    const wanted = [...new Set(links.map((l) => l.slug))].filter((s) => !seen.has(s));
    if (wanted.length === 0) return;
    const rows = await db
      .selectFrom("entities")
      .select(["slug", "type", "state", "stale_since"])
      .where("slug", "in", wanted)
      .where("type", "!=", "task")
      .execute();
    const bySlug = new Map(rows.map((row) => [row.slug, row]));
    const next: NeighbourNode[] = [];
    for (const link of links) {
      const row = bySlug.get(link.slug);
      if (!row || seen.has(row.slug)) continue;
      if (count >= bounds.maxNodes) {
        truncated = true;
        break;
      }
      seen.add(row.slug);
      count++;
      const node: NeighbourNode = {
        slug: row.slug,
        type: row.type,
        state: row.state,
        stale: row.stale_since !== null,
        depth,
        children: [],
      };
      parents.find((p) => p.slug === link.outer)?.children.push(node);
      next.push(node);
    }
    if (depth < bounds.maxDepth && !truncated) await expand(next, depth + 1);
    else if (next.length > 0 && depth >= bounds.maxDepth) truncated = truncated || (await hasMore(db, next));
  };
  const root: NeighbourNode = { slug, type: "", state: "", stale: false, depth: 0, children: [] };
  await expand([root], 1);
  return { ancestors, children: root.children, truncated };
}

async function hasMore(db: Executor, nodes: NeighbourNode[]): Promise<boolean> {
  const slugs = nodes.map((n) => n.slug);
  const row = await db
    .selectFrom("entities")
    .select("slug")
    .where("parent_slug", "in", slugs)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
