import { closeMatches } from "../policy/close-matches.ts";

/** The reason a tool gives for an unknown slug, with close matches (its refusal adds how to search). */
export function unknownSlugMessage(kind: string, slug: string, known: readonly string[]): string {
  const matches = closeMatches(slug, known);
  const didYouMean = matches.length > 0 ? ` Did you mean: ${matches.join(", ")}?` : "";
  return `Unknown ${kind} "${slug}".${didYouMean}`;
}
