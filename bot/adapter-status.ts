/**
 * Where a configured chat platform stands in this process. `unreachable` (down, a network error,
 * the platform's own outage) and `refused` (it rejects our credentials) are retried with backoff;
 * only `refused` needs the operator, and its advice says what to change.
 */
export type AdapterState = "starting" | "connected" | "unreachable" | "refused" | "stopped";

export const ADAPTER_STATES: readonly AdapterState[] = [
  "starting",
  "connected",
  "unreachable",
  "refused",
  "stopped",
];

export interface AdapterStatus {
  state: AdapterState;
  /** What went wrong, in the platform's words (an error code, a network error). */
  cause?: string;
  /** What the operator should do, in words. */
  advice?: string;
  /** When the next try starts (unreachable, refused). */
  nextAttemptAt?: Date;
  /** Failed tries since the last connection. */
  failures: number;
  since: Date;
}

/** A start failure as the platform's diagnosis names it. */
export interface StartFailure {
  state: "unreachable" | "refused";
  cause: string;
  advice: string;
}

type Listener = (platform: string, status: AdapterStatus, previous: AdapterStatus | undefined) => void;

/**
 * The state of every configured chat platform, for `!status`, `/metrics` and the log. The
 * terminal is not on it: it runs whenever it is attached.
 */
export class AdapterStatusBoard {
  readonly #statuses = new Map<string, AdapterStatus>();
  readonly #listeners: Listener[] = [];

  onChange(listener: Listener): void {
    this.#listeners.push(listener);
  }

  set(platform: string, status: AdapterStatus): void {
    const previous = this.#statuses.get(platform);
    this.#statuses.set(platform, status);
    for (const listener of this.#listeners) listener(platform, status, previous);
  }

  get(platform: string): AdapterStatus | undefined {
    return this.#statuses.get(platform);
  }

  /** Platforms in the order they were configured. */
  list(): { platform: string; status: AdapterStatus }[] {
    return [...this.#statuses].map(([platform, status]) => ({ platform, status }));
  }

  /** Platforms connected now. */
  connected(): string[] {
    return this.list()
      .filter((e) => e.status.state === "connected")
      .map((e) => e.platform);
  }
}

/** One line for `!status`: `matrix connected`, `slack refused (token_revoked): check … — next try in 40 s`. */
export function describeAdapter(platform: string, status: AdapterStatus, now = new Date()): string {
  if (status.state === "connected" || status.state === "starting" || status.state === "stopped")
    return `${platform} ${status.state}`;
  const next = status.nextAttemptAt
    ? ` — next try in ${Math.max(0, Math.ceil((status.nextAttemptAt.getTime() - now.getTime()) / 1000))} s`
    : "";
  return `${platform} ${status.state} (${status.cause ?? "?"}): ${status.advice ?? ""}${next}`;
}
