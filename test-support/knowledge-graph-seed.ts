import { type Kysely, sql } from "kysely";
import type { Database } from "../store/schema.ts";

/** Sizes of a big knowledge graph: the shape a long-running homelab install grows into. */
export interface BigGraphSize {
  hosts: number;
  guests: number;
  services: number;
  documents: number;
}

/** 10,000 entities (100 hosts, 2,000 guests, 7,900 services) and 50,000 documents. */
export const BIG_GRAPH: BigGraphSize = { hosts: 100, guests: 2_000, services: 7_900, documents: 50_000 };

export function entityCount(size: BigGraphSize): number {
  return size.hosts + size.guests + size.services;
}

/** Words the documents are made of; `needle` words are rare so a search for one is selective. */
const VOCABULARY = [
  "backup",
  "restore",
  "nginx",
  "postgres",
  "disk",
  "memory",
  "kernel",
  "upgrade",
  "certificate",
  "renewal",
  "zfs",
  "pool",
  "scrub",
  "snapshot",
  "network",
  "bridge",
  "firewall",
  "dns",
  "resolver",
  "timeout",
  "container",
  "systemd",
  "journal",
  "rotation",
  "latency",
  "replication",
  "failover",
  "mount",
  "export",
  "permissions",
  "quota",
  "cron",
  "schedule",
  "alert",
  "threshold",
  "load",
];

/**
 * Fills an empty migrated store with hosts → guests (hosts) → services (runs-on), and documents
 * each linked to one guest and one service, in a handful of set-based INSERT … SELECT statements
 * (seconds on Postgres and PGlite, never one round trip per row).
 * Slugs: `host:h<i>`, `lxc:g<i>`, `service:s<i>`; document slugs `doc-<i>`, titles
 * `Runbook <i> for g<guest>` with one rare word `needle<i % 500>` in each content.
 */
export async function seedBigGraph(db: Kysely<Database>, size: BigGraphSize = BIG_GRAPH): Promise<void> {
  const { guests, services } = size;
  const words = sql.raw(`ARRAY[${VOCABULARY.map((w) => `'${w}'`).join(",")}]`);
  const n = VOCABULARY.length;
  await sql`
    INSERT INTO entities (slug, type, name, attributes)
    SELECT 'host:h' || i, 'host', 'h' || i, jsonb_build_object('ip', '10.0.' || (i / 250) || '.' || (i % 250))
    FROM generate_series(1, ${size.hosts}) AS i`.execute(db);
  await sql`
    INSERT INTO entities (slug, type, name, parent_slug, attributes)
    SELECT 'lxc:g' || i, 'lxc', 'g' || i, 'host:h' || (1 + i % ${size.hosts}), jsonb_build_object('vmid', 100 + i)
    FROM generate_series(1, ${guests}) AS i`.execute(db);
  await sql`
    INSERT INTO entities (slug, type, name, attributes)
    SELECT 'service:s' || i, 'service', 's' || i, jsonb_build_object('port', 1000 + i % 60000)
    FROM generate_series(1, ${services}) AS i`.execute(db);
  await sql`
    INSERT INTO relationships (source_slug, target_slug, type)
    SELECT 'host:h' || (1 + i % ${size.hosts}), 'lxc:g' || i, 'hosts'
    FROM generate_series(1, ${guests}) AS i`.execute(db);
  await sql`
    INSERT INTO relationships (source_slug, target_slug, type)
    SELECT 'service:s' || i, 'lxc:g' || (1 + i % ${guests}), 'runs-on'
    FROM generate_series(1, ${services}) AS i`.execute(db);
  // 97 bodies (made once) of 6 operations words among 40 rarer ones: a common word is in about
  // one document in six, as in a real runbook collection; documents differ without a per-row subquery.
  await sql`
    INSERT INTO knowledge (slug, kind, title, content, tags)
    WITH bodies AS (
      SELECT b, string_agg(CASE WHEN k <= 6
          THEN (${words})[1 + abs(hashtext(b || ':' || k)) % ${n}]
          ELSE 'term' || abs(hashtext(k || ':' || b)) % 3000 END, ' ') AS body
      FROM generate_series(0, 96) AS b, generate_series(1, 46) AS k GROUP BY b
    )
    SELECT 'doc-' || i,
      (ARRAY['runbook','investigation','document'])[1 + i % 3],
      'Runbook ' || i || ' for g' || (1 + i % ${guests}),
      'needle' || (i % 500) || ' ' || body,
      '[]'::jsonb
    FROM generate_series(1, ${size.documents}) AS i JOIN bodies ON b = i % 97`.execute(db);
  await sql`
    INSERT INTO knowledge_about (knowledge_id, entity_slug)
    SELECT id, 'lxc:g' || (1 + (substr(slug, 5)::int) % ${guests}) FROM knowledge
    UNION ALL
    SELECT id, 'service:s' || (1 + (substr(slug, 5)::int) % ${services}) FROM knowledge`.execute(db);
  // The steady state autovacuum keeps: statistics, and GIN pending lists merged into the index
  // (a bulk load leaves them pending, and the planner prices pending pages as a scan of them).
  // ANALYZE samples 300 × default_statistics_target rows: below the table sizes it is a random
  // sample, and the plans the tests assert changed from run to run (CI: a title search without its
  // trigram index once in several runs). A target that covers every row makes them the same.
  const rows = Math.max(entityCount(size), size.documents * 2);
  await db.connection().execute(async (connection) => {
    await sql
      .raw(`SET default_statistics_target = ${Math.min(10_000, Math.ceil(rows / 300) + 1)}`)
      .execute(connection);
    for (const table of ["entities", "relationships", "knowledge", "knowledge_about"]) {
      await sql`VACUUM ANALYZE ${sql.table(table)}`.execute(connection);
    }
  });
}
