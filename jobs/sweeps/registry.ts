import type { Db } from "../../store/db.ts";
import type { EventBus } from "../events/port.ts";
import type { QueuePort } from "../queue/port.ts";

/** One thing a sweep looked at: what it changed, or why it could not. */
export interface SweepItem {
  subject: string;
  outcome: "changed" | "failed";
  detail: string;
}

export interface SweepReport {
  kind: string;
  items: SweepItem[];
  /** Set when the sweep itself failed before finishing; items holds what it did until then. */
  error?: string;
}

export interface SweepContext {
  db: Db;
  events: EventBus;
  queue: QueuePort;
  now: Date;
  /** Running executions whose heartbeat is older than this are dead. */
  heartbeatStaleMs: number;
}

export type Sweep = (ctx: SweepContext) => Promise<SweepItem[]>;

const sweeps = new Map<string, Sweep>();

/**
 * Adds a sweep kind (`stale`, `approvals`, later `idle` …). `oikos sweep <kind>`, the `sweep` queue
 * and the start-up pass all run whatever is registered. Registering a kind again replaces it.
 */
export function registerSweep(kind: string, sweep: Sweep): void {
  // `oikos sweep all` runs every kind: a kind named "all" could never be run alone (a wiring bug)
  if (kind === "all") throw new RangeError(`"all" is not a sweep kind`);
  sweeps.set(kind, sweep);
}

export function sweepKinds(): string[] {
  return [...sweeps.keys()];
}

/** Runs one kind, or every registered kind for "all"; one failing sweep never stops the others. */
export async function runSweeps(kind: string, ctx: SweepContext): Promise<SweepReport[]> {
  const kinds = kind === "all" ? sweepKinds() : [kind];
  const reports: SweepReport[] = [];
  for (const name of kinds) {
    const sweep = sweeps.get(name);
    if (!sweep) {
      reports.push({
        kind: name,
        items: [],
        error: `unknown sweep "${name}" (known: ${sweepKinds().join(", ")})`,
      });
      continue;
    }
    try {
      reports.push({ kind: name, items: await sweep(ctx) });
    } catch (error) {
      reports.push({ kind: name, items: [], error: error instanceof Error ? error.message : String(error) });
    }
  }
  return reports;
}

/** A catch around one item, so a sweep reports the item as failed and moves on. */
export async function sweepItem(
  subject: string,
  work: () => Promise<string | null>,
): Promise<SweepItem | null> {
  try {
    const detail = await work();
    return detail === null ? null : { subject, outcome: "changed", detail };
  } catch (error) {
    return { subject, outcome: "failed", detail: error instanceof Error ? error.message : String(error) };
  }
}

export function formatSweepReports(reports: readonly SweepReport[]): string {
  const lines: string[] = [];
  for (const report of reports) {
    const head = report.error
      ? `${report.kind}: error: ${report.error}`
      : `${report.kind}: ${report.items.length} item(s)`;
    lines.push(head);
    for (const item of report.items)
      lines.push(`  ${item.outcome === "failed" ? "FAILED " : ""}${item.subject}: ${item.detail}`);
  }
  return lines.join("\n");
}
