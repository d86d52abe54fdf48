import type { Kysely } from "kysely";
import { executeStatements } from "./statements.ts";

// Relationship types are data: relationships are validated against these rows (store/relationships.ts).
// source_types / target_types list the entity types allowed on each end; an empty list allows any type.
// dependent_side says which end depends on the other ('source', 'target' or NULL for no dependency):
// get_blast_radius follows it to find what breaks when an entity goes down.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(db, DDL);
}

const COMPUTE = `'["host","lxc","vm","container"]'::jsonb`;
const STORAGE = `'["storage","pool","share","volume","nas"]'::jsonb`;

const DDL = `
    ALTER TABLE relationship_types ADD COLUMN dependent_side text
      CHECK (dependent_side IN ('source', 'target'));

    INSERT INTO relationship_types (name, description, source_types, target_types, dependent_side) VALUES
      ('hosts', 'source runs the target as a guest or container (host hosts lxc)',
        '["cluster","host","vm","lxc"]'::jsonb, '["host","lxc","vm","container","stack"]'::jsonb, 'target'),
      ('runs-on', 'source runs on the target (service runs-on lxc)',
        '["service","container","stack","lxc","vm","host"]'::jsonb,
        '["host","lxc","vm","container","cluster"]'::jsonb, 'source'),
      ('depends-on', 'source needs the target to work', '[]'::jsonb, '[]'::jsonb, 'source'),
      ('provides', 'source provides the target service',
        '["host","lxc","vm","container","stack","nas"]'::jsonb, '["service","share","storage"]'::jsonb, 'target'),
      ('mounts', 'source mounts the target storage', ${COMPUTE}, ${STORAGE}, 'source'),
      ('exports-to', 'source exports storage to the target (NFS/SMB)',
        '["host","lxc","vm","nas","share","storage"]'::jsonb, ${COMPUTE}, 'target'),
      ('backs-up', 'source holds backups of the target', '[]'::jsonb, '[]'::jsonb, NULL),
      ('involves', 'an incident or change involves the target', '[]'::jsonb, '[]'::jsonb, NULL),
      ('documents', 'source documents the target', '[]'::jsonb, '[]'::jsonb, NULL),
      ('about', 'source is about the target', '[]'::jsonb, '[]'::jsonb, NULL),
      ('member-of', 'source belongs to the target inventory group',
        '["host","lxc","vm","container","group"]'::jsonb, '["group"]'::jsonb, NULL)
    ON CONFLICT (name) DO NOTHING;
`;
