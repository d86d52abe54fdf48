import type { AlertStatus } from "./notification.ts";

/** What the latest group of a source's group key looks like, as far as the decision needs it. */
export interface GroupFacts {
  status: AlertStatus;
  lastPostedAt: Date | null;
  resolvedAt: Date | null;
}

/**
 * What one notification does to its alert group. Pure, so every case is tested on its own:
 * - open: nothing fires under this key (never seen, or resolved longer than minInterval ago):
 *   a new group, a new thread, an investigation.
 * - repeat: the group fires already: into its thread, posted at most once per minInterval.
 * - refire: it resolved less than minInterval ago (flapping): the same thread, no new
 *   investigation, posted at most once per minInterval.
 * - resolve: the firing group resolved: always posted.
 * - stale: a resolution for a group that does not fire: recorded, nothing posted.
 */
export type Decision =
  | { action: "open" }
  | { action: "repeat"; post: boolean }
  | { action: "refire"; post: boolean }
  | { action: "resolve" }
  | { action: "stale" };

export function decide(
  latest: GroupFacts | undefined,
  status: AlertStatus,
  now: Date,
  minIntervalMs: number,
): Decision {
  const quietLongEnough = (at: Date | null) => at === null || now.getTime() - at.getTime() >= minIntervalMs;
  if (status === "resolved") return latest?.status === "firing" ? { action: "resolve" } : { action: "stale" };
  if (!latest) return { action: "open" };
  if (latest.status === "firing") return { action: "repeat", post: quietLongEnough(latest.lastPostedAt) };
  if (latest.resolvedAt && !quietLongEnough(latest.resolvedAt)) {
    return { action: "refire", post: quietLongEnough(latest.lastPostedAt) };
  }
  return { action: "open" };
}
