import { z } from "zod";
import { refusalSchema } from "../policy/refusals.ts";
import type { ToolOutcomeKind } from "../policy/tool-outcome.ts";

/** One variant of a tool's structured result: an object whose `kind` is a literal outcome kind. */
export type OutcomeVariant = z.ZodObject<{ kind: z.ZodLiteral<ToolOutcomeKind> } & z.ZodRawShape>;

/** A variant schema: `kind` plus its fields. */
export function outcome<K extends ToolOutcomeKind, S extends z.ZodRawShape>(kind: K, shape: S) {
  return z.object({ kind: z.literal(kind), ...shape });
}

/**
 * A tool's MCP `outputSchema`: its result variants and policy's refusal, discriminated by `kind`.
 * MCP wants an object schema at the root, so the declared schema is an object with the `kind`
 * enum whose JSON Schema carries every variant exactly under `oneOf` (clients validate
 * `structuredContent` against it); the server checks the same variants through the refinement.
 */
export function outcomeSchema(...variants: OutcomeVariant[]) {
  const all = [...variants, refusalSchema] as unknown as [OutcomeVariant, ...OutcomeVariant[]];
  const union = z.discriminatedUnion("kind", all);
  const kinds = all.map((variant) => variant.shape.kind.value) as [ToolOutcomeKind, ...ToolOutcomeKind[]];
  const exact = z.toJSONSchema(union, { target: "draft-7", io: "output" }) as { oneOf?: unknown[] };
  return z
    .object({ kind: z.enum(kinds) })
    .catchall(z.unknown())
    .superRefine((value, ctx) => {
      const parsed = union.safeParse(value);
      if (parsed.success) return;
      for (const issue of parsed.error.issues)
        ctx.addIssue({ ...issue, code: "custom", message: issue.message });
    })
    .meta({ oneOf: exact.oneOf ?? [], additionalProperties: true });
}
