/**
 * Close matches for a mistyped slug, best first. Compares against the whole slug and against the part
 * after the type prefix, so `gitea` finds `lxc:gitea` and `lxc:gitae` finds `lxc:gitea`.
 */
export function closeMatches(wanted: string, known: readonly string[], max = 5): string[] {
  const needle = wanted.toLowerCase();
  const needleName = nameOf(needle);
  const scored: { slug: string; score: number }[] = [];
  for (const slug of known) {
    const candidate = slug.toLowerCase();
    const name = nameOf(candidate);
    let score = Math.min(levenshtein(needle, candidate), levenshtein(needleName, name) + 1);
    if (name.includes(needleName) || needleName.includes(name)) score = Math.min(score, 1);
    const limit = Math.max(2, Math.floor(Math.max(needleName.length, name.length) / 3));
    if (score <= limit) scored.push({ slug, score });
  }
  return scored
    .sort((a, b) => a.score - b.score || a.slug.localeCompare(b.slug))
    .slice(0, max)
    .map((entry) => entry.slug);
}

function nameOf(slug: string): string {
  const colon = slug.indexOf(":");
  return colon === -1 ? slug : slug.slice(colon + 1);
}

export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[b.length]!;
}
