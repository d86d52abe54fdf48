import { z } from "zod";
import { cronProblem } from "../jobs/queue/cron.ts";
import { QUIET_MODES } from "../store/statuses.ts";
import { type LabelMatcher, parseMatcher } from "./alerts/matchers.ts";

// The `alerts` and `schedules` sections of oikos.yaml (docs/alerts-and-schedules.md). Sources,
// routes and schedules are lists and maps, so they are YAML only; the scalar knobs also have
// environment variables (app/config-keys.ts). app/config.ts puts them in the one config schema.

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const name = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, "use lower-case letters, digits, - and _ (it becomes part of a URL)");

export const ALERT_SOURCE_KINDS = ["alertmanager", "grafana", "uptime-kuma", "generic"] as const;
export type AlertSourceKind = (typeof ALERT_SOURCE_KINDS)[number];

export const CHAT_PLATFORMS = ["matrix", "slack", "shell"] as const;
export type ChatPlatform = (typeof CHAT_PLATFORMS)[number];

const secret = z.string().min(16, "must be at least 16 characters");

/** One webhook sender: what it speaks and how it proves who it is (bearer token and/or HMAC). */
const alertSource = z
  .strictObject({
    kind: z.enum(ALERT_SOURCE_KINDS),
    /** `Authorization: Bearer <token>` (Alertmanager http_config.authorization, Grafana, Kuma headers). */
    token: secret.optional(),
    /** HMAC-SHA256 of the body, hex, in `hmacHeader` (Grafana's webhook "HMAC signature"; generic). */
    hmacSecret: secret.optional(),
    hmacHeader: z.string().min(1).optional(),
    /** Grafana: the timestamp header it signs as `<timestamp>:<body>`; requests older than 5 min are refused. */
    timestampHeader: z.string().min(1).optional(),
  })
  .refine((s) => s.token !== undefined || s.hmacSecret !== undefined, {
    message: "give the source a token (bearer) or an hmacSecret: unauthenticated alert intake is refused",
  })
  .refine((s) => s.hmacSecret === undefined || s.kind === "grafana" || s.kind === "generic", {
    message:
      "hmacSecret is for grafana and generic sources; alertmanager and uptime-kuma send a bearer token",
  });
export type AlertSourceConfig = z.infer<typeof alertSource>;

const matcher = z.string().transform((text, ctx): LabelMatcher => {
  const parsed = parseMatcher(text);
  if (typeof parsed === "string") {
    ctx.addIssue({ code: "custom", message: parsed });
    return z.NEVER;
  }
  return parsed;
});

const placeFields = {
  /** Matrix room id (!…:server), Slack channel id (C…), or "terminal". */
  room: z
    .string()
    .min(1)
    .refine((room) => !room.startsWith("#"), "use the room id (!…:server), not an alias"),
  platform: z.enum(CHAT_PLATFORMS).optional(),
};

/** Where matching alerts go and who is called: first route whose `match` holds wins. */
const alertRoute = z.strictObject({
  match: z
    .strictObject({
      sources: z.array(name).optional(),
      labels: z.array(matcher).optional(),
      severity: z.array(z.string().min(1)).optional(),
    })
    .prefault({}),
  ...placeFields,
  mention: z.array(z.string().min(1)).default([]),
  /** false: post the alert thread, but let no agent investigate it. */
  investigate: z.boolean().default(true),
});
export type AlertRouteConfig = z.infer<typeof alertRoute>;

export const alertsSchema = z
  .object({
    maxBodyBytes: int(1024, 16 * 1024 * 1024).default(262_144),
    minIntervalMs: int(0, 7 * 86_400_000).default(600_000),
    maxConcurrent: int(1, 100).default(3),
    sources: z.record(name, alertSource).default({}),
    routes: z.array(alertRoute).default([]),
  })
  .prefault({})
  .superRefine((alerts, ctx) => {
    alerts.routes.forEach((route, i) => {
      for (const source of route.match.sources ?? []) {
        if (!alerts.sources[source]) {
          ctx.addIssue({
            code: "custom",
            path: ["routes", i, "match", "sources"],
            message: `no source "${source}" in alerts.sources`,
          });
        }
      }
    });
  });
export type AlertsConfig = z.infer<typeof alertsSchema>;

const schedule = z
  .strictObject({
    name,
    cron: z.string().min(1),
    tz: z.string().min(1).optional(),
    ...placeFields,
    prompt: z.string().min(1).max(4000),
    /** Entity slug globs (`lxc:*`, `host:pve?`) the run is about; the prompt lists the matches. */
    targets: z.array(z.string().min(1)).optional(),
    quiet: z.enum(QUIET_MODES).default("line"),
  })
  .superRefine((s, ctx) => {
    const problem = cronProblem(s.cron, s.tz);
    if (problem) ctx.addIssue({ code: "custom", path: ["cron"], message: problem });
  });
export type ScheduleConfig = z.infer<typeof schedule>;

export const schedulesSchema = z
  .array(schedule)
  .default([])
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((s, i) => {
      if (seen.has(s.name))
        ctx.addIssue({ code: "custom", path: [i, "name"], message: `"${s.name}" is named twice` });
      seen.add(s.name);
    });
  });

/** The platform a room id belongs to when the config does not say: Matrix `!…:server`, terminal, else Slack. */
export function platformOf(place: { room: string; platform?: ChatPlatform | undefined }): ChatPlatform {
  if (place.platform) return place.platform;
  if (place.room === "terminal") return "shell";
  return place.room.startsWith("!") ? "matrix" : "slack";
}
