import { refusal } from "../../policy/refusals.ts";
import { type Entity, listEntitySlugs } from "../../store/entities.ts";
import { unknownSlugMessage } from "../suggest.ts";
import type { ToolDeps } from "../tool-deps.ts";
import { refused, type ToolResult } from "../tool-result.ts";

/** The compact shape of an entity in listings (attributes only in get_entity). */
export function entityRow(entity: Entity): Record<string, unknown> {
  return {
    slug: entity.slug,
    type: entity.type,
    name: entity.name,
    state: entity.state,
    transport: entity.transport,
    ...(entity.parent_slug ? { parent: entity.parent_slug } : {}),
    ...(entity.discovered_at ? { discovered: true } : {}),
    ...(entity.stale_since ? { stale: true } : {}),
  };
}

export async function unknownEntity(deps: ToolDeps, slug: string): Promise<ToolResult> {
  return refused(
    refusal("unknown_entity", unknownSlugMessage("entity", slug, await listEntitySlugs(deps.db))),
  );
}

export function ageInDays(since: Date, now: Date): number {
  return Math.max(0, Math.floor((now.getTime() - since.getTime()) / 86_400_000));
}

/** When the agent discovered an entity, when it was last seen, and since when it is stale (not seen). */
export function discoveryOf(entity: Entity): Record<string, unknown> {
  if (!entity.discovered_at) return {};
  return {
    discovered: {
      at: entity.discovered_at.toISOString(),
      last_seen_at: entity.last_seen_at?.toISOString() ?? null,
      ...(entity.stale_since ? { stale_since: entity.stale_since.toISOString() } : {}),
    },
  };
}
