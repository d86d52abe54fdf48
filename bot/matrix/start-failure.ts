import type { StartFailure } from "../adapter-status.ts";
import { MatrixSyncError } from "./matrix-api.ts";

/** Matrix error codes that mean the homeserver rejects the bot's credentials (spec: "Standard error response"). */
const REFUSING = new Set(["M_UNKNOWN_TOKEN", "M_MISSING_TOKEN", "M_FORBIDDEN", "M_USER_DEACTIVATED"]);

/**
 * What a failed Matrix start means: the homeserver refuses the bot (a token or password it
 * rejects: the operator acts) or cannot be reached (down, a wrong URL, a proxy error: it may come
 * back). `credentials` says whether the credentials were a password (MATRIX_PASSWORD) or a token.
 */
export function diagnoseMatrixStart(error: unknown, credentials: "token" | "password"): StartFailure {
  const e = error as {
    errcode?: unknown;
    statusCode?: unknown;
    code?: unknown;
    message?: unknown;
    cause?: { code?: unknown };
  };
  const errcode = typeof e?.errcode === "string" ? e.errcode : undefined;
  const status = typeof e?.statusCode === "number" ? e.statusCode : undefined;
  const which = credentials === "password" ? "MATRIX_USER_ID and MATRIX_PASSWORD" : "MATRIX_ACCESS_TOKEN";
  if ((errcode && REFUSING.has(errcode)) || status === 401) {
    return {
      state: "refused",
      cause: errcode ?? `HTTP ${status}`,
      advice: `The homeserver rejects the bot's credentials: check ${which} (a token from a logout or a deactivated account no longer works).`,
    };
  }
  const cause =
    errcode ??
    (typeof e?.code === "string" ? e.code : undefined) ??
    (typeof e?.cause?.code === "string" ? e.cause.code : undefined) ??
    (status !== undefined ? `HTTP ${status}` : undefined) ??
    (error instanceof MatrixSyncError ? error.logMessage : undefined) ??
    (typeof e?.message === "string" ? e.message.slice(0, 120) : String(error).slice(0, 120));
  return {
    state: "unreachable",
    cause,
    advice:
      "The Matrix homeserver cannot be reached or answers with an error: check MATRIX_HOMESERVER_URL and that the homeserver runs.",
  };
}
