import type { IdentityFacts, ProbeIdentity } from "./identity.ts";
import type { ProbeView } from "./mount-view.ts";
import type { NameFacts, Unseen } from "./name-facts.ts";

/** Facts the executor gathered for a part, in the identity the part's command runs as. */
export interface PartFacts {
  identity: IdentityFacts;
  identityName: ProbeIdentity;
  view: ProbeView;
  /** Per path query (its word), the names it resolved to, or why it could not. */
  names: ReadonlyMap<string, readonly NameFacts[] | Unseen>;
}

export function namesOf(facts: PartFacts, word: string): readonly NameFacts[] | Unseen {
  return facts.names.get(word) ?? { unseen: `\`${word}\` was not looked at` };
}

/** The one name a literal word resolved to. */
export function oneName(facts: PartFacts, word: string): NameFacts | Unseen {
  const names = namesOf(facts, word);
  if ("unseen" in names) return names;
  const [only] = names;
  return only && names.length === 1 ? only : { unseen: `\`${word}\` names ${names.length} paths` };
}

/**
 * Facts as if every path were a plain file of the login's, where it is written: what a part would
 * run in the usual case, so its probes can be judged before anything runs (policy/preview/plan.ts).
 */
export function plainFileFacts(words: readonly string[]): PartFacts {
  const stat = (type: "file" | "dir", inode: number) => ({
    type,
    mode: type === "dir" ? 0o755 : 0o644,
    uid: 1000,
    gid: 1000,
    nlink: 1,
    inode: `0:${inode}`,
    size: 0,
  });
  const names = new Map<string, readonly NameFacts[]>();
  words.forEach((word, i) => {
    const slash = word.lastIndexOf("/");
    const dir = slash < 0 ? "." : slash === 0 ? "/" : word.slice(0, slash);
    const file = stat("file", i + 2);
    names.set(word, [
      {
        written: word,
        dir: { path: dir, stat: stat("dir", 1), acl: false },
        name: word,
        entry: file,
        target: file,
        resolved: word,
      },
    ]);
  });
  return {
    identity: { uid: 1000, gid: 1000, umask: 0o022, overflowUid: 65534, overflowGid: 65534 },
    identityName: "login",
    view: { jailed: false, mounts: [] },
    names,
  };
}
