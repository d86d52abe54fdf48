import type { z } from "zod";
import type { AlertSourceKind } from "../../config.ts";
import type { ParsedDelivery } from "../notification.ts";
import { alertmanagerPayload, fromAlertmanager } from "./alertmanager.ts";
import { fromGeneric, genericPayload } from "./generic.ts";
import { fromGrafana, grafanaPayload } from "./grafana.ts";
import { fromUptimeKuma, uptimeKumaPayload } from "./uptime-kuma.ts";

export type PayloadResult = { ok: true; delivery: ParsedDelivery } | { ok: false; issues: string[] };

/** Validates a parsed JSON body against the source kind's documented shape. */
export function parsePayload(kind: AlertSourceKind, body: unknown): PayloadResult {
  switch (kind) {
    case "alertmanager":
      return run(alertmanagerPayload, body, fromAlertmanager);
    case "grafana":
      return run(grafanaPayload, body, fromGrafana);
    case "uptime-kuma":
      return run(uptimeKumaPayload, body, fromUptimeKuma);
    case "generic":
      return run(genericPayload, body, fromGeneric);
  }
}

function run<S extends z.ZodType>(
  schema: S,
  body: unknown,
  build: (value: z.infer<S>) => ParsedDelivery,
): PayloadResult {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    return {
      ok: false,
      issues: parsed.error.issues
        .slice(0, 10)
        .map((i) => `${i.path.map(String).join(".") || "(body)"}: ${i.message}`),
    };
  }
  return { ok: true, delivery: build(parsed.data) };
}
