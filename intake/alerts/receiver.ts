import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "../../base/logger.ts";
import type { AlertsConfig } from "../config.ts";
import { authenticate } from "./auth.ts";
import { type IntakeDeps, takeDelivery } from "./intake.ts";
import { parsePayload } from "./sources/index.ts";

export const ALERTS_PATH = "/alerts";

/** The handler the intake capability mounts on the HTTP server at ALERTS_PATH. */
export type AlertReceiver = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** Why a request was refused, as the JSON body's `error` (one code per HTTP status reason). */
export type ReceiverError =
  | "not_found"
  | "method_not_allowed"
  | "unsupported_media_type"
  | "payload_too_large"
  | "unauthorized"
  | "malformed_json"
  | "invalid_payload";

/**
 * `POST /alerts/<source>`: the webhook receiver of every configured alert source. In order: the
 * source exists (404), POST or PUT (405), JSON (415), the body fits alerts.maxBodyBytes (413, read
 * no further), the source's credentials (401), JSON (400), the source's documented shape (422,
 * naming the first problems). Accepted: 202 with what the delivery did. Nothing of the secret and
 * nothing of a refused body is logged.
 */
export function alertReceiver(deps: IntakeDeps & { config: AlertsConfig; logger: Logger }): AlertReceiver {
  return async (req, res) => {
    const name = sourceName(req.url ?? "");
    const source =
      name !== null && Object.hasOwn(deps.config.sources, name) ? deps.config.sources[name] : undefined;
    if (name === null || !source) {
      return refuse(res, 404, "not_found", `no alert source "${name ?? "(unreadable)"}" in alerts.sources`);
    }
    if (req.method !== "POST" && req.method !== "PUT") {
      res.setHeader("allow", "POST, PUT");
      return refuse(res, 405, "method_not_allowed", "send alerts with POST");
    }
    const type = (req.headers["content-type"] ?? "application/json").split(";")[0]!.trim().toLowerCase();
    if (type !== "application/json" && !type.endsWith("+json")) {
      return refuse(res, 415, "unsupported_media_type", "send the alert as application/json");
    }
    const body = await readCapped(req, deps.config.maxBodyBytes);
    if (body === "too_large") {
      res.setHeader("connection", "close");
      return refuse(
        res,
        413,
        "payload_too_large",
        `the body is larger than alerts.maxBodyBytes (${deps.config.maxBodyBytes})`,
      );
    }
    const failure = authenticate(source, req.headers, body);
    if (failure) {
      deps.logger.warn(
        { source: name, reason: failure, from: req.socket.remoteAddress },
        "alert webhook refused",
      );
      res.setHeader("www-authenticate", 'Bearer realm="oikos alerts"');
      return refuse(res, 401, "unauthorized", `credentials refused (${failure.replaceAll("_", " ")})`);
    }
    let json: unknown;
    try {
      json = JSON.parse(body.toString("utf8"));
    } catch (error) {
      return refuse(res, 400, "malformed_json", `the body is not JSON: ${(error as Error).message}`);
    }
    const parsed = parsePayload(source.kind, json);
    if (!parsed.ok) {
      return send(res, 422, {
        error: "invalid_payload",
        message: `not a ${source.kind} webhook payload`,
        issues: parsed.issues,
      });
    }
    const result = await takeDelivery(deps, { name, kind: source.kind }, parsed.delivery);
    send(res, 202, { accepted: true, outcome: result.outcome, group: result.groupId, detail: result.detail });
  };
}

/** `/alerts/<name>[/][?…]` → name; null when the path is not one (bad %-encoding, a deeper path). */
function sourceName(url: string): string | null {
  const path = url
    .split("?")[0]!
    .slice(ALERTS_PATH.length + 1)
    .replace(/\/$/, "");
  try {
    const name = decodeURIComponent(path);
    return name.includes("/") ? null : name;
  } catch {
    return null;
  }
}

/** The body, or "too_large" as soon as it passes `max` bytes (the rest is never buffered). */
function readCapped(req: IncomingMessage, max: number): Promise<Buffer | "too_large"> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > max) {
    req.resume();
    return Promise.resolve("too_large");
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on("data", (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > max) {
        done = true;
        req.resume();
        resolve("too_large");
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (!done) resolve(Buffer.concat(chunks));
    });
    req.on("error", (error) => {
      if (!done) reject(error);
    });
    // A sender that hangs up mid-body: nothing to answer, but the handler must not wait forever.
    req.on("close", () => {
      if (!done && !req.complete) reject(new Error("the sender closed the connection before the body ended"));
    });
  });
}

function refuse(res: ServerResponse, status: number, error: ReceiverError, message: string): void {
  send(res, status, { error, message });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}
