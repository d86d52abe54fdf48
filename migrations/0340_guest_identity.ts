import type { Kysely } from "kysely";
import { executeStatements } from "./statements.ts";

// A guest's identity is its vmid within its cluster (issue #35): never two runnable entities on one
// vmid of one cluster, held by the database. Rows the standalone → cluster bug already doubled are
// resolved first: the one discovery wrote last stays, the others are marked destroyed (kept for their
// history, superseded by the one that stays).
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(db, DDL);
}

const DDL = `
    UPDATE entities AS e
       SET state = 'destroyed',
           attributes = e.attributes || jsonb_build_object(
             'proxmox.status', 'destroyed',
             'proxmox.destroyed_at', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
             'proxmox.superseded_by', d.keeper),
           updated_at = now()
      FROM (SELECT slug,
                   row_number() OVER w AS rank,
                   first_value(slug) OVER w AS keeper
              FROM entities
             WHERE state <> 'destroyed'
               AND (attributes->>'proxmox.cluster') IS NOT NULL
               AND (attributes->>'proxmox.vmid') IS NOT NULL
            WINDOW w AS (PARTITION BY attributes->>'proxmox.cluster', attributes->>'proxmox.vmid'
                         ORDER BY updated_at DESC, slug)) AS d
     WHERE e.slug = d.slug AND d.rank > 1;
    CREATE UNIQUE INDEX entities_one_runnable_guest_per_vmid
        ON entities ((attributes->>'proxmox.cluster'), (attributes->>'proxmox.vmid'))
     WHERE state <> 'destroyed'
       AND (attributes->>'proxmox.cluster') IS NOT NULL
       AND (attributes->>'proxmox.vmid') IS NOT NULL;
`;
