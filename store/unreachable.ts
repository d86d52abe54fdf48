// Postgres restarting (or briefly unreachable) is an outage to wait out, not a fact about the
// data: a write that records something that already happened (a command's result) must land
// once the server is back instead of being lost with the job.

const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);
// SQLSTATE: class 08 connection exception; 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now.
const SHUTDOWN_STATES = new Set(["57P01", "57P02", "57P03"]);
// node-postgres' own words when the server goes away under a query.
const PG_CLOSED = new Set([
  "Connection terminated unexpectedly",
  "Connection terminated",
  "Client has encountered a connection error and is not queryable",
]);

export function isDatabaseUnreachable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as Error & { code?: unknown }).code;
  if (
    typeof code === "string" &&
    (SOCKET_CODES.has(code) || SHUTDOWN_STATES.has(code) || code.startsWith("08"))
  )
    return true;
  return PG_CLOSED.has(error.message);
}

export interface UntilReachableOptions {
  /** Give up (rethrow) after this long. Default 120 000 ms. */
  maxMs?: number;
  /** Called once, at the first failed attempt. */
  onOutage?: (error: unknown) => void;
  sleep?: (ms: number) => Promise<void>;
}

/** Runs `work`, again with backoff while the database is unreachable; any other error is thrown at once. */
export async function untilReachable<T>(
  work: () => Promise<T>,
  options: UntilReachableOptions = {},
): Promise<T> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const deadline = Date.now() + (options.maxMs ?? 120_000);
  for (let attempt = 0; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!isDatabaseUnreachable(error) || Date.now() >= deadline) throw error;
      if (attempt === 0) options.onOutage?.(error);
      await sleep(Math.min(5_000, 200 * 2 ** attempt));
    }
  }
}
