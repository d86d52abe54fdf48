import type { Kysely } from "kysely";
import { z } from "zod";
import type { Database } from "../../store/schema.ts";
import { checkCount, count } from "./count.ts";

/**
 * Timing figures computed from what the run stored (not from the harness's wall clock, which
 * includes booting the app and seeding): reported for every scenario, asserted with `expect.timing`.
 */
export interface TimingFigures {
  /** First operator message stored → last stored activity (message, execution end, card). */
  run_ms: number;
  /** Slowest first answer: per thread, the operator's first message → the agent's first message. */
  first_answer_ms: number;
  /** Most executions running at the same moment (from started_at / finished_at). */
  peak_executions: number;
  /** Longest single execution (started_at → finished_at). */
  longest_execution_ms: number;
  /** Sessions (threads) the run created. */
  sessions: number;
}

const ms = z.object({ max: z.number().int().min(1) }).strict();

/**
 * `expect.timing`: `*_ms` take a `max` that fails only beyond max × OIKOS_EVAL_TIMING_SLACK (default
 * 2, so a slow machine does not fail them; between the two it is reported as a note); counts take a
 * count (`peak_executions: { min: 5 }`).
 */
export const timingSpec = z
  .object({
    run_ms: ms.optional(),
    first_answer_ms: ms.optional(),
    longest_execution_ms: ms.optional(),
    peak_executions: count.optional(),
    sessions: count.optional(),
  })
  .strict();
export type TimingSpec = z.infer<typeof timingSpec>;

const time = (value: Date | string | null | undefined) => (value ? new Date(value).getTime() : Number.NaN);

export async function readTiming(db: Kysely<Database>): Promise<TimingFigures> {
  const messages = await db.selectFrom("messages").select(["session_id", "role", "created_at"]).execute();
  const executions = await db.selectFrom("executions").select(["started_at", "finished_at"]).execute();
  const cards = await db.selectFrom("chat_cards").select("created_at").execute();
  const sessions = await db.selectFrom("sessions").select(["id", "created_at"]).execute();

  const starts = sessions.map((s) => time(s.created_at));
  const ends = [
    ...messages.map((m) => time(m.created_at)),
    ...executions.map((e) => time(e.finished_at)),
    ...cards.map((c) => time(c.created_at)),
  ].filter(Number.isFinite);
  const run = starts.length && ends.length ? Math.max(...ends) - Math.min(...starts) : 0;

  let firstAnswer = 0;
  for (const session of sessions) {
    const own = messages.filter((m) => m.session_id === session.id);
    const asked = Math.min(...own.filter((m) => m.role === "user").map((m) => time(m.created_at)));
    const answered = Math.min(...own.filter((m) => m.role === "assistant").map((m) => time(m.created_at)));
    if (Number.isFinite(asked) && Number.isFinite(answered))
      firstAnswer = Math.max(firstAnswer, answered - asked);
  }

  const spans = executions
    .map((e) => [time(e.started_at), time(e.finished_at)] as const)
    .filter(([start, end]) => Number.isFinite(start) && Number.isFinite(end));
  return {
    run_ms: Math.max(0, Math.round(run)),
    first_answer_ms: Math.round(firstAnswer),
    peak_executions: peakOverlap(spans),
    longest_execution_ms: Math.round(Math.max(0, ...spans.map(([start, end]) => end - start))),
    sessions: sessions.length,
  };
}

/** Most spans open at one instant; a span ending exactly when another starts does not overlap it. */
export function peakOverlap(spans: readonly (readonly [number, number])[]): number {
  const events = spans.flatMap(([start, end]) => [
    [start, 1],
    [end, -1],
  ]);
  events.sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
  let running = 0;
  let peak = 0;
  for (const [, delta] of events) {
    running += delta!;
    peak = Math.max(peak, running);
  }
  return peak;
}

export function timingSlack(): number {
  const slack = Number(process.env.OIKOS_EVAL_TIMING_SLACK ?? 2);
  return Number.isFinite(slack) && slack >= 1 ? slack : 2;
}

/** Failures beyond the slack; figures over their bound but within it go to `notes`. */
export function checkTiming(
  spec: TimingSpec | undefined,
  figures: TimingFigures,
  failures: string[],
  notes: string[],
  slack = timingSlack(),
): void {
  if (!spec) return;
  for (const key of ["run_ms", "first_answer_ms", "longest_execution_ms"] as const) {
    const bound = spec[key]?.max;
    if (bound === undefined || figures[key] <= bound) continue;
    const line = `${key} ${figures[key]} over its bound ${bound}`;
    if (figures[key] > bound * slack) failures.push(`${line} × slack ${slack}`);
    else notes.push(`${line} (within slack ${slack})`);
  }
  checkCount("peak_executions", figures.peak_executions, spec.peak_executions, failures);
  checkCount("sessions", figures.sessions, spec.sessions, failures);
}
