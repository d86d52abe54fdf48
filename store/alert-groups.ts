import { randomUUID } from "node:crypto";
import { type Kysely, type Selectable, sql } from "kysely";
import type { AlertGroupsTable, Database } from "./schema.ts";

export type AlertGroup = Selectable<AlertGroupsTable>;
export type InvestigationState = AlertGroup["investigation"];

/** One alert of a group as the intake stores it. */
export interface StoredAlertInput {
  fingerprint: string;
  status: "firing" | "resolved";
  labels: Record<string, string>;
  annotations: Record<string, string>;
  startsAt: Date | null;
  endsAt: Date | null;
  generatorUrl: string | null;
}

export interface NewAlertGroup {
  source: string;
  sourceKind: string;
  groupKey: string;
  title: string;
  severity: string | null;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  entities: string[];
  unmatched: string[];
  brief: string;
  platform: string | null;
  room: string | null;
  mentions: string[];
  investigate: boolean;
  investigation: InvestigationState;
}

/** The most recent group of a source's group key (firing or not). */
export async function latestAlertGroup(
  db: Kysely<Database>,
  source: string,
  groupKey: string,
): Promise<AlertGroup | undefined> {
  return db
    .selectFrom("alert_groups")
    .selectAll()
    .where("source", "=", source)
    .where("group_key", "=", groupKey)
    .orderBy("first_seen_at", "desc")
    .limit(1)
    .executeTakeFirst();
}

export async function getAlertGroup(db: Kysely<Database>, id: string): Promise<AlertGroup | undefined> {
  return db.selectFrom("alert_groups").selectAll().where("id", "=", id).executeTakeFirst();
}

/** The alert group whose thread this session is (undefined for typed tasks). */
export async function alertGroupOfSession(
  db: Kysely<Database>,
  sessionId: string,
): Promise<AlertGroup | undefined> {
  return db
    .selectFrom("alert_groups")
    .selectAll()
    .where("session_id", "=", sessionId)
    .orderBy("first_seen_at", "desc")
    .limit(1)
    .executeTakeFirst();
}

/**
 * Opens a firing group; undefined when one of this source and group key already fires (two
 * deliveries raced: the caller treats this one as a repeat).
 */
export async function insertAlertGroup(
  db: Kysely<Database>,
  group: NewAlertGroup,
  now: Date,
): Promise<AlertGroup | undefined> {
  return db
    .insertInto("alert_groups")
    .values({
      id: randomUUID(),
      source: group.source,
      source_kind: group.sourceKind,
      group_key: group.groupKey,
      status: "firing",
      title: group.title,
      severity: group.severity,
      labels: JSON.stringify(group.labels),
      annotations: JSON.stringify(group.annotations),
      entities: JSON.stringify(group.entities),
      unmatched: JSON.stringify(group.unmatched),
      brief: group.brief,
      platform: group.platform,
      room: group.room,
      mentions: JSON.stringify(group.mentions),
      investigate: group.investigate,
      investigation: group.investigation,
      thread: null,
      session_id: null,
      first_seen_at: now,
      last_seen_at: now,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.columns(["source", "group_key"]).where("status", "=", "firing").doNothing())
    .returningAll()
    .executeTakeFirst();
}

export type GroupChange =
  /**
   * Another notification of a firing group; `describe`: the labels and annotations it carries now,
   * stored when they changed and the update is posted (the thread is shown what changed).
   */
  | {
      kind: "seen";
      post: boolean;
      describe?: { labels: Record<string, string>; annotations: Record<string, string> };
    }
  /** firing → resolved. */
  | { kind: "resolved" }
  /** resolved → firing again (flapping); the same thread. */
  | { kind: "refired"; post: boolean };

/**
 * Applies one notification to an existing group with a conditional update (the group must still
 * be in the state the caller saw); false when another delivery changed it first. `post` false
 * counts the update as unposted (flap damping); a post resets that count.
 */
export async function changeAlertGroup(
  db: Kysely<Database>,
  id: string,
  change: GroupChange,
  now: Date,
): Promise<boolean> {
  const posted = change.kind === "resolved" || change.post;
  const base = {
    last_seen_at: now,
    updated_at: now,
    ...(posted ? { last_posted_at: now, unposted: 0 } : { unposted: sql<number>`unposted + 1` }),
  };
  let query = db.updateTable("alert_groups").where("id", "=", id);
  if (change.kind === "seen") {
    const described = change.describe
      ? {
          labels: JSON.stringify(change.describe.labels),
          annotations: JSON.stringify(change.describe.annotations),
        }
      : {};
    query = query
      .set({ ...base, ...described, fire_count: sql<number>`fire_count + 1` })
      .where("status", "=", "firing");
  } else if (change.kind === "resolved") {
    query = query.set({ ...base, status: "resolved", resolved_at: now }).where("status", "=", "firing");
  } else {
    query = query
      .set({
        ...base,
        status: "firing",
        resolved_at: null,
        fire_count: sql<number>`fire_count + 1`,
        flap_count: sql<number>`flap_count + 1`,
      })
      .where("status", "=", "resolved");
  }
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Upserts the alerts of one notification into their group (status, labels, last seen). */
export async function recordAlerts(
  db: Kysely<Database>,
  group: Pick<AlertGroup, "id" | "source" | "group_key">,
  alerts: readonly StoredAlertInput[],
  now: Date,
): Promise<void> {
  for (const alert of alerts) {
    const row = {
      status: alert.status,
      labels: JSON.stringify(alert.labels),
      annotations: JSON.stringify(alert.annotations),
      starts_at: alert.startsAt,
      ends_at: alert.endsAt,
      generator_url: alert.generatorUrl,
      last_seen_at: now,
    };
    await db
      .insertInto("alerts")
      .values({
        group_id: group.id,
        source: group.source,
        group_key: group.group_key,
        fingerprint: alert.fingerprint,
        first_seen_at: now,
        ...row,
      })
      .onConflict((oc) => oc.columns(["group_id", "fingerprint"]).doUpdateSet(row))
      .execute();
  }
}

export async function recordDelivery(
  db: Kysely<Database>,
  delivery: { source: string; groupId: string | null; outcome: string; payload: unknown },
  now: Date,
): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto("alert_deliveries")
    .values({
      id,
      source: delivery.source,
      group_id: delivery.groupId,
      outcome: delivery.outcome,
      payload: JSON.stringify(delivery.payload),
      received_at: now,
    })
    .execute();
  return id;
}

/** The thread and session the bot opened for a group (set once). */
export async function bindAlertThread(
  db: Kysely<Database>,
  id: string,
  binding: { thread: string; sessionId: string },
  now: Date,
): Promise<void> {
  await db
    .updateTable("alert_groups")
    .set({ thread: binding.thread, session_id: binding.sessionId, last_posted_at: now, updated_at: now })
    .where("id", "=", id)
    .execute();
}

/**
 * Claims the digest of the `held` damped updates a handler read: the count starts again only if it
 * is still `held` (one conditional update). Two digest runs of one group (a stalled job run again,
 * a second worker) read the same count; only the one whose claim succeeds posts. False: another
 * post covered them, or more were held meanwhile (read again).
 */
export async function claimAlertDigest(
  db: Kysely<Database>,
  id: string,
  held: number,
  now: Date,
): Promise<boolean> {
  if (held <= 0) return false;
  const result = await db
    .updateTable("alert_groups")
    .set({ unposted: 0, last_posted_at: now, updated_at: now })
    .where("id", "=", id)
    .where("unposted", "=", held)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function alertsOfGroup(db: Kysely<Database>, groupId: string) {
  return db
    .selectFrom("alerts")
    .selectAll()
    .where("group_id", "=", groupId)
    .orderBy("first_seen_at")
    .execute();
}

/** Alert investigations the agent is working on now (the slots alerts.maxConcurrent bounds). */
export async function countInvestigating(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom("alert_groups")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("investigation", "=", "investigating")
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Deletes the stored webhook requests older than `olderThan` (groups and alerts stay); returns how many. */
export async function pruneAlertDeliveries(db: Kysely<Database>, olderThan: Date): Promise<number> {
  const result = await db
    .deleteFrom("alert_deliveries")
    .where("received_at", "<", olderThan)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export interface InvestigationSlots {
  /** Sessions whose investigation starts now. */
  started: string[];
  /** Investigations that reported (plan, question, or closed) and freed their slot. */
  reported: number;
  /** Waiting investigations dropped because their alert resolved first. */
  skipped: number;
}

/** Serialises dispatchers on Postgres (several `oikos worker` processes); PGlite has one connection anyway. */
const DISPATCH_LOCK_KEY = 0x0a1e_47d1;

/**
 * Frees the slots of investigations that reported (the session has a plan or an open question, or
 * closed), drops waiting ones whose alert resolved, and marks the oldest waiting ones investigating
 * while fewer than `maxConcurrent` are. One transaction under an advisory lock, so two dispatchers
 * never overfill the slots.
 */
export async function claimInvestigationSlots(
  db: Kysely<Database>,
  slots: { maxConcurrent: number; dialect: "postgres" | "pglite" },
): Promise<InvestigationSlots> {
  return db.transaction().execute(async (tx) => {
    if (slots.dialect === "postgres")
      await sql`SELECT pg_advisory_xact_lock(${DISPATCH_LOCK_KEY})`.execute(tx);
    const reported = await tx
      .updateTable("alert_groups")
      .set({ investigation: "reported", updated_at: new Date() })
      .where("investigation", "=", "investigating")
      .where((eb) =>
        eb.or([
          eb("session_id", "is", null),
          eb.exists(
            eb
              .selectFrom("sessions")
              .select("sessions.id")
              .whereRef("sessions.id", "=", "alert_groups.session_id")
              .where("sessions.status", "in", ["done", "failed"]),
          ),
          eb.exists(
            eb
              .selectFrom("plans")
              .select("plans.session_id")
              .whereRef("plans.session_id", "=", "alert_groups.session_id"),
          ),
          eb.exists(
            eb
              .selectFrom("questions")
              .select("questions.id")
              .whereRef("questions.session_id", "=", "alert_groups.session_id")
              .where("questions.status", "=", "open"),
          ),
        ]),
      )
      .executeTakeFirst();
    const skipped = await tx
      .updateTable("alert_groups")
      .set({ investigation: "skipped", updated_at: new Date() })
      .where("investigation", "=", "waiting")
      .where("status", "=", "resolved")
      .executeTakeFirst();
    const running = await tx
      .selectFrom("alert_groups")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("investigation", "=", "investigating")
      .executeTakeFirstOrThrow();
    const free = slots.maxConcurrent - Number(running.n);
    const started: string[] = [];
    if (free > 0) {
      const next = await tx
        .selectFrom("alert_groups")
        .select(["id", "session_id"])
        .where("investigation", "=", "waiting")
        .where("session_id", "is not", null)
        .orderBy("first_seen_at")
        .limit(free)
        .execute();
      for (const group of next) {
        await tx
          .updateTable("alert_groups")
          .set({ investigation: "investigating", updated_at: new Date() })
          .where("id", "=", group.id)
          .execute();
        started.push(group.session_id!);
      }
    }
    return {
      started,
      reported: Number(reported.numUpdatedRows),
      skipped: Number(skipped.numUpdatedRows),
    };
  });
}

/**
 * What tells the alerts of one group apart (a group Alertmanager keyed by `alertname` only holds
 * one alert per host): for each alert, its labels whose value is not the same in every alert of the
 * group, in the order the alert gives them. One alert, or alerts with the same labels: nothing.
 * Pure: the alert card (stored alerts) and the agent's brief (a notification) both show it.
 */
export function labelsThatDiffer(
  alerts: readonly { labels: Record<string, string> }[],
): Record<string, string>[] {
  const keys = new Set(alerts.flatMap((alert) => Object.keys(alert.labels)));
  const differ = new Set(
    [...keys].filter((key) => new Set(alerts.map((alert) => alert.labels[key])).size > 1),
  );
  return alerts.map((alert) =>
    Object.fromEntries(Object.entries(alert.labels).filter(([key]) => differ.has(key))),
  );
}

/** The labels every alert of the group carries with the same value. */
export function labelsInCommon(
  alerts: readonly { labels: Record<string, string> }[],
): Record<string, string> {
  const [first, ...rest] = alerts;
  if (!first) return {};
  return Object.fromEntries(
    Object.entries(first.labels).filter(([key, value]) => rest.every((alert) => alert.labels[key] === value)),
  );
}

/**
 * A later notification of the group carried alerts it did not have at first (another host firing
 * under the same alertname): the entities and unmatched labels they name join the group's, in order,
 * never removed. Returns whether anything was added.
 */
export async function addAlertGroupEntities(
  db: Kysely<Database>,
  id: string,
  named: { slugs: readonly string[]; unmatched: readonly string[] },
  now: Date,
): Promise<boolean> {
  const group = await getAlertGroup(db, id);
  if (!group) return false;
  const entities = [...new Set([...group.entities, ...named.slugs])];
  const unmatched = [...new Set([...group.unmatched, ...named.unmatched])];
  if (entities.length === group.entities.length && unmatched.length === group.unmatched.length) return false;
  await db
    .updateTable("alert_groups")
    .set({ entities: JSON.stringify(entities), unmatched: JSON.stringify(unmatched), updated_at: now })
    .where("id", "=", id)
    .execute();
  return true;
}
