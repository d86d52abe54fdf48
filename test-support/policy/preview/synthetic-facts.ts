import { sha256 } from "../../../policy/preview/file-outcome.ts";
import type { IdentityFacts } from "../../../policy/preview/identity.ts";
import type { MountEntry } from "../../../policy/preview/mount-view.ts";
import type { NameFacts, StatFacts } from "../../../policy/preview/name-facts.ts";
import type { PartFacts } from "../../../policy/preview/part-facts.ts";
import type { PlannedPart, ProbeResult, Rendered } from "../../../policy/preview/rule.ts";

/**
 * Facts for the pure tests of the preview rules, in place of what the executor gathers on a target
 * (the lab tests, jobs/preview/*-lab.test.ts, gather them for real): a few files by absolute path.
 */
export interface FakeFile {
  text?: string;
  type?: "file" | "dir" | "link";
  /** A link's target (absolute). */
  to?: string;
  mode?: number;
  uid?: number;
  gid?: number;
  nlink?: number;
  inode?: string;
}

export const LOGIN: IdentityFacts = {
  uid: 1000,
  gid: 1000,
  umask: 0o022,
  overflowUid: 65534,
  overflowGid: 65534,
};

let inodes = 100;

function stat(file: FakeFile): StatFacts {
  return {
    type: file.type ?? "file",
    mode: file.mode ?? (file.type === "dir" ? 0o755 : 0o644),
    uid: file.uid ?? LOGIN.uid,
    gid: file.gid ?? LOGIN.gid,
    nlink: file.nlink ?? 1,
    inode: file.inode ?? `1:${inodes++}`,
    size: file.text?.length ?? 0,
  };
}

export function syntheticFacts(
  files: Record<string, FakeFile>,
  options: { jailed?: boolean; mounts?: MountEntry[]; identity?: IdentityFacts } = {},
): PartFacts {
  const stats = new Map(Object.entries(files).map(([path, file]) => [path, stat(file)]));
  const nameOf = (path: string): NameFacts => {
    const slash = path.lastIndexOf("/");
    const dir = slash <= 0 ? "/" : path.slice(0, slash);
    const entry = stats.get(path) ?? null;
    const file = files[path];
    const resolved = file?.type === "link" && file.to ? file.to : path;
    return {
      written: path,
      dir: { path: dir, stat: stat({ type: "dir" }), acl: false },
      name: path,
      entry,
      target: file?.type === "link" ? (stats.get(resolved) ?? null) : entry,
      resolved,
    };
  };
  return {
    identity: options.identity ?? LOGIN,
    identityName: "login",
    view: { jailed: options.jailed ?? true, mounts: options.mounts ?? [{ point: "/", writable: false }] },
    names: new NamesOf(nameOf),
  };
}

/** Every word resolves: to its file when there is one, else to a name that does not exist. */
class NamesOf extends Map<string, readonly NameFacts[]> {
  readonly #nameOf: (path: string) => NameFacts;
  constructor(nameOf: (path: string) => NameFacts) {
    super();
    this.#nameOf = nameOf;
  }
  override get(word: string): readonly NameFacts[] {
    return [this.#nameOf(word)];
  }
}

/**
 * Runs a part's probes against `answer` (by command; unanswered: exit 0, no output) and renders:
 * the rule's reading of what the target says, without a target.
 */
export function renderWith(
  part: PlannedPart,
  facts: PartFacts,
  answer: (command: string) => Partial<ProbeResult> | undefined,
): Rendered {
  const probes = typeof part.probes === "function" ? part.probes(facts) : part.probes;
  if (!Array.isArray(probes)) return { status: "unavailable", reason: probes.unavailable };
  return part.render(
    probes.map((probe) => ({ exitCode: 0, stdout: "", stderr: "", ...answer(probe.command) })),
    facts,
  );
}

/** What `sha256sum -- f && cat -- f` prints for a text. */
export function contentAnswer(text: string, path = "f"): Partial<ProbeResult> {
  return { stdout: `${sha256(text)}  ${path}\n${text}` };
}

/** What `set -o pipefail; { … } | sha256sum` prints for a text. */
export function hashAnswer(text: string): Partial<ProbeResult> {
  return { stdout: `${sha256(text)}  -\n` };
}
