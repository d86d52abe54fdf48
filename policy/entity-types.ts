import { closeMatches } from "./close-matches.ts";

/**
 * One entity type as data (migrations/0360, `entity_types`): whether an entity of it can be a
 * command target (`runnable`: what makes it reachable is routing, the operator's) and whether the
 * agent may propose one from what it observed (`proposable`).
 */
export interface EntityTypeSpec {
  name: string;
  description: string;
  runnable: boolean;
  proposable: boolean;
}

/** Who is writing an entity: an importer or the operator (`write`), or the agent (`propose`). */
export type EntityTypeUse = "write" | "propose";

export type EntityTypeCheck =
  | { ok: true; spec: EntityTypeSpec }
  | {
      ok: false;
      code: "unknown_entity_type" | "type_not_proposable";
      reason: string;
      nextStep: string;
      /** The types that would have been accepted for this use. */
      known: string[];
    };

/**
 * Whether `type` may be written for this use. A refusal names the accepted types (and the closest
 * ones to what was asked) and the next correct step.
 */
export function checkEntityType(
  types: readonly EntityTypeSpec[],
  type: string,
  use: EntityTypeUse,
): EntityTypeCheck {
  const accepted = types.filter((t) => use === "write" || t.proposable).map((t) => t.name);
  const spec = types.find((t) => t.name === type);
  if (!spec) {
    const near = closeMatches(type, accepted, 3);
    return {
      ok: false,
      code: "unknown_entity_type",
      reason: `Unknown entity type "${type}".${near.length > 0 ? ` Did you mean ${near.join(", ")}?` : ""} Known types: ${accepted.join(", ")}.`,
      nextStep:
        use === "propose"
          ? "Use one of the known types (the slug's prefix is its type, e.g. service:nextcloud); if none fits, describe the thing in upsert_knowledge and tell the operator which type is missing."
          : "Use one of the known types, or add the type as data in a migration (entity_types).",
      known: accepted,
    };
  }
  if (use === "propose" && !spec.proposable) {
    return {
      ok: false,
      code: "type_not_proposable",
      reason: `Entities of type "${type}" are not proposed by the agent: ${spec.description}. Types you can propose: ${accepted.join(", ")}.`,
      nextStep:
        "Propose only what you observed inside a guest or host (services, containers, volumes, ports, storage); the operator's inventory (oikos import) and the gates write the rest.",
      known: accepted,
    };
  }
  return { ok: true, spec };
}

/** The type a slug names (`service:nextcloud` → `service`), or null when it has no `type:` prefix. */
export function typeOfSlug(slug: string): string | null {
  const colon = slug.indexOf(":");
  return colon > 0 ? slug.slice(0, colon) : null;
}
