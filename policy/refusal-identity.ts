import { createHash } from "node:crypto";
import { z } from "zod";
import { isRefusalCode, type RefusalCode } from "./refusals.ts";

/**
 * What makes two refused tool calls "the same refusal": the tool, the refusal code (per target for a
 * fan-out) and a hash of the call's arguments in canonical form. A model that sends a call the gates
 * refused again, with the same arguments, and is refused the same way has learned nothing from the
 * first refusal: the agent loop ends the turn there (agent/turn.ts) instead of asking the model again.
 * Nothing here reads a refusal's wording.
 */
export interface RefusalIdentity {
  tool: string;
  /** Every refusal of the call, sorted: one for a plain refusal, one per refused target of a fan-out. */
  refused: readonly RefusedPart[];
  /** sha256 of the canonical arguments (argumentsHash). */
  argumentsHash: string;
}

export interface RefusedPart {
  /** The fan-out target refused; null for a plain refusal of the whole call. */
  target: string | null;
  code: RefusalCode;
}

/** A refusal as a person is shown it: what was refused and why. */
export interface RefusalShown extends RefusedPart {
  reason: string;
}

/**
 * Arguments the gates never decide on: free text saying why. Rewording them does not make a refused
 * call a new one (a careless model changes its `purpose` and sends the same command again).
 */
export const UNGATED_ARGUMENTS: ReadonlySet<string> = new Set(["purpose"]);

/**
 * A call's arguments as one canonical string: object keys sorted at every depth, the ungated
 * arguments of the top level left out, strings trimmed; arrays keep their order (the order of a
 * fan-out's targets is the order of its results).
 */
export function canonicalArguments(args: Record<string, unknown>): string {
  const kept = Object.fromEntries(Object.entries(args).filter(([key]) => !UNGATED_ARGUMENTS.has(key)));
  return JSON.stringify(canonical(kept));
}

function canonical(value: unknown): unknown {
  if (typeof value === "string") return value.trim();
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value ?? null;
}

export function argumentsHash(args: Record<string, unknown>): string {
  return createHash("sha256").update(canonicalArguments(args)).digest("hex");
}

const refusedResult = z.object({
  kind: z.literal("refused"),
  code: z.string(),
  reason: z.string().optional(),
});
const fanOutResult = z.object({
  kind: z.enum(["fan_out", "fan_out_refused"]),
  results: z.array(z.object({ target: z.string(), kind: z.string(), code: z.string().optional() }).loose()),
});

/**
 * The refusals a tool result carries, as data: the whole call refused, or the refused targets of a
 * fan-out (run_many, inspect_path). Empty when nothing was refused or the result is unreadable.
 */
export function refusalsOf(structured: unknown): RefusalShown[] {
  const whole = refusedResult.safeParse(structured);
  if (whole.success) {
    const { code, reason } = whole.data;
    return isRefusalCode(code) ? [{ target: null, code, reason: reason ?? "" }] : [];
  }
  const fanOut = fanOutResult.safeParse(structured);
  if (!fanOut.success) return [];
  return fanOut.data.results.flatMap((item) => {
    const { target, kind, code } = item;
    if (kind !== "refused" || !isRefusalCode(code)) return [];
    const reason = typeof item.reason === "string" ? item.reason : "";
    return [{ target, code, reason }];
  });
}

/** The identity of a refused call, or null when its result refused nothing. */
export function refusalIdentityOf(
  tool: string,
  args: Record<string, unknown>,
  structured: unknown,
): RefusalIdentity | null {
  const refused = refusalsOf(structured)
    .map(({ target, code }) => ({ target, code }))
    .sort((a, b) => partKey(a).localeCompare(partKey(b)));
  if (refused.length === 0) return null;
  return { tool, refused, argumentsHash: argumentsHash(args) };
}

function partKey(part: RefusedPart): string {
  return `${part.target ?? ""}\u0000${part.code}`;
}

/** One string per identity: equal exactly when tool, refusals and arguments are. */
export function refusalKey(identity: RefusalIdentity): string {
  return JSON.stringify([identity.tool, identity.argumentsHash, identity.refused.map(partKey)]);
}

/**
 * The refusals seen since the operator last spoke (`earlier`: the keys stored with earlier turns'
 * results), and whether a new one repeats any of them. `record` answers "repeated" the second time the
 * same identity is recorded.
 */
export class RefusalLedger {
  readonly #seen: Set<string>;

  constructor(earlier: Iterable<string> = []) {
    this.#seen = new Set(earlier);
  }

  record(identity: RefusalIdentity): "first" | "repeated" {
    const key = refusalKey(identity);
    if (this.#seen.has(key)) return "repeated";
    this.#seen.add(key);
    return "first";
  }
}
