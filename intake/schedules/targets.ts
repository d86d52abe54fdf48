import type { Db } from "../../store/db.ts";
import { liveEntitySlugs } from "../../store/entities.ts";

/**
 * The entity slugs a schedule's target selector names: each item is a slug glob (`*` any run of
 * characters, `?` one character; `lxc:*`, `host:pve?`, `*:backup-*`). Destroyed entities never
 * match. Sorted, without repeats.
 */
export async function resolveTargets(db: Db, selector: readonly string[]): Promise<string[]> {
  const slugs = await liveEntitySlugs(db);
  const patterns = selector.map(globToRegExp);
  return slugs.filter((slug) => patterns.some((p) => p.test(slug))).sort();
}

export function globToRegExp(glob: string): RegExp {
  const body = [...glob]
    .map((ch) => (ch === "*" ? ".*" : ch === "?" ? "." : ch.replace(/[.+^${}()|[\]\\]/g, "\\$&")))
    .join("");
  return new RegExp(`^${body}$`, "i");
}
