import type { Kysely } from "kysely";
import { executeStatements } from "./statements.ts";

// Core tables from ARCHITECTURE.md "Data". Forward-only: never edit once landed; add a new file.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(db, DDL);
}

const DDL = `
    CREATE TABLE entities (
      slug text PRIMARY KEY,
      type text NOT NULL,
      name text NOT NULL,
      state text NOT NULL DEFAULT 'active',
      attributes jsonb NOT NULL DEFAULT '{}'::jsonb,
      transport text NOT NULL DEFAULT 'ssh',
      parent_slug text REFERENCES entities(slug) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX entities_type_state ON entities (type, state);

    CREATE TABLE entity_attribute_changes (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      entity_slug text NOT NULL REFERENCES entities(slug) ON DELETE CASCADE,
      key text NOT NULL,
      old_value jsonb,
      new_value jsonb,
      changed_by text NOT NULL,
      session_id text,
      changed_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX entity_attribute_changes_entity ON entity_attribute_changes (entity_slug, changed_at);

    CREATE TABLE relationship_types (
      name text PRIMARY KEY,
      description text NOT NULL,
      source_types jsonb NOT NULL DEFAULT '[]'::jsonb,
      target_types jsonb NOT NULL DEFAULT '[]'::jsonb
    );

    CREATE TABLE relationships (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      source_slug text NOT NULL REFERENCES entities(slug) ON DELETE CASCADE,
      target_slug text NOT NULL REFERENCES entities(slug) ON DELETE CASCADE,
      type text NOT NULL REFERENCES relationship_types(name),
      attributes jsonb NOT NULL DEFAULT '{}'::jsonb,
      created_by text,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (source_slug, target_slug, type)
    );
    CREATE INDEX relationships_target ON relationships (target_slug, type);

    CREATE TABLE knowledge (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      slug text NOT NULL UNIQUE,
      kind text NOT NULL,
      title text NOT NULL,
      content text NOT NULL,
      tags jsonb NOT NULL DEFAULT '[]'::jsonb,
      superseded_by text,
      created_by text,
      session_id text,
      search tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('english', coalesce(title, '')), 'A') ||
        setweight(to_tsvector('english', coalesce(content, '')), 'B')
      ) STORED,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX knowledge_search ON knowledge USING gin (search);

    CREATE TABLE knowledge_about (
      knowledge_id bigint NOT NULL REFERENCES knowledge(id) ON DELETE CASCADE,
      entity_slug text NOT NULL REFERENCES entities(slug) ON DELETE CASCADE,
      PRIMARY KEY (knowledge_id, entity_slug)
    );
    CREATE INDEX knowledge_about_entity ON knowledge_about (entity_slug);

    CREATE TABLE sessions (
      id text PRIMARY KEY,
      platform text NOT NULL,
      room text NOT NULL,
      thread text NOT NULL,
      status text NOT NULL DEFAULT 'planning',
      goal text,
      outcome text,
      summary text,
      created_by text NOT NULL,
      plan_generation integer NOT NULL DEFAULT 0,
      requires_replan boolean NOT NULL DEFAULT false,
      live_discovery boolean NOT NULL DEFAULT false,
      entity_writeback boolean NOT NULL DEFAULT false,
      preplan_read_only_calls integer NOT NULL DEFAULT 0,
      nudged_at timestamptz,
      last_activity_at timestamptz NOT NULL DEFAULT now(),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      closed_at timestamptz,
      UNIQUE (platform, room, thread)
    );
    CREATE INDEX sessions_status_activity ON sessions (status, last_activity_at);

    CREATE TABLE goals (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      session_id text NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
      goal text NOT NULL,
      status text NOT NULL DEFAULT 'active',
      summary text,
      created_at timestamptz NOT NULL DEFAULT now(),
      closed_at timestamptz
    );
    CREATE INDEX goals_session ON goals (session_id, created_at);

    CREATE TABLE messages (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      session_id text NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
      role text NOT NULL,
      content text NOT NULL DEFAULT '',
      tool_calls jsonb,
      tool_call_id text,
      name text,
      author text,
      platform_event_id text,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX messages_session ON messages (session_id, id);

    CREATE TABLE plans (
      session_id text NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
      generation integer NOT NULL,
      status text NOT NULL DEFAULT 'proposed',
      needs_approval boolean NOT NULL DEFAULT true,
      decided_by text,
      decided_via text,
      decided_at timestamptz,
      card_ref jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (session_id, generation)
    );

    CREATE TABLE plan_steps (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      session_id text NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
      generation integer NOT NULL,
      seq integer NOT NULL,
      title text NOT NULL,
      detail text NOT NULL DEFAULT '',
      target text,
      risk text,
      status text NOT NULL DEFAULT 'pending',
      note text,
      execution_id text,
      replaced_reason text,
      started_at timestamptz,
      finished_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (session_id, generation, seq)
    );

    CREATE TABLE questions (
      id text PRIMARY KEY,
      session_id text NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
      prompt text NOT NULL,
      why text,
      options jsonb NOT NULL DEFAULT '[]'::jsonb,
      status text NOT NULL DEFAULT 'open',
      answer text,
      answered_by text,
      card_ref jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      answered_at timestamptz
    );
    CREATE INDEX questions_session_open ON questions (session_id, status);

    CREATE TABLE executions (
      id text PRIMARY KEY,
      session_id text REFERENCES sessions(id) ON DELETE SET NULL,
      plan_generation integer,
      step_seq integer,
      target text NOT NULL,
      command text NOT NULL,
      command_key text NOT NULL,
      risk text NOT NULL,
      purpose text NOT NULL DEFAULT '',
      status text NOT NULL,
      status_reason text,
      requested_by text NOT NULL,
      approval_id text,
      timeout_ms integer NOT NULL,
      deadline_at timestamptz,
      exit_code integer,
      signal text,
      stdout text,
      stderr text,
      output_bytes bigint,
      output_truncated boolean NOT NULL DEFAULT false,
      duration_ms integer,
      worker_id text,
      heartbeat_at timestamptz,
      attempts integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      queued_at timestamptz,
      started_at timestamptz,
      finished_at timestamptz
    );
    CREATE INDEX executions_session ON executions (session_id, created_at);
    CREATE INDEX executions_status ON executions (status);
    CREATE INDEX executions_key ON executions (session_id, command_key);

    CREATE TABLE approvals (
      id text PRIMARY KEY,
      session_id text NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
      subject text NOT NULL,
      execution_id text REFERENCES executions(id) ON DELETE CASCADE,
      plan_generation integer,
      command_key text,
      target text,
      risk text,
      status text NOT NULL DEFAULT 'pending',
      required_phrase text,
      decided_by text,
      channel text,
      decided_at timestamptz,
      expires_at timestamptz NOT NULL,
      card_ref jsonb,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX approvals_session_status ON approvals (session_id, status);
    CREATE UNIQUE INDEX approvals_one_pending_execution_per_session
      ON approvals (session_id) WHERE status = 'pending' AND subject = 'execution';

    CREATE TABLE windows (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      session_id text NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
      kind text NOT NULL,
      target text NOT NULL DEFAULT '',
      opened_by text NOT NULL,
      channel text NOT NULL,
      opened_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      UNIQUE (session_id, kind, target)
    );

    CREATE TABLE classifications (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      session_id text,
      target text NOT NULL,
      command text NOT NULL,
      command_key text NOT NULL,
      risk text NOT NULL,
      reasons jsonb NOT NULL DEFAULT '[]'::jsonb,
      decision text,
      created_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE feedback (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      session_id text NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
      outcome text NOT NULL,
      plan_adherence real,
      root_cause text,
      notes text,
      created_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE patterns (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      kind text NOT NULL,
      key text NOT NULL,
      description text NOT NULL,
      occurrences integer NOT NULL DEFAULT 1,
      suggested_runbook text,
      last_seen_at timestamptz NOT NULL DEFAULT now(),
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (kind, key)
    );

    CREATE TABLE audit_log (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      session_id text,
      actor text NOT NULL,
      action text NOT NULL,
      subject text,
      details jsonb NOT NULL DEFAULT '{}'::jsonb,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX audit_log_session ON audit_log (session_id, created_at);

    CREATE TABLE token_usage (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      session_id text,
      model text NOT NULL,
      prompt_tokens integer NOT NULL DEFAULT 0,
      completion_tokens integer NOT NULL DEFAULT 0,
      total_tokens integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE chat_events (
      platform text NOT NULL,
      event_id text NOT NULL,
      room text,
      received_at timestamptz NOT NULL DEFAULT now(),
      processed_at timestamptz,
      PRIMARY KEY (platform, event_id)
    );

    CREATE TABLE kv (
      key text PRIMARY KEY,
      value jsonb NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE known_hosts (
      host_port text PRIMARY KEY,
      fingerprint text NOT NULL,
      first_seen_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE queue_jobs (
      id text PRIMARY KEY,
      queue text NOT NULL,
      name text NOT NULL,
      data jsonb NOT NULL,
      status text NOT NULL DEFAULT 'waiting',
      attempts integer NOT NULL DEFAULT 0,
      max_attempts integer NOT NULL DEFAULT 1,
      run_at timestamptz NOT NULL DEFAULT now(),
      last_error text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX queue_jobs_status ON queue_jobs (queue, status, run_at);
`;
