import { isRoutingAttribute } from "../policy/routing.ts";
import { type Executor, recordAudit, type WriteContext } from "./audit.ts";
import { findEntity, mergeAttributes } from "./entities.ts";
import type { JsonObject } from "./schema.ts";
import { endGrantsOfTarget } from "./standing-grants.ts";
import { ENTITY_TRANSPORTS, type EntityTransport } from "./statuses.ts";

/** Where an entity's commands go: its transport, owning host and routing attributes (policy/routing.ts). */
export interface RoutingView {
  transport: EntityTransport;
  parent: string | null;
  attributes: JsonObject;
}

/** `key → value` to set, `key → null` to remove; keys are `transport`, `parent` or routing attributes. */
export type RoutingPatch = Record<string, string | number | null>;

export type RoutingChangeResult =
  | { ok: true; slug: string; before: RoutingView; after: RoutingView; changed: boolean }
  | { ok: false; reason: string };

/** What a routing patch would do to an entity, without writing it. */
export type RoutingPreview =
  | { ok: true; before: RoutingView; after: RoutingView; changed: boolean; attributes: JsonObject }
  | { ok: false; reason: string };

export async function previewRouting(
  db: Executor,
  slug: string,
  patch: RoutingPatch,
): Promise<RoutingPreview> {
  const entity = await findEntity(db, slug);
  if (!entity) return { ok: false, reason: `there is no entity ${slug}` };
  const notRouting = Object.keys(patch).filter((key) => !isRoutingAttribute(key));
  if (notRouting.length > 0)
    return {
      ok: false,
      reason: `not routing: ${notRouting.join(", ")} (routing keys are listed in policy/routing.ts; other attributes are the agent's to write)`,
    };
  const before = routingView(entity);
  const { transport, parent, ...rest } = patch;
  if (transport !== undefined && !ENTITY_TRANSPORTS.includes(transport as EntityTransport))
    return { ok: false, reason: `transport must be one of ${ENTITY_TRANSPORTS.join(", ")}` };
  if (typeof parent === "string" && !(await findEntity(db, parent)))
    return { ok: false, reason: `the owning host ${parent} is not an entity` };
  const attributes = mergeAttributes(entity.attributes, rest as JsonObject);
  const after: RoutingView = {
    transport: (transport ?? before.transport) as EntityTransport,
    parent: parent === undefined ? before.parent : parent === null ? null : String(parent),
    attributes: routingAttributes(attributes),
  };
  return { ok: true, before, after, changed: JSON.stringify(before) !== JSON.stringify(after), attributes };
}

/**
 * Applies a routing change for the operator (`oikos routing`, `!oikos routing`, an approved
 * change_routing): only routing keys, a known transport, an owning host that exists. Audited as
 * `routing_changed` with old → new. An execution approved before the change will not run (its
 * routing stamp no longer matches), and the target's standing grants end (issue #32).
 */
export async function changeRouting(
  db: Executor,
  slug: string,
  patch: RoutingPatch,
  context: WriteContext,
): Promise<RoutingChangeResult> {
  const preview = await previewRouting(db, slug, patch);
  if (!preview.ok) return preview;
  const { before, after, changed } = preview;
  if (changed) {
    await db
      .updateTable("entities")
      .set({
        transport: after.transport,
        parent_slug: after.parent,
        attributes: JSON.stringify(preview.attributes),
        updated_at: new Date(),
      })
      .where("slug", "=", slug)
      .execute();
    await recordAudit(db, context, {
      action: "routing_changed",
      subject: slug,
      details: { before: { ...before }, after: { ...after } },
    });
    // A standing grant was given for where the target went before; its guests' grants end at their next use.
    await endGrantsOfTarget(db, slug, { by: context.by, reason: "routing_changed", now: new Date() });
  }
  return { ok: true, slug, before, after, changed };
}

export function routingView(entity: {
  transport: EntityTransport;
  parent_slug: string | null;
  attributes: JsonObject;
}): RoutingView {
  return {
    transport: entity.transport,
    parent: entity.parent_slug,
    attributes: routingAttributes(entity.attributes),
  };
}

function routingAttributes(attributes: JsonObject): JsonObject {
  return Object.fromEntries(
    Object.entries(attributes)
      .filter(([key]) => isRoutingAttribute(key))
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

/** `key=value` words as typed by an operator: numbers stay numbers, an empty value removes the key. */
export function parseRoutingWords(words: readonly string[]): RoutingPatch | { error: string } {
  const patch: RoutingPatch = {};
  for (const word of words) {
    const at = word.indexOf("=");
    if (at <= 0) return { error: `expected key=value, got ${word}` };
    const key = word.slice(0, at).trim();
    const value = word.slice(at + 1).trim();
    patch[key] = value === "" ? null : /^\d{1,9}$/.test(value) ? Number(value) : value;
  }
  return patch;
}

/** `transport=ssh parent=… ssh.host=…`: a routing as an operator types it. */
export function describeRouting(view: RoutingView): string {
  const attributes = Object.entries(view.attributes).map(([key, value]) => `${key}=${String(value)}`);
  return [
    `transport=${view.transport}`,
    ...(view.parent ? [`parent=${view.parent}`] : []),
    ...attributes,
  ].join(" ");
}
