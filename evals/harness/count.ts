import { z } from "zod";

/** An exact number, or bounds: `3`, `{ min: 1 }`, `{ max: 9 }`, `{ min: 2, max: 4 }`. */
export const count = z.union([
  z.number().int().min(0),
  z
    .object({ min: z.number().int().optional(), max: z.number().int().optional() })
    .strict()
    .refine((c) => c.min !== undefined || c.max !== undefined, "a count needs min, max or a number"),
]);
export type CountSpec = z.infer<typeof count>;

export function checkCount(
  what: string,
  actual: number,
  spec: CountSpec | undefined,
  failures: string[],
): void {
  if (spec === undefined) return;
  if (typeof spec === "number") {
    if (actual !== spec) failures.push(`${what}: expected ${spec}, got ${actual}`);
    return;
  }
  if (spec.min !== undefined && actual < spec.min)
    failures.push(`${what}: expected at least ${spec.min}, got ${actual}`);
  if (spec.max !== undefined && actual > spec.max)
    failures.push(`${what}: expected at most ${spec.max}, got ${actual}`);
}
