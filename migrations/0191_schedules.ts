import type { Kysely } from "kysely";
import { executeStatements } from "./statements.ts";

// Schedules (intake/schedules): which are paused (by whom, when), and one row per fire that ran,
// keyed by the fire's job id, so a fire delivered twice starts one task. A run's thread is
// `deferred` until it has something to show (a plan, a question, a finding); a run that finds
// nothing wrong ends `quiet` (one line in the room, or nothing).
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(db, DDL);
}

const DDL = `
    CREATE TABLE schedule_state (
      name text PRIMARY KEY,
      paused boolean NOT NULL DEFAULT false,
      changed_by text,
      changed_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE schedule_runs (
      fire_id text PRIMARY KEY,
      schedule text NOT NULL,
      session_id text REFERENCES sessions(id) ON DELETE SET NULL,
      outcome text NOT NULL,
      thread_state text NOT NULL DEFAULT 'deferred',
      fired_at timestamptz NOT NULL DEFAULT now(),
      finished_at timestamptz
    );
    CREATE INDEX schedule_runs_schedule ON schedule_runs (schedule, fired_at);
    CREATE UNIQUE INDEX schedule_runs_session ON schedule_runs (session_id);
`;
