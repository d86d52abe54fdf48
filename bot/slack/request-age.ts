import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "../../base/logger.ts";

/**
 * Slack signs `v0:<timestamp>:<body>` and says to refuse a request whose timestamp is more than
 * five minutes from the local time (docs.slack.dev, "Verifying requests from Slack"), to stop
 * replays. Bolt checks only the past: a correctly signed request stamped six minutes ahead was
 * taken. This refuses both directions; the signature itself stays Bolt's check.
 */
export const MAX_REQUEST_AGE_S = 5 * 60;

export function requestTimeOutOfRange(header: string | string[] | undefined, nowMs: number): boolean {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return false; // no signature headers: Bolt refuses it
  const stamp = Number(value);
  if (!Number.isFinite(stamp)) return false; // malformed: Bolt refuses it with its own message
  return Math.abs(Math.floor(nowMs / 1000) - stamp) > MAX_REQUEST_AGE_S;
}

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** Wraps an HTTP request listener (Bolt's HTTPReceiver's) with the two-sided timestamp check. */
export function refusingOutOfRange(inner: Listener, logger: Logger, now: () => number = Date.now): Listener {
  return (req, res) => {
    if (!requestTimeOutOfRange(req.headers["x-slack-request-timestamp"], now())) {
      inner(req, res);
      return;
    }
    logger.warn(
      { timestamp: req.headers["x-slack-request-timestamp"] },
      "slack: refused a request stamped more than 5 minutes from this host's time (a replay, or this host's clock is off: check NTP)",
    );
    req.resume();
    res.writeHead(401, { "content-type": "text/plain" });
    res.end("request timestamp out of range");
  };
}
