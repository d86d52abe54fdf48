import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { availableDialects, createTestStore } from "../test-support/store.ts";
import { upsertEntities } from "./entities.ts";
import { blastRadius, createRelationship } from "./relationships.ts";

const by = { by: "test" };

for (const { dialect, skip } of availableDialects()) {
  describe(`relationships on ${dialect}`, { skip }, () => {
    test("blast radius follows dependent sides transitively and terminates on cycles", async () => {
      const store = await createTestStore(dialect);
      try {
        await upsertEntities(
          store.db,
          ["host:a", "lxc:b", "service:c", "service:d", "host:e"].map((slug) => {
            const [type, name] = slug.split(":") as [string, string];
            return { slug, type, name };
          }),
          by,
        );
        const edges: [string, string, string][] = [
          ["host:a", "lxc:b", "hosts"], // b depends on a
          ["service:c", "lxc:b", "runs-on"], // c depends on b
          ["service:d", "service:c", "depends-on"], // d depends on c
          ["service:c", "service:d", "depends-on"], // cycle: c depends on d
          ["lxc:b", "host:a", "depends-on"], // cycle back to the root
          ["host:e", "host:a", "backs-up"], // no dependency side: not in the radius
        ];
        for (const [source, target, type] of edges) {
          const result = await createRelationship(store.db, { source, target, type }, by);
          assert.equal(result.status, "created", `${source} ${type} ${target}: ${JSON.stringify(result)}`);
        }
        const radius = await blastRadius(store.db, "host:a", { maxDepth: 10, maxNodes: 100 });
        assert.deepEqual(
          radius.dependents.map((d) => [d.slug, d.depth]),
          [
            ["lxc:b", 1],
            ["service:c", 2],
            ["service:d", 3],
          ],
        );
        assert.equal(radius.truncated, false);
        const fromCycle = await blastRadius(store.db, "service:c", { maxDepth: 10, maxNodes: 100 });
        assert.deepEqual(
          fromCycle.dependents.map((d) => d.slug),
          ["service:d"],
        );
        const bounded = await blastRadius(store.db, "host:a", { maxDepth: 1, maxNodes: 100 });
        assert.deepEqual(
          bounded.dependents.map((d) => d.slug),
          ["lxc:b"],
        );
        assert.equal(bounded.truncated, true);
      } finally {
        await store.dispose();
      }
    });

    test("relationship types are data: unknown type lists the valid ones, wrong ends are refused", async () => {
      const store = await createTestStore(dialect);
      try {
        await upsertEntities(
          store.db,
          [
            { slug: "group:web", type: "group", name: "web" },
            { slug: "host:web1", type: "host", name: "web1" },
          ],
          by,
        );
        const unknown = await createRelationship(
          store.db,
          { source: "host:web1", target: "group:web", type: "x" },
          by,
        );
        assert.equal(unknown.status, "invalid_type");
        if (unknown.status === "invalid_type") {
          assert.ok(unknown.validTypes.some((t) => t.name === "member-of"));
        }
        const reversed = await createRelationship(
          store.db,
          { source: "group:web", target: "host:web1", type: "member-of" },
          by,
        );
        assert.equal(reversed.status, "type_not_allowed");
        const count = await store.db
          .selectFrom("relationships")
          .select((eb) => eb.fn.countAll<string>().as("n"))
          .executeTakeFirstOrThrow();
        assert.equal(Number(count.n), 0);
      } finally {
        await store.dispose();
      }
    });
  });
}
