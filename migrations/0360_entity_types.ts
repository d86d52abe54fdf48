import type { Kysely } from "kysely";
import { executeStatements } from "./statements.ts";

// Entity types are data, like relationship types (issue #33): every entity write is validated
// against these rows (store/entity-types.ts) and the database holds it with a foreign key.
// `runnable`: an entity of this type can be a command target, so whatever makes one reachable
// (transport, ssh.*, parent, vmid) is routing and the operator's. `proposable`: the agent may
// propose entities of this type from what it observed (propose_entities); task entities are written
// by the gates only, inventory groups and clusters by the importers.
// Every type already in use is kept (described as such), so the foreign key holds on old databases.
// Discovered entities carry when they were first and last seen and since when they were not seen
// (stale, never deleted); each sighting keeps its evidence: the execution whose output showed it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(db, DDL);
}

const DDL = `
    CREATE TABLE entity_types (
      name text PRIMARY KEY,
      description text NOT NULL,
      runnable boolean NOT NULL DEFAULT false,
      proposable boolean NOT NULL DEFAULT false
    );
    INSERT INTO entity_types (name, description, runnable, proposable) VALUES
      ('host', 'a machine reached over SSH (bare metal, a Proxmox node, a NAS head)', true, true),
      ('lxc', 'a Proxmox LXC container', true, true),
      ('vm', 'a Proxmox QEMU virtual machine', true, true),
      ('local', 'the machine oikos itself runs on', true, false),
      ('cluster', 'a Proxmox cluster', false, false),
      ('group', 'an inventory group', false, false),
      ('storage', 'a storage a host or cluster provides (Proxmox storage, a mount)', false, true),
      ('pool', 'a storage pool (ZFS, Ceph)', false, true),
      ('share', 'an NFS or SMB export', false, true),
      ('nas', 'a network storage appliance', false, true),
      ('service', 'a service a guest or host runs (systemd unit, compose service, daemon)', false, true),
      ('container', 'a Docker or Podman container inside a guest or host', false, true),
      ('stack', 'a Docker Compose project', false, true),
      ('volume', 'a Docker volume or a data directory a service keeps its state in', false, true),
      ('port', 'a listening TCP or UDP port', false, true),
      ('task', 'one oikos task (a session): written by the gates, never proposed', false, false)
    ON CONFLICT (name) DO NOTHING;
    INSERT INTO entity_types (name, description)
      SELECT DISTINCT type, 'in use before entity types were data' FROM entities
    ON CONFLICT (name) DO NOTHING;
    ALTER TABLE entities ADD CONSTRAINT entities_type_known
      FOREIGN KEY (type) REFERENCES entity_types(name);

    INSERT INTO relationship_types (name, description, source_types, target_types, dependent_side) VALUES
      ('part-of', 'the source is part of the target (container part-of stack, volume part-of stack)',
        '["service","container","volume","port","stack","storage"]'::jsonb,
        '["stack","service","container","lxc","vm","host"]'::jsonb, 'source'),
      ('exposes', 'the source listens on the target port',
        '["service","container","stack","host","lxc","vm"]'::jsonb, '["port"]'::jsonb, 'target')
    ON CONFLICT (name) DO NOTHING;
    UPDATE relationship_types SET source_types = '["task"]'::jsonb,
           description = 'a task involves the target: written by the gates, one edge per entity a task touched'
     WHERE name = 'involves'
       AND NOT EXISTS (SELECT 1 FROM relationships r JOIN entities e ON e.slug = r.source_slug
                        WHERE r.type = 'involves' AND e.type <> 'task');

    ALTER TABLE entities ADD COLUMN discovered_at timestamptz;
    ALTER TABLE entities ADD COLUMN last_seen_at timestamptz;
    ALTER TABLE entities ADD COLUMN stale_since timestamptz;
    CREATE TABLE entity_sightings (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      entity_slug text NOT NULL REFERENCES entities(slug) ON DELETE CASCADE,
      session_id text NOT NULL,
      execution_id text NOT NULL,
      command text NOT NULL,
      evidence text NOT NULL,
      seen_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX entity_sightings_entity ON entity_sightings (entity_slug, seen_at);
`;
