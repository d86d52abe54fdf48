import assert from "node:assert/strict";
import { test } from "node:test";
import {
  type BatchEntry,
  containmentEdge,
  type DiscoveryFacts,
  decideProposedEntity,
  evidenceShown,
  type ProposedEntity,
  seenFrom,
} from "./discovery.ts";
import type { EntityTypeSpec } from "./entity-types.ts";

const spec = (name: string, runnable = false, proposable = true): EntityTypeSpec => ({
  name,
  description: name,
  runnable,
  proposable,
});
const TYPES = [
  spec("host", true),
  spec("lxc", true),
  spec("service"),
  spec("container"),
  spec("volume"),
  spec("port"),
  spec("stack"),
  spec("group", false, false),
  spec("task", false, false),
];
const CONTAINMENT = [
  {
    name: "runs-on",
    sourceTypes: ["service", "container", "stack", "lxc", "vm", "host"],
    targetTypes: ["host", "lxc", "vm", "container", "cluster"],
  },
  {
    name: "part-of",
    sourceTypes: ["service", "container", "volume", "port", "stack", "storage"],
    targetTypes: ["stack", "service", "container", "lxc", "vm", "host"],
  },
];
const OUTPUT = [
  "NAMES             IMAGE            STATUS",
  "nextcloud-app-1   nextcloud:29     Up 2 days",
  "nextcloud-db-1    mariadb:10.11    Up 2 days",
  "DB_PASSWORD=hunter2hunter2hunter2",
].join("\n");

function facts(over: Partial<DiscoveryFacts> = {}): DiscoveryFacts {
  return {
    types: TYPES,
    containment: CONTAINMENT,
    existing: new Map([
      ["host:pve", { type: "host", discovered: false, parent: null }],
      ["lxc:cloud", { type: "lxc", discovered: false, parent: "host:pve" }],
      ["container:old-1", { type: "container", discovered: true, parent: "lxc:cloud" }],
      ["service:nginx", { type: "service", discovered: false, parent: null }],
    ]),
    output: OUTPUT,
    executionTarget: "lxc:cloud",
    isSecretKey: (key) => /password|token/i.test(key),
    ...over,
  };
}
const NONE = new Map<string, BatchEntry>();
const app: ProposedEntity = {
  slug: "container:nextcloud-app-1",
  inside: "lxc:cloud",
  evidence: "nextcloud-app-1 nextcloud:29 Up 2 days",
  attributes: { image: "nextcloud:29" },
};

test("a container seen in the output of a command on its guest is written, discovered, runs-on the guest", () => {
  const decision = decideProposedEntity(app, facts(), NONE);
  assert.deepEqual(decision, {
    kind: "write",
    slug: "container:nextcloud-app-1",
    type: "container",
    name: "nextcloud-app-1",
    action: "create",
    inside: "lxc:cloud",
    edge: "runs-on",
    attributes: { image: "nextcloud:29" },
    evidence: "nextcloud-app-1 nextcloud:29 Up 2 days",
    routing: null,
  });
  // Seen from the node the guest runs on (pct exec … docker ps) too.
  assert.equal(decideProposedEntity(app, facts({ executionTarget: "host:pve" }), NONE).kind, "write");
});

test("seen again: refreshed; the operator's own entity: only annotated, its place kept", () => {
  const again = decideProposedEntity({ ...app, slug: "container:old-1" }, facts(), NONE);
  assert.equal(again.kind === "write" && again.action, "refresh");
  const operators = decideProposedEntity(
    { slug: "service:nginx", inside: "lxc:cloud", evidence: "nextcloud-db-1" },
    facts(),
    NONE,
  );
  assert.equal(operators.kind === "write" && operators.action, "annotate");
  assert.equal(operators.kind === "write" && operators.inside, null, "the operator's entity is not moved");
});

test("containment: runs-on where it fits, else part-of; nothing fits is refused", () => {
  assert.equal(containmentEdge(CONTAINMENT, "container", "lxc"), "runs-on");
  assert.equal(containmentEdge(CONTAINMENT, "volume", "container"), "part-of");
  assert.equal(containmentEdge(CONTAINMENT, "container", "stack"), "part-of");
  assert.equal(containmentEdge(CONTAINMENT, "host", "volume"), null);
  const batch = new Map<string, BatchEntry>([["volume:data", { type: "volume", inside: "lxc:cloud" }]]);
  const refused = decideProposedEntity(
    { slug: "service:x", inside: "volume:data", evidence: "nextcloud-app-1" },
    facts(),
    batch,
  );
  assert.equal(refused.kind === "refused" && refused.code, "no_containment");
});

test("every refusal names its code and the next step", () => {
  const cases: [ProposedEntity, string, Partial<DiscoveryFacts>?][] = [
    [{ ...app, slug: "nextcloud" }, "bad_slug"],
    [{ ...app, slug: "servce:nextcloud" }, "unknown_entity_type"],
    [{ ...app, slug: "task:abc" }, "type_not_proposable"],
    [{ ...app, slug: "group:web" }, "type_not_proposable"],
    [{ ...app, evidence: "nextcloud-app-2 nextcloud:30" }, "no_evidence_in_output"],
    [{ ...app, evidence: "  " }, "no_evidence_in_output"],
    [{ ...app, attributes: { db_password: "x" } }, "secret_attributes"],
    [{ ...app, attributes: { "ssh.host": "10.0.0.9" } }, "routing_in_attributes"],
    [{ ...app, routing: { transport: "ssh" } }, "routing_in_attributes"],
    [
      { ...app, slug: "service:nginx", inside: undefined },
      "type_differs",
      {
        existing: new Map([["service:nginx", { type: "container", discovered: false, parent: null }]]),
      },
    ],
    [{ ...app, inside: "lxc:nowhere" }, "unknown_inside"],
    [app, "not_seen_there", { executionTarget: "host:other" }],
  ];
  for (const [proposal, code, over] of cases) {
    const decision = decideProposedEntity(proposal, facts(over), NONE);
    assert.equal(decision.kind, "refused", `${code}: ${JSON.stringify(decision)}`);
    if (decision.kind !== "refused") continue;
    assert.equal(decision.code, code, decision.reason);
    assert.ok(decision.nextStep.length > 10, code);
  }
});

test("a new host with routing is written without it; the routing is what the operator is asked", () => {
  const decision = decideProposedEntity(
    {
      slug: "lxc:newbox",
      inside: "host:pve",
      evidence: "nextcloud-db-1 mariadb:10.11",
      routing: { transport: "ssh", "ssh.host": "10.0.0.9" },
    },
    facts({ executionTarget: "host:pve" }),
    NONE,
  );
  assert.equal(decision.kind, "write");
  if (decision.kind !== "write") return;
  assert.deepEqual(decision.routing, { transport: "ssh", "ssh.host": "10.0.0.9" });
  assert.deepEqual(decision.attributes, {});
});

test("evidence: whitespace of an aligned table does not matter; a redacted line as the agent saw it matches", () => {
  assert.equal(evidenceShown(OUTPUT, "nextcloud-db-1 mariadb:10.11"), true);
  assert.equal(evidenceShown(OUTPUT, "nextcloud-db-1\tmariadb:10.11"), true);
  assert.equal(evidenceShown(OUTPUT, "ne"), false);
  const secretLine = "DB_PASSWORD=hunter2hunter2hunter2";
  assert.equal(evidenceShown(OUTPUT, secretLine), true);
  const decision = decideProposedEntity(
    { slug: "service:db", inside: "lxc:cloud", evidence: secretLine },
    facts(),
    NONE,
  );
  assert.equal(decision.kind, "write");
  if (decision.kind === "write")
    assert.doesNotMatch(decision.evidence, /hunter2/, "stored evidence is redacted");
});

test("seen from: the target itself, or anything inside it through the batch and the known parents", () => {
  const batch = new Map<string, BatchEntry>([
    ["stack:nextcloud", { type: "stack", inside: "lxc:cloud" }],
    ["container:app", { type: "container", inside: "stack:nextcloud" }],
  ]);
  const f = facts();
  assert.equal(seenFrom("lxc:cloud", "container:app", f, batch), true);
  assert.equal(seenFrom("host:pve", "container:app", f, batch), true);
  assert.equal(seenFrom("host:other", "container:app", f, batch), false);
  const loop = new Map<string, BatchEntry>([
    ["stack:a", { type: "stack", inside: "stack:b" }],
    ["stack:b", { type: "stack", inside: "stack:a" }],
  ]);
  assert.equal(seenFrom("lxc:cloud", "stack:a", f, loop), false, "a loop ends");
});
