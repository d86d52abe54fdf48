import type { Kysely } from "kysely";
import { executeStatements } from "./statements.ts";

// Alert intake (intake/alerts). An alert group is the unit of one chat thread: its source and
// group key (Alertmanager's groupKey, a monitor id …), whether it fires, where it was routed, the
// entities its labels matched, and the investigation it started. At most one group per source and
// group key fires at a time (the partial unique index): a repeat finds it instead of opening
// another. `alerts` holds each alert of a group by fingerprint; `alert_deliveries` every accepted
// webhook request with what it did.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(db, DDL);
}

const DDL = `
    CREATE TABLE alert_groups (
      id text PRIMARY KEY,
      source text NOT NULL,
      source_kind text NOT NULL,
      group_key text NOT NULL,
      status text NOT NULL,
      title text NOT NULL,
      severity text,
      labels jsonb NOT NULL DEFAULT '{}',
      annotations jsonb NOT NULL DEFAULT '{}',
      entities jsonb NOT NULL DEFAULT '[]',
      unmatched jsonb NOT NULL DEFAULT '[]',
      brief text NOT NULL DEFAULT '',
      platform text,
      room text,
      mentions jsonb NOT NULL DEFAULT '[]',
      investigate boolean NOT NULL DEFAULT true,
      investigation text NOT NULL DEFAULT 'none',
      thread text,
      session_id text REFERENCES sessions(id) ON DELETE SET NULL,
      fire_count integer NOT NULL DEFAULT 1,
      flap_count integer NOT NULL DEFAULT 0,
      unposted integer NOT NULL DEFAULT 0,
      first_seen_at timestamptz NOT NULL DEFAULT now(),
      last_seen_at timestamptz NOT NULL DEFAULT now(),
      last_posted_at timestamptz,
      resolved_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX alert_groups_firing ON alert_groups (source, group_key) WHERE status = 'firing';
    CREATE INDEX alert_groups_latest ON alert_groups (source, group_key, first_seen_at);
    CREATE INDEX alert_groups_session ON alert_groups (session_id);
    CREATE INDEX alert_groups_investigation ON alert_groups (investigation, first_seen_at);

    CREATE TABLE alerts (
      group_id text NOT NULL REFERENCES alert_groups(id) ON DELETE CASCADE,
      source text NOT NULL,
      group_key text NOT NULL,
      fingerprint text NOT NULL,
      status text NOT NULL,
      labels jsonb NOT NULL DEFAULT '{}',
      annotations jsonb NOT NULL DEFAULT '{}',
      starts_at timestamptz,
      ends_at timestamptz,
      generator_url text,
      first_seen_at timestamptz NOT NULL DEFAULT now(),
      last_seen_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (group_id, fingerprint)
    );
    CREATE INDEX alerts_source_fingerprint ON alerts (source, fingerprint);

    CREATE TABLE alert_deliveries (
      id text PRIMARY KEY,
      source text NOT NULL,
      group_id text REFERENCES alert_groups(id) ON DELETE SET NULL,
      outcome text NOT NULL,
      payload jsonb NOT NULL,
      received_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX alert_deliveries_group ON alert_deliveries (group_id, received_at);
`;
