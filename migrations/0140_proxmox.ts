import type { Kysely } from "kysely";
import { executeStatements } from "./statements.ts";

// Proxmox discovery and snapshots (issue 14): guests are `stored-on` their storages, nodes are
// `member-of` their cluster; an execution records the snapshot taken before it (or why none was).
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(db, DDL);
}

const DDL = `
    INSERT INTO relationship_types (name, description, source_types, target_types, dependent_side) VALUES
      ('stored-on', 'the source guest keeps a disk on the target storage',
        '["lxc","vm"]'::jsonb, '["storage"]'::jsonb, 'source')
    ON CONFLICT (name) DO NOTHING;
    UPDATE relationship_types SET target_types = '["group","cluster"]'::jsonb WHERE name = 'member-of';
    ALTER TABLE executions ADD COLUMN snapshot jsonb;
`;
