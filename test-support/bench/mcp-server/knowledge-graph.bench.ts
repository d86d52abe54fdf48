import { connectInMemoryClient } from "../../../mcp-server/in-memory.ts";
import { createMcpServer } from "../../../mcp-server/server.ts";
import { AGENT_PRINCIPAL } from "../../../policy/principal.ts";
import { BIG_GRAPH, entityCount, seedBigGraph } from "../../knowledge-graph-seed.ts";
import { callTool } from "../../mcp-server/call-tool.ts";
import { median } from "../../median.ts";
import { createTestStore, type TestDialect } from "../../store.ts";

const ROUNDS = 40;
const WARMUP = 5;

/**
 * Queries a model would send: a rare word, two common words, a title substring, an exclusion with a
 * kind filter, a common word about one entity, and one common word alone (in ~1 document of 6).
 */
const SEARCHES: Record<string, unknown>[] = [
  { query: "needle42" },
  { query: "backup restore" },
  { query: "g77" },
  { query: "nginx -kernel", kind: "runbook" },
  { query: "certificate", about: "lxc:g12" },
  { query: "certificate" },
];
/** A common word alone: every match is ranked, so this is the slow end of search. */
const BROAD_SEARCH = { query: "firewall" };

/**
 * knowledge_search_ms_p50 (Postgres, when DATABASE_URL is set) and knowledge_search_ms_p50_pglite:
 * MCP `search_knowledge` over a graph of 10,000 entities and 50,000 documents, through the
 * in-process MCP client (validation, query, entity hints, result framing), the median over SEARCHES;
 * knowledge_search_broad_ms_p50 for one common word alone; likewise `get_entity`
 * and `get_blast_radius` of a host (20 guests, 79 services behind it).
 */
export default async function (): Promise<Record<string, number>> {
  const figures: Record<string, number> = {};
  const dialects: TestDialect[] = process.env.DATABASE_URL ? ["postgres", "pglite"] : ["pglite"];
  if (!process.env.DATABASE_URL)
    process.stderr.write("knowledge-graph bench: DATABASE_URL not set, Postgres left out\n");
  for (const dialect of dialects) {
    const suffix = dialect === "postgres" ? "" : "_pglite";
    const store = await createTestStore(dialect);
    try {
      let started = performance.now();
      await seedBigGraph(store.db);
      figures[`knowledge_seed_ms${suffix}`] = performance.now() - started;
      const client = await connectInMemoryClient(
        createMcpServer({ db: store.db, principal: AGENT_PRINCIPAL }),
      );
      try {
        const guests = BIG_GRAPH.guests;
        const timed = async (tool: string, argsAt: (i: number) => Record<string, unknown>) => {
          const samples: number[] = [];
          for (let i = 0; i < WARMUP + ROUNDS; i++) {
            started = performance.now();
            const result = await callTool(client, tool, argsAt(i));
            const ms = performance.now() - started;
            if (result.isError) throw new Error(`${tool} failed: ${result.text}`);
            if (i >= WARMUP) samples.push(ms);
          }
          return median(samples);
        };
        figures[`knowledge_search_ms_p50${suffix}`] = await timed(
          "search_knowledge",
          (i) => SEARCHES[i % SEARCHES.length]!,
        );
        figures[`knowledge_search_broad_ms_p50${suffix}`] = await timed(
          "search_knowledge",
          () => BROAD_SEARCH,
        );
        figures[`get_entity_ms_p50${suffix}`] = await timed("get_entity", (i) => ({
          slug: `lxc:g${1 + ((i * 37) % guests)}`,
        }));
        figures[`blast_radius_ms_p50${suffix}`] = await timed("get_blast_radius", (i) => ({
          slug: `host:h${1 + ((i * 7) % BIG_GRAPH.hosts)}`,
        }));
        figures[`knowledge_graph_entities${suffix}`] = entityCount(BIG_GRAPH);
      } finally {
        await client.close();
      }
    } finally {
      await store.dispose();
    }
  }
  return figures;
}

/** Measured on the deployment DATABASE_URL / REDIS_URL select (scripts/bench.ts names it with each figure). */
export const usesStore = true;
