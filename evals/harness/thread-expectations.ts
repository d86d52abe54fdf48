import type { Kysely } from "kysely";
import { z } from "zod";
import type { Database } from "../../store/schema.ts";
import { OUTCOMES, PLAN_STATUSES, SESSION_STATUSES } from "../../store/statuses.ts";
import { type CountSpec, checkCount, count } from "./count.ts";

/**
 * Per-thread expectations on the session and its plans. `status_in` / `outcome_in` accept any of
 * several values (a task that may end done or failed depending on timing); `plans` takes one
 * entry or a list, one per thread.
 */
export const sessionSpec = z
  .object({
    thread: z.string().default("main"),
    status: z.enum(SESSION_STATUSES).optional(),
    status_in: z.array(z.enum(SESSION_STATUSES)).min(1).optional(),
    outcome: z.enum(OUTCOMES).optional(),
    outcome_in: z.array(z.enum(OUTCOMES)).min(1).optional(),
    summary_contains: z.string().optional(),
  })
  .strict();
export type SessionSpec = z.infer<typeof sessionSpec>;

const planSpec = z
  .object({
    thread: z.string().default("main"),
    generations: count.optional(),
    status: z.enum(PLAN_STATUSES).optional(),
    status_in: z.array(z.enum(PLAN_STATUSES)).min(1).optional(),
    decided_via: z.string().optional(),
    decided_by: z.string().optional(),
    /** Check this generation instead of the latest (e.g. the plan sent back with changes). */
    generation: z.number().int().min(1).optional(),
    /** The operator sent the plan back with changes whose reason contains this text. */
    changes_requested: z.string().optional(),
  })
  .strict();
/** One entry is read as a list of one (not a union, so a bad key is still named by its path). */
export const plansSpec = z.preprocess(
  (value) => (value === undefined || Array.isArray(value) ? value : [value]),
  z.array(planSpec).min(1),
);
export type PlanSpec = z.infer<typeof planSpec>;

type SessionOf = (thread: string) => Promise<string | undefined>;

function oneOf(
  what: string,
  actual: string | null,
  wanted: readonly string[] | undefined,
  failures: string[],
) {
  if (wanted && !wanted.includes(actual ?? "none"))
    failures.push(`${what} ${actual ?? "none"}, expected one of ${wanted.join(", ")}`);
}

/** Each spec with the session of its thread; a thread that never got one is a failure. */
async function* withSessions<T extends { thread: string }>(
  specs: T[],
  sessionOf: SessionOf,
  failures: string[],
): AsyncGenerator<[T, string]> {
  for (const spec of specs) {
    const id = await sessionOf(spec.thread);
    if (id) yield [spec, id];
    else failures.push(`no session for thread ${spec.thread}`);
  }
}

export async function checkSessions(
  db: Kysely<Database>,
  specs: SessionSpec[],
  sessionOf: SessionOf,
  failures: string[],
): Promise<void> {
  for await (const [spec, id] of withSessions(specs, sessionOf, failures)) {
    const row = await db.selectFrom("sessions").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    if (spec.status && row.status !== spec.status)
      failures.push(`session ${spec.thread}: status ${row.status}, expected ${spec.status}`);
    oneOf(`session ${spec.thread}: status`, row.status, spec.status_in, failures);
    if (spec.outcome && row.outcome !== spec.outcome)
      failures.push(`session ${spec.thread}: outcome ${row.outcome ?? "none"}, expected ${spec.outcome}`);
    oneOf(`session ${spec.thread}: outcome`, row.outcome, spec.outcome_in, failures);
    const contains = spec.summary_contains;
    if (contains && !(row.summary ?? "").toLowerCase().includes(contains.toLowerCase()))
      failures.push(`session ${spec.thread}: summary does not mention "${contains}"`);
  }
}

export async function checkPlans(
  db: Kysely<Database>,
  specs: PlanSpec[],
  sessionOf: SessionOf,
  failures: string[],
): Promise<void> {
  for await (const [spec, id] of withSessions(specs, sessionOf, failures)) {
    const plans = await db
      .selectFrom("plans")
      .selectAll()
      .where("session_id", "=", id)
      .orderBy("generation")
      .execute();
    const where = `thread ${spec.thread}`;
    checkCount(`plan generations in ${where}`, plans.length, spec.generations as CountSpec, failures);
    const which = spec.generation === undefined ? "latest plan" : `plan ${spec.generation}`;
    const last =
      spec.generation === undefined ? plans.at(-1) : plans.find((p) => p.generation === spec.generation);
    if (spec.status && last?.status !== spec.status)
      failures.push(`${which} in ${where} is ${last?.status ?? "missing"}, expected ${spec.status}`);
    oneOf(`${which} in ${where} is`, last?.status ?? null, spec.status_in, failures);
    if (spec.changes_requested !== undefined) {
      const reason = last?.changes_requested?.reason ?? "";
      if (!reason.toLowerCase().includes(spec.changes_requested.toLowerCase()))
        failures.push(
          `${which} in ${where} was not sent back with changes mentioning "${spec.changes_requested}" (${reason ? `reason: ${reason}` : "no changes requested"})`,
        );
    }
    if (spec.decided_via && last?.decided_via !== spec.decided_via)
      failures.push(
        `plan in ${where} decided via ${last?.decided_via ?? "nothing"}, expected ${spec.decided_via}`,
      );
    if (spec.decided_by && last?.decided_by !== spec.decided_by)
      failures.push(
        `plan in ${where} decided by ${last?.decided_by ?? "nobody"}, expected ${spec.decided_by}`,
      );
  }
}
