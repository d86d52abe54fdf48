import type { StartFailure } from "../adapter-status.ts";
import { SlackCallError } from "./slack-errors.ts";

const REFUSING = new Set([
  "invalid_auth",
  "not_authed",
  "token_revoked",
  "account_inactive",
  "missing_scope",
]);

/**
 * What a failed Slack start means: Slack refuses a token (revoked, mistyped, the app
 * uninstalled: the operator acts) or cannot be reached or has an outage of its own
 * (`service_unavailable`, `fatal_error`, a network error: it may come back).
 */
export function diagnoseSlackStart(error: unknown): StartFailure {
  if (error instanceof SlackCallError) {
    const appToken = error.method === "apps.connections.open";
    if (REFUSING.has(error.slackError)) {
      return {
        state: "refused",
        cause: error.slackError,
        advice: appToken
          ? "Slack refused the app-level token: check SLACK_APP_TOKEN (xapp-…, scope connections:write) and that Socket Mode is on in the app's settings."
          : error.message,
      };
    }
    return {
      state: "unreachable",
      cause: error.slackError,
      advice: `Slack could not be reached or had a problem of its own (${error.method}); nothing to change if Slack's status page shows an incident.`,
    };
  }
  const e = error as { code?: unknown; message?: unknown; cause?: { code?: unknown } };
  const cause =
    (typeof e?.cause?.code === "string" ? e.cause.code : undefined) ??
    (typeof e?.code === "string" ? e.code : undefined) ??
    (typeof e?.message === "string" ? e.message.slice(0, 120) : String(error).slice(0, 120));
  return {
    state: "unreachable",
    cause,
    advice: "Slack could not be reached: check this host's network and proxy settings.",
  };
}
