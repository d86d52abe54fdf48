import { type AlertRouteConfig, type ChatPlatform, platformOf } from "../config.ts";
import { matches } from "./matchers.ts";
import type { AlertNotification } from "./notification.ts";

/** Where an alert group's thread goes, who is mentioned, and whether the agent investigates. */
export interface AlertRoute {
  platform: ChatPlatform;
  room: string;
  mention: string[];
  investigate: boolean;
  /** Index of the route in alerts.routes, for the log. */
  index: number;
}

/**
 * The first route (in config order) whose conditions all hold: the source is one of `sources`,
 * every label matcher matches the group's labels (common labels, else those of the first alert),
 * and the severity is one of `severity`. A route without conditions catches everything; null
 * when no route matches.
 */
export function routeAlert(
  routes: readonly AlertRouteConfig[],
  source: string,
  notification: AlertNotification,
): AlertRoute | null {
  const labels = { ...(notification.alerts[0]?.labels ?? {}), ...notification.labels };
  const severity = (notification.severity ?? labels.severity ?? "").toLowerCase();
  for (const [index, route] of routes.entries()) {
    const { match } = route;
    if (match.sources && !match.sources.includes(source)) continue;
    if (match.labels && !match.labels.every((m) => matches(m, labels))) continue;
    if (match.severity && !match.severity.some((s) => s.toLowerCase() === severity)) continue;
    return {
      platform: platformOf(route),
      room: route.room,
      mention: route.mention,
      investigate: route.investigate,
      index,
    };
  }
  return null;
}
