import type { Logger } from "../../base/logger.ts";
import type { QueuePort } from "../../jobs/queue/port.ts";
import {
  type AlertGroup,
  addAlertGroupEntities,
  changeAlertGroup,
  insertAlertGroup,
  latestAlertGroup,
  recordAlerts,
  recordDelivery,
} from "../../store/alert-groups.ts";
import type { Db } from "../../store/db.ts";
import type { AlertSourceKind, AlertsConfig } from "../config.ts";
import { alertBrief } from "./brief.ts";
import { decide } from "./decide.ts";
import { loadEntityIdentities, matchAlertGroup } from "./match-entities.ts";
import type { AlertNotification, ParsedDelivery } from "./notification.ts";
import { routeAlert } from "./routing.ts";
import { alertChanges } from "./what-changed.ts";

/** What a delivery did, as the webhook response and the deliveries table say it. */
export type IntakeOutcome =
  | "opened"
  | "repeated"
  | "refired"
  | "resolved"
  | "damped"
  | "stale"
  | "unrouted"
  | "test"
  | "ignored";

export interface IntakeResult {
  outcome: IntakeOutcome;
  groupId: string | null;
  /** For the response body: what the operator will see, in words. */
  detail: string;
}

export interface IntakeDeps {
  db: Db;
  queue: QueuePort;
  config: AlertsConfig;
  logger: Logger;
  now?: () => Date;
}

/**
 * Records one accepted delivery and decides what it does (intake/alerts/decide.ts): a new group
 * with its route, matched entities and the agent's brief, or a change to the existing group.
 * Whatever reaches chat goes through an `alert-thread` job (the bot posts it): nothing is lost
 * when no chat adapter runs in this process, and a retried job posts once.
 */
export async function takeDelivery(
  deps: IntakeDeps,
  source: { name: string; kind: AlertSourceKind },
  delivery: ParsedDelivery,
): Promise<IntakeResult> {
  const now = deps.now?.() ?? new Date();
  if (delivery.kind !== "notification") {
    const outcome = delivery.kind === "test" ? "test" : "ignored";
    await recordDelivery(
      deps.db,
      { source: source.name, groupId: null, outcome, payload: delivery.stored },
      now,
    );
    const detail = delivery.kind === "test" ? "test notification received" : delivery.reason;
    return { outcome, groupId: null, detail };
  }
  const result = await apply(deps, source, delivery.notification, now);
  await recordDelivery(
    deps.db,
    { source: source.name, groupId: result.groupId, outcome: result.outcome, payload: delivery.stored },
    now,
  );
  deps.logger.info(
    { source: source.name, group: result.groupId, outcome: result.outcome },
    "alert delivery taken",
  );
  return result;
}

async function apply(
  deps: IntakeDeps,
  source: { name: string; kind: AlertSourceKind },
  notification: AlertNotification,
  now: Date,
): Promise<IntakeResult> {
  const { db, queue, config } = deps;
  // Two tries: a delivery that loses a race to another (the group changed under it) decides again.
  for (let attempt = 0; attempt < 2; attempt++) {
    const latest = await latestAlertGroup(db, source.name, notification.groupKey);
    const decision = decide(
      latest && {
        status: latest.status,
        lastPostedAt: latest.last_posted_at,
        resolvedAt: latest.resolved_at,
      },
      notification.status,
      now,
      config.minIntervalMs,
    );
    if (decision.action === "open") {
      const group = await open(deps, source, notification, now);
      if (!group) continue;
      await recordAlerts(db, group, notification.alerts, now);
      if (!group.room) {
        deps.logger.warn(
          { source: source.name, title: group.title },
          "alert matched no route in alerts.routes",
        );
        return {
          outcome: "unrouted",
          groupId: group.id,
          detail: "stored; no route in alerts.routes matches it",
        };
      }
      await queue.enqueue(
        "alert-thread",
        { groupId: group.id, update: "open" },
        { jobId: `alert:${group.id}:open`, attempts: 5 },
      );
      return { outcome: "opened", groupId: group.id, detail: `thread opened in ${group.room}` };
    }
    if (!latest)
      return { outcome: "stale", groupId: null, detail: "resolved, but nothing fires under this group" };
    if (decision.action === "stale") {
      await recordAlerts(db, latest, notification.alerts, now);
      return { outcome: "stale", groupId: latest.id, detail: "already resolved" };
    }
    // A posted repeat says what changed since the thread last saw the group's labels and annotations.
    const changed =
      decision.action === "repeat" && decision.post
        ? alertChanges(
            { labels: latest.labels, annotations: latest.annotations },
            { labels: notification.labels, annotations: notification.annotations },
          ).slice(0, MAX_CHANGES_SHOWN)
        : [];
    const change =
      decision.action === "resolve"
        ? ({ kind: "resolved" } as const)
        : decision.action === "repeat"
          ? ({
              kind: "seen",
              post: decision.post,
              ...(changed.length > 0
                ? { describe: { labels: notification.labels, annotations: notification.annotations } }
                : {}),
            } as const)
          : ({ kind: "refired", post: decision.post } as const);
    if (!(await changeAlertGroup(db, latest.id, change, now))) continue;
    await recordAlerts(db, latest, notification.alerts, now);
    // alerts that joined the group since it opened (another host, same alertname) name their entities too
    await addAlertGroupEntities(
      db,
      latest.id,
      matchAlertGroup(notification.labels, notification.alerts, await loadEntityIdentities(db)),
      now,
    );
    const posted = change.kind === "resolved" || change.post;
    const update = change.kind === "resolved" ? "resolved" : change.kind === "seen" ? "repeat" : "refire";
    if (posted && latest.room) {
      await queue.enqueue(
        "alert-thread",
        { groupId: latest.id, update, ...(changed.length > 0 ? { changed } : {}) },
        { jobId: `alert:${latest.id}:${update}:${now.getTime()}`, attempts: 5 },
      );
    }
    if (!posted && latest.room) {
      // Damped: the thread hears about it once the interval has passed, in one digest post.
      const due = (latest.last_posted_at?.getTime() ?? now.getTime()) + config.minIntervalMs;
      await queue.enqueue(
        "alert-thread",
        { groupId: latest.id, update: "digest" },
        { jobId: `alert:${latest.id}:digest`, delayMs: Math.max(0, due - now.getTime()), attempts: 5 },
      );
    }
    if (update === "resolved") await queue.enqueue("alert-dispatch", {}, { jobId: "alert-dispatch" });
    const outcome = !posted
      ? "damped"
      : update === "resolved"
        ? "resolved"
        : update === "repeat"
          ? "repeated"
          : "refired";
    return { outcome, groupId: latest.id, detail: describe(outcome) };
  }
  return {
    outcome: "damped",
    groupId: null,
    detail: "another delivery of this group was being handled; this one is recorded",
  };
}

/** A repeat lists at most this many changed labels and annotations (the alert-thread job's bound). */
const MAX_CHANGES_SHOWN = 100;

async function open(
  deps: IntakeDeps,
  source: { name: string; kind: AlertSourceKind },
  notification: AlertNotification,
  now: Date,
): Promise<AlertGroup | undefined> {
  const route = routeAlert(deps.config.routes, source.name, notification);
  const match = matchAlertGroup(
    notification.labels,
    notification.alerts,
    await loadEntityIdentities(deps.db),
  );
  return insertAlertGroup(
    deps.db,
    {
      source: source.name,
      sourceKind: source.kind,
      groupKey: notification.groupKey,
      title: notification.title,
      severity: notification.severity,
      labels: notification.labels,
      annotations: notification.annotations,
      entities: match.slugs,
      unmatched: match.unmatched,
      brief: alertBrief(source, notification, match),
      platform: route?.platform ?? null,
      room: route?.room ?? null,
      mentions: route?.mention ?? [],
      investigate: route?.investigate ?? false,
      investigation: route?.investigate ? "waiting" : "skipped",
    },
    now,
  );
}

function describe(outcome: IntakeOutcome): string {
  switch (outcome) {
    case "repeated":
      return "still firing; posted into its thread";
    case "refired":
      return "firing again soon after it resolved (flapping); posted into its thread, no new investigation";
    case "resolved":
      return "resolved; posted into its thread";
    case "damped":
      return "recorded; its thread was updated less than alerts.minIntervalMs ago";
    default:
      return outcome;
  }
}
