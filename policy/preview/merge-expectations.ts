import type { PreviewExpectation } from "./types.ts";

type DirEntries = Extract<PreviewExpectation, { kind: "dir_entries" }>;

/**
 * One line's expectations as one preview (#37): every part that writes in a directory leaves a
 * `dir_entries` check naming only its own files there, so after `sed -i … f g` the check of f's part
 * flagged g ("changed, but the preview did not name it") although the next part named it. The checks
 * of one directory, looked at as one user, become one: what any part names is named, and the
 * entries none of them names are the ones a change to is flagged. Everything else is kept as is, in
 * order (the merged check stands where its directory's first one stood).
 */
export function mergeDirEntries(expectations: readonly PreviewExpectation[]): PreviewExpectation[] {
  const byDir = new Map<string, DirEntries>();
  const out: PreviewExpectation[] = [];
  for (const expectation of expectations) {
    if (expectation.kind !== "dir_entries") {
      out.push(expectation);
      continue;
    }
    const key = `${expectation.identity}\u0000${expectation.dir}`;
    const seen = byDir.get(key);
    if (!seen) {
      const copy: DirEntries = {
        ...expectation,
        named: [...expectation.named],
        others: [...expectation.others],
      };
      byDir.set(key, copy);
      out.push(copy);
      continue;
    }
    const named = new Set([...seen.named, ...expectation.named]);
    seen.named = [...named];
    // an entry is "other" only when no part names it; as it was before the first part looked
    seen.others = seen.others.filter((other) => !named.has(other.name));
    for (const other of expectation.others) {
      if (!named.has(other.name) && !seen.others.some((o) => o.name === other.name)) seen.others.push(other);
    }
  }
  return out;
}
