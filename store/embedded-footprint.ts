/**
 * postgresql.conf of the embedded database (PGlite), sized for a 512 MB – 1 GB container: a
 * homelab's graph and task history fit in these buffers many times over. PGlite rewrites its
 * postgresql.conf with these lines at every start, so a data dir made by an older release follows.
 */
export const EMBEDDED_POSTGRESQL_CONF = [
  "shared_buffers = 16MB",
  "work_mem = 1MB",
  "maintenance_work_mem = 8MB",
  "wal_buffers = 256kB",
  "temp_buffers = 1MB",
  // Its files live in memory: a random page costs about what a sequential one does. At the default
  // of 4 the planner walked 24,000 rows in id order to find 500 matches of a two-word search
  // rather than read the 1,000 the text index names (store/knowledge.ts searchKnowledge).
  "random_page_cost = 1.1",
];
