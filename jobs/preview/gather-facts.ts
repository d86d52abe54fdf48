import {
  IDENTITY_PROBE,
  type IdentityFacts,
  type ProbeIdentity,
  parseIdentity,
} from "../../policy/preview/identity.ts";
import { type ProbeView, parseMountInfo, privateMountAt } from "../../policy/preview/mount-view.ts";
import {
  expansionProbe,
  forgetUnmappedOwners,
  type NameFacts,
  nameFactsProbe,
  parseExpansion,
  parseNameFacts,
  splitPath,
  type Unseen,
} from "../../policy/preview/name-facts.ts";
import type { PartFacts } from "../../policy/preview/part-facts.ts";
import { type PathQuery, type Probe, shellQuote } from "../../policy/preview/rule.ts";
import { type ProbeContext, type RanProbe, runProbe } from "./run-probe.ts";

/**
 * The facts a preview's parts are read against (issue #37), gathered once per preview: who looks
 * (the login, and root through sudo where a part's command runs under sudo), what the probes' view
 * hides (the jail's own mounts), and per part every path resolved as the user the command runs as.
 */

/** How a part that could not be looked at starts its reason (a probe failed, timed out, was refused). */
export const COULD_NOT_LOOK = "oikos could not look: ";

/** A probe run as the login, or as root for a `sudo` part on a login that is not root. */
export interface Looker {
  /** What the probes see of the mounts (one answer with who looks). */
  view: ProbeView | Unseen;
  run(probe: Probe, as: ProbeIdentity): Promise<RanProbe | { failed: string }>;
  /** Who each identity is on this target; `sudo` a reason when it cannot be looked as. */
  identity(as: ProbeIdentity): IdentityFacts | Unseen;
  /** Whether the probes ran jailed (all of them must agree, or the view is unknown). */
  jailedStates: Set<boolean | null>;
  /** The overflow ids unmapped owners read as, where the probes of `as` run jailed and not as root. */
  unmapped(as: ProbeIdentity): { uid: number; gid: number } | null;
}

export async function startLooking(
  context: ProbeContext,
  needsRoot: boolean,
): Promise<Looker | { failed: string }> {
  const jailedStates = new Set<boolean | null>();
  const raw = async (probe: Probe, asRoot: boolean) => {
    const ran = await runProbe(context, probe, asRoot);
    if (!("failed" in ran)) jailedStates.add(ran.jailed);
    return ran;
  };
  const loginRan = await raw({ command: IDENTITY_PROBE, accepts: "zero" }, false);
  if ("failed" in loginRan) return { failed: loginRan.failed };
  const login = parseIdentity(loginRan);
  if ("unseen" in login) return { failed: login.unseen };
  const mounts = parseMountInfo(login.rest);
  const view: ProbeView | Unseen =
    loginRan.jailed === null
      ? { unseen: "whether the probes ran in the read-only jail is unknown" }
      : mounts === null
        ? { unseen: "the mount table did not read back" }
        : { jailed: loginRan.jailed, mounts };
  // The login is root already (a root login, pct exec, qm guest exec): sudo gives the same user.
  const loginIsRoot = login.uid === 0;
  let root: IdentityFacts | Unseen = login;
  if (needsRoot && !loginIsRoot) {
    const rootRan = await raw({ command: IDENTITY_PROBE, accepts: "zero" }, true);
    root = "failed" in rootRan ? { unseen: rootRan.failed } : parseIdentity(rootRan);
    if (!("unseen" in root) && root.uid !== 0) root = { unseen: "sudo did not give root" };
  }
  const unmapped = (as: ProbeIdentity) => {
    const who = as === "sudo" ? root : login;
    if ("unseen" in who || who.uid === 0 || loginRan.jailed === false) return null;
    return { uid: who.overflowUid, gid: who.overflowGid };
  };
  return {
    view,
    unmapped,
    jailedStates,
    identity: (as) => (as === "sudo" ? root : login),
    run: (probe, as) => raw(probe, as === "sudo" && !loginIsRoot),
  };
}

/** Each query's names, resolved as `as`; globs expanded by the login's shell (the command's own shell). */
export async function resolveNames(
  looker: Looker,
  queries: readonly PathQuery[],
  as: ProbeIdentity,
): Promise<Map<string, readonly NameFacts[] | Unseen>> {
  const out = new Map<string, readonly NameFacts[] | Unseen>();
  const concrete = new Map<string, string[]>();
  for (const query of queries) {
    if (!query.expand) {
      concrete.set(query.word, [query.word]);
      continue;
    }
    const ran = await looker.run({ command: expansionProbe([query.word]), accepts: "zero" }, "login");
    const names = "failed" in ran ? { unseen: `${COULD_NOT_LOOK}${ran.failed}` } : parseExpansion(ran);
    if ("unseen" in names) out.set(query.word, names);
    else concrete.set(query.word, names);
  }
  // One probe per directory, for every name in it.
  const byDir = new Map<string, Set<string>>();
  const split = new Map<string, { dir: string; base: string } | Unseen>();
  for (const path of new Set([...concrete.values()].flat())) {
    const parts = splitPath(path);
    split.set(path, parts);
    if ("unseen" in parts) continue;
    const bases = byDir.get(parts.dir) ?? new Set<string>();
    bases.add(path);
    byDir.set(parts.dir, bases);
  }
  const facts = new Map<string, NameFacts | Unseen>();
  for (const [dir, paths] of byDir) {
    const written = [...paths];
    const bases = written.map((path) => (split.get(path) as { base: string }).base);
    const ran = await looker.run({ command: nameFactsProbe(dir, bases), accepts: "any" }, as);
    let read =
      "failed" in ran ? { unseen: `${COULD_NOT_LOOK}${ran.failed}` } : parseNameFacts(dir, written, ran);
    if ("unseen" in read) read = await whyUnseen(looker, dir, as, read);
    const overflow = looker.unmapped(as);
    const parsed = "unseen" in read || overflow === null ? read : forgetUnmappedOwners(read, overflow);
    written.forEach((path, i) => {
      facts.set(path, "unseen" in parsed ? parsed : (parsed[i] as NameFacts));
    });
  }
  for (const [word, paths] of concrete) {
    const resolved: NameFacts[] = [];
    let unseen: Unseen | null = null;
    for (const path of paths) {
      const one = split.get(path);
      const fact = one && "unseen" in one ? one : facts.get(path);
      if (!fact || "unseen" in fact) {
        unseen = fact ?? { unseen: `\`${path}\` was not resolved` };
        break;
      }
      resolved.push(fact);
    }
    out.set(word, unseen ?? resolved);
  }
  return out;
}

/**
 * A directory the probe could not enter may be one the jail replaced (a path or a link into /tmp):
 * where it resolves to there, that is the reason given, not "no such directory".
 */
async function whyUnseen(looker: Looker, dir: string, as: ProbeIdentity, unseen: Unseen): Promise<Unseen> {
  if ("unseen" in looker.view) return unseen;
  const ran = await looker.run({ command: `realpath -m -- ${shellQuote(dir)}`, accepts: "zero" }, as);
  if ("failed" in ran) return unseen;
  const mount = privateMountAt(looker.view, ran.stdout.trim());
  return mount === null
    ? unseen
    : {
        unseen: `\`${dir}\` is in \`${mount}\`, which the read-only jail replaces with a private directory for its own commands, so the preview cannot see what the command will change there`,
      };
}

export function partFacts(
  identity: IdentityFacts,
  identityName: ProbeIdentity,
  view: ProbeView,
  names: ReadonlyMap<string, readonly NameFacts[] | Unseen>,
): PartFacts {
  return { identity, identityName, view, names };
}
