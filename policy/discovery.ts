import { checkEntityType, type EntityTypeSpec, typeOfSlug } from "./entity-types.ts";
import { redact } from "./redact.ts";
import { routingAttributesIn } from "./routing.ts";

// What the agent may write of what it discovered (propose_entities, issue #33). Everything here is a
// decision on facts the MCP tool gathered: the entity and relationship types (data), the entities
// that exist, and the output of the execution the agent names as its evidence. What does not carry
// routing is written at once and marked discovered; whatever would make an entity a command target
// is the operator's, asked like a routing change.

/** One entity as the agent proposes it. */
export interface ProposedEntity {
  slug: string;
  name?: string;
  /** The entity it runs inside or is part of (`service:nextcloud` inside `lxc:cloud`). */
  inside?: string;
  /** A line of the execution's output that shows it. */
  evidence: string;
  attributes?: Record<string, unknown>;
  /** What would make it reachable (transport, ssh.*, vmid …): asked of the operator, never written. */
  routing?: Record<string, string | number | null>;
}

/** What is known of an entity that already exists. */
export interface KnownEntity {
  type: string;
  discovered: boolean;
  /** What it runs inside (its parent), when known. */
  parent: string | null;
}

export interface ContainmentType {
  name: string;
  sourceTypes: readonly string[];
  targetTypes: readonly string[];
}

export interface DiscoveryFacts {
  types: readonly EntityTypeSpec[];
  /** The relationship types that say "runs inside" / "is part of", in the order they are preferred. */
  containment: readonly ContainmentType[];
  existing: ReadonlyMap<string, KnownEntity>;
  /** The evidence execution's stdout and stderr as stored. */
  output: string;
  /** The entity the evidence execution ran on: what it shows is inside it. */
  executionTarget: string;
  isSecretKey: (key: string) => boolean;
}

export type EntityRefusalCode =
  | "unknown_entity_type"
  | "type_not_proposable"
  | "bad_slug"
  | "no_evidence_in_output"
  | "unknown_inside"
  | "not_seen_there"
  | "no_containment"
  | "type_differs"
  | "secret_attributes"
  | "routing_in_attributes";

export type EntityDecision =
  | {
      kind: "write";
      slug: string;
      type: string;
      name: string;
      /** `create`: a new discovered entity; `refresh`: seen again; `annotate`: the operator's entity, facts only. */
      action: "create" | "refresh" | "annotate";
      inside: string | null;
      /** The edge from it to what it runs inside, when there is one to write. */
      edge: string | null;
      attributes: Record<string, unknown>;
      evidence: string;
      /** Routing the operator is asked for (its type is runnable); null when there is none. */
      routing: Record<string, string | number | null> | null;
    }
  | { kind: "refused"; slug: string; code: EntityRefusalCode; reason: string; nextStep: string };

const MIN_EVIDENCE = 3;

/** Whitespace runs as one space, so a line quoted from an aligned table still matches. */
function squeeze(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Whether the output shows this evidence (as stored, or as the agent read it: redacted). */
export function evidenceShown(output: string, evidence: string): boolean {
  const wanted = squeeze(evidence);
  if (wanted.length < MIN_EVIDENCE) return false;
  return squeeze(output).includes(wanted) || squeeze(redact(output)).includes(wanted);
}

/** The first containment type that may link an entity of `inner` type to one of `outer` type. */
export function containmentEdge(
  containment: readonly ContainmentType[],
  inner: string,
  outer: string,
): string | null {
  const allows = (list: readonly string[], type: string) => list.length === 0 || list.includes(type);
  return containment.find((t) => allows(t.sourceTypes, inner) && allows(t.targetTypes, outer))?.name ?? null;
}

/** One entity of a proposal as its batch knows it: its type and what it is said to run inside. */
export interface BatchEntry {
  type: string;
  inside: string | null;
}

/**
 * Whether a command that ran on `target` can show what runs inside `inside`: `inside` is the target
 * itself or lies within it (through the batch's `inside` links and the known parents).
 */
export function seenFrom(
  target: string,
  inside: string,
  facts: Pick<DiscoveryFacts, "existing">,
  batch: ReadonlyMap<string, BatchEntry>,
): boolean {
  const visited = new Set<string>();
  for (let at: string | null = inside; at && !visited.has(at); ) {
    if (at === target) return true;
    visited.add(at);
    at = batch.get(at)?.inside ?? facts.existing.get(at)?.parent ?? null;
  }
  return false;
}

/** Decides one proposed entity; `batch` holds the entities proposed alongside it. */
export function decideProposedEntity(
  proposal: ProposedEntity,
  facts: DiscoveryFacts,
  batch: ReadonlyMap<string, BatchEntry>,
): EntityDecision {
  const { slug } = proposal;
  const decline = (code: EntityRefusalCode, reason: string, nextStep: string): EntityDecision => ({
    kind: "refused",
    slug,
    code,
    reason,
    nextStep,
  });
  const type = typeOfSlug(slug);
  if (!type || !/^[a-z][a-z0-9-]*:[^\s]+$/.test(slug))
    return decline(
      "bad_slug",
      `"${slug}" is not an entity slug`,
      "Name it type:name, e.g. service:nextcloud or container:nextcloud-app-1.",
    );
  const typeCheck = checkEntityType(facts.types, type, "propose");
  if (!typeCheck.ok) return decline(typeCheck.code, typeCheck.reason, typeCheck.nextStep);
  if (!evidenceShown(facts.output, proposal.evidence))
    return decline(
      "no_evidence_in_output",
      `the evidence for ${slug} ("${squeeze(proposal.evidence).slice(0, 120)}") is not in the output of the execution you named`,
      "Quote a line of that execution's output that shows it (as get_execution_status shows it), or run a read-only command that shows it first.",
    );
  const secret = Object.keys(proposal.attributes ?? {}).filter(facts.isSecretKey);
  if (secret.length > 0)
    return decline(
      "secret_attributes",
      `${secret.join(", ")} look like secrets, and the knowledge graph is model context`,
      "Leave secrets out; record where they live (a file path) if that matters.",
    );
  const routingKeys = routingAttributesIn(Object.keys(proposal.attributes ?? {}));
  if (routingKeys.length > 0)
    return decline(
      "routing_in_attributes",
      `${routingKeys.join(", ")} decide where commands run, so they are not facts you write`,
      "Put them under routing (the operator is asked), or leave them out.",
    );
  const existing = facts.existing.get(slug);
  if (existing && existing.type !== type)
    return decline(
      "type_differs",
      `${slug} exists with type ${existing.type}`,
      "Use the existing entity's slug as it is (get_entity shows it).",
    );
  const inside = proposal.inside ?? null;
  let edge: string | null = null;
  if (inside) {
    const insideType = facts.existing.get(inside)?.type ?? batch.get(inside)?.type;
    if (!insideType)
      return decline(
        "unknown_inside",
        `${inside}, which ${slug} runs inside, is not an entity`,
        "Name an entity from list_entities as inside, or propose it in the same call.",
      );
    if (!seenFrom(facts.executionTarget, inside, facts, batch))
      return decline(
        "not_seen_there",
        `the execution you named ran on ${facts.executionTarget}, which cannot show what runs inside ${inside}`,
        `Name an execution that ran on ${inside} (or on what it runs inside) as evidence.`,
      );
    edge = containmentEdge(facts.containment, type, insideType);
    if (!edge)
      return decline(
        "no_containment",
        `a ${type} cannot run inside or be part of a ${insideType}`,
        "Check the types: services and containers run on guests, volumes and ports are part of a service, container or stack.",
      );
  }
  const routing = proposal.routing && Object.keys(proposal.routing).length > 0 ? proposal.routing : null;
  if (routing && !typeCheck.spec.runnable)
    return decline(
      "routing_in_attributes",
      `a ${type} is never a command target, so it has no routing`,
      "Leave routing out: commands for it run on what it runs inside.",
    );
  return {
    kind: "write",
    slug,
    type,
    name: proposal.name?.trim() || slug.slice(type.length + 1),
    action: !existing ? "create" : existing.discovered ? "refresh" : "annotate",
    // The operator's entities keep their place; a discovered one records where it was seen.
    inside: existing && !existing.discovered ? null : inside,
    edge,
    attributes: proposal.attributes ?? {},
    evidence: redact(squeeze(proposal.evidence)).slice(0, 500),
    routing,
  };
}
