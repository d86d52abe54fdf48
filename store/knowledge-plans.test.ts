import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { CompiledQuery, createQueryId, type Kysely, type OperationNode } from "kysely";
import { BIG_GRAPH, seedBigGraph } from "../test-support/knowledge-graph-seed.ts";
import { createTestStore, type TestStore } from "../test-support/store.ts";
import { RANKED_CANDIDATES, searchKnowledge } from "./knowledge.ts";
import { blastRadius } from "./relationships.ts";
import type { Database } from "./schema.ts";

// Query plans of the knowledge-graph reads on a graph big enough for the planner to care
// (10,000 entities, 50,000 documents, the bench's graph): each reads its big table through an index, never a Seq Scan,
// and a search for a common word ranks a bounded set of candidates, not every match.
// Speed itself is measured by test-support/bench/mcp-server/knowledge-graph.bench.ts.
const SIZE = BIG_GRAPH;

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  /** Rows per loop (EXPLAIN ANALYZE only). */
  "Actual Rows"?: number;
  Plans?: PlanNode[];
}

function nodesOf(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodesOf)];
}

/** Runs `read` on a db that records every query, then EXPLAINs each recorded query. */
async function plansOf(
  db: Kysely<Database>,
  read: (db: Kysely<Database>) => Promise<unknown>,
  options: { analyze?: boolean } = {},
) {
  const nodes: OperationNode[] = [];
  const recording = db.withPlugin({
    transformQuery: (args) => {
      nodes.push(args.node);
      return args.node;
    },
    transformResult: async (args) => args.result,
  });
  await read(recording);
  const plans: PlanNode[][] = [];
  for (const node of nodes) {
    const compiled = db.getExecutor().compileQuery(node as never, createQueryId());
    const { rows } = await db.executeQuery<{ "QUERY PLAN": { Plan: PlanNode }[] }>(
      CompiledQuery.raw(`EXPLAIN (${options.analyze ? "ANALYZE, " : ""}FORMAT JSON) ${compiled.sql}`, [
        ...compiled.parameters,
      ]),
    );
    plans.push(nodesOf(rows[0]!["QUERY PLAN"][0]!.Plan));
  }
  return plans;
}

function seqScansOn(plans: PlanNode[][], tables: string[]): string[] {
  return plans
    .flat()
    .filter((n) => n["Node Type"] === "Seq Scan" && tables.includes(n["Relation Name"] ?? ""))
    .map((n) => n["Relation Name"]!);
}

describe("knowledge graph query plans on Postgres", {
  skip: !process.env.DATABASE_URL && "DATABASE_URL is not set",
}, () => {
  let store: TestStore;
  before(async () => {
    store = await createTestStore("postgres");
    await seedBigGraph(store.db, SIZE);
  });
  after(() => store?.dispose());

  test("search_knowledge, a selective query: full-text and title substring are index scans (BitmapOr), no Seq Scan", async () => {
    for (const query of ["g77", "needle42", "host:h3"]) {
      const plans = await plansOf(store.db, (db) => searchKnowledge(db, { query }, { offset: 0, limit: 20 }));
      assert.deepEqual(seqScansOn(plans, ["knowledge", "knowledge_about"]), [], `query ${query}`);
      const indexes = plans.flat().map((n) => n["Index Name"]);
      assert.ok(
        indexes.includes("knowledge_title_trgm"),
        `query ${query}: title match uses the trigram index`,
      );
      assert.ok(indexes.includes("knowledge_search"), `query ${query}: full-text match uses the GIN index`);
    }
  });

  test("search_knowledge with about: no Seq Scan on knowledge or knowledge_about", async () => {
    const plans = await plansOf(store.db, (db) =>
      searchKnowledge(db, { query: "certificate", about: "lxc:g12" }, { offset: 0, limit: 20 }),
    );
    assert.deepEqual(seqScansOn(plans, ["knowledge", "knowledge_about"]), []);
  });

  test("search_knowledge with a common word: no Seq Scan, and no scan of knowledge returns more rows than are ranked", async () => {
    for (const query of ["certificate", "firewall", "zfs pool"]) {
      const plans = await plansOf(
        store.db,
        (db) => searchKnowledge(db, { query }, { offset: 0, limit: 20 }),
        {
          analyze: true,
        },
      );
      assert.deepEqual(seqScansOn(plans, ["knowledge", "knowledge_about"]), [], `query ${query}`);
      for (const node of plans.flat()) {
        if (node["Relation Name"] !== "knowledge") continue;
        assert.ok(
          (node["Actual Rows"] ?? 0) <= RANKED_CANDIDATES + 1,
          `query ${query}: ${node["Node Type"]} on knowledge returned ${node["Actual Rows"]} rows`,
        );
      }
    }
    const broad = await searchKnowledge(store.db, { query: "certificate" }, { offset: 0, limit: 20 });
    assert.equal(broad.broad, true, "a word in ~1 document of 6 matches more than are ranked");
    assert.equal(broad.entries.length, 20);
    const rare = await searchKnowledge(store.db, { query: "needle42" }, { offset: 0, limit: 20 });
    assert.equal(rare.broad, false);
    assert.ok(rare.entries.every((entry) => entry.excerpt.startsWith("needle42 ")));
  });

  test("get_blast_radius: the root's dependents are read through a relationships index", async () => {
    const plans = await plansOf(store.db, async (db) => {
      const radius = await blastRadius(db, "host:h3", { maxDepth: 1, maxNodes: 200 });
      assert.ok(radius.dependents.length >= 20, "the walk reaches the host's guests");
    });
    const [, rootLevel] = plans; // [relationship types, level 1, …]
    assert.deepEqual(seqScansOn([rootLevel!], ["relationships"]), []);
    assert.ok(rootLevel!.some((n) => n["Index Name"]?.startsWith("relationships_")));
  });
});
