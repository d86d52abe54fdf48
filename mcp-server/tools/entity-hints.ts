import type { Executor } from "../../store/audit.ts";
import { lastTouched } from "../../store/entity-views.ts";

const DAY_MS = 86_400_000;

/**
 * Per entity, when oikos last looked at it (its latest finished command) and last wrote its
 * facts, in words the model reads: an entity audited an hour ago needs its knowledge read, not
 * a fresh audit.
 */
export async function entityHints(
  db: Executor,
  slugs: readonly string[],
  now: Date,
): Promise<Record<string, string>> {
  const unique = [...new Set(slugs)];
  const touched = await lastTouched(db, unique);
  const hints: Record<string, string> = {};
  for (const slug of unique) {
    const t = touched.get(slug);
    if (!t) continue;
    const parts: string[] = [];
    parts.push(
      t.ranAt
        ? `last audited ${since(t.ranAt, now)} (\`${t.ranCommand?.slice(0, 80)}\`)`
        : "never audited by oikos",
    );
    if (t.writtenAt) parts.push(`facts last written ${since(t.writtenAt, now)}`);
    const fresh = t.ranAt && now.getTime() - t.ranAt.getTime() < DAY_MS;
    if (fresh) parts.push("audited today: read its facts and knowledge before running the same checks again");
    hints[slug] = parts.join("; ");
  }
  return hints;
}

function since(at: Date, now: Date): string {
  const minutes = Math.max(0, Math.round((now.getTime() - at.getTime()) / 60_000));
  if (minutes < 1) return "just now";
  if (minutes < 90) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h ago` : `${Math.round(hours / 24)} d ago`;
}
