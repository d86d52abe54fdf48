import { octal } from "../../policy/preview/file-render.ts";
import type { ProbeIdentity } from "../../policy/preview/identity.ts";
import { nameFactsProbe, parseNameFacts, splitPath } from "../../policy/preview/name-facts.ts";
import { shellQuote } from "../../policy/preview/rule.ts";
import {
  fileContentProbe,
  listingProbe,
  parseFileContent,
  parseListing,
} from "../../policy/preview/rules/file-edit.ts";
import type { OutcomeCheck, PreviewExpectation } from "../../policy/preview/types.ts";
import { type Looker, startLooking } from "./gather-facts.ts";
import { type ProbeContext, runProbe } from "./run-probe.ts";

/**
 * After the run: does the target show what the preview said? Against the same resolved paths the
 * preview named (issue #37): each file's type, content, mode and owner, or that it is gone; what rm
 * took; a directory the command wrote in holding a file the preview did not name (flagged); apt's
 * package lists (dpkg-query). Read-only probes, run like the preview's and as the same user; a check
 * that cannot run is `unchecked`.
 */
export async function verifyExpectation(
  context: ProbeContext,
  expectation: PreviewExpectation,
): Promise<OutcomeCheck> {
  switch (expectation.kind) {
    case "file_hash":
      return verifyFileHash(context, expectation.path, expectation.sha256After);
    case "packages":
      if (expectation.manager !== "apt")
        return { status: "unchecked", detail: `no check for ${expectation.manager}` };
      return verifyApt(context, expectation);
    case "file_state":
    case "dir_entries":
    case "tree_removed": {
      const looker = await startLooking(context, expectation.identity === "sudo");
      if ("failed" in looker) return { status: "unchecked", detail: looker.failed };
      if (expectation.kind === "file_state") return verifyFileState(looker, expectation);
      if (expectation.kind === "dir_entries") return verifyDirEntries(looker, expectation);
      return verifyRemoved(looker, expectation);
    }
  }
}

async function verifyFileState(
  looker: Looker,
  expected: Extract<PreviewExpectation, { kind: "file_state" }>,
): Promise<OutcomeCheck> {
  const as: ProbeIdentity = expected.identity;
  const split = splitPath(expected.path);
  if ("unseen" in split) return { status: "unchecked", detail: split.unseen };
  const ran = await looker.run({ command: nameFactsProbe(split.dir, [split.base]), accepts: "any" }, as);
  if ("failed" in ran) return { status: "unchecked", detail: ran.failed };
  const facts = parseNameFacts(split.dir, [expected.path], ran);
  if ("unseen" in facts) return { status: "unchecked", detail: facts.unseen };
  const entry = facts[0]?.entry ?? null;
  const path = expected.path;
  if (expected.after === null) {
    return entry === null
      ? { status: "matches", detail: `${path} is gone, as the preview showed` }
      : { status: "differs", detail: `${path} is still there, but the preview showed it removed` };
  }
  if (entry === null)
    return { status: "differs", detail: `${path} does not exist, but the preview showed its new content` };
  if (entry.type !== expected.after.type) {
    return {
      status: "differs",
      detail: `${path} is a ${entry.type}, the preview showed a ${expected.after.type}`,
    };
  }
  const wrong: string[] = [];
  const content = await looker.run(fileContentProbe(path), as);
  if ("failed" in content) return { status: "unchecked", detail: content.failed };
  const read = parseFileContent(content);
  const hash = typeof read === "string" ? /^\\?([0-9a-f]{64}) /.exec(content.stdout)?.[1] : read.sha256;
  if (hash !== expected.after.sha256) {
    wrong.push(
      `its content is not what the preview showed (sha256 ${hash?.slice(0, 12) ?? "?"}…, the preview's ${expected.after.sha256.slice(0, 12)}…)`,
    );
  }
  if (expected.after.mode !== null && entry.mode !== expected.after.mode) {
    wrong.push(`its mode is ${octal(entry.mode)}, the preview showed ${octal(expected.after.mode)}`);
  }
  if (
    (expected.after.uid !== null && entry.uid !== expected.after.uid) ||
    (expected.after.gid !== null && entry.gid !== expected.after.gid)
  ) {
    wrong.push(
      `its owner is ${entry.uid}:${entry.gid}, the preview showed ${expected.after.uid ?? "?"}:${expected.after.gid ?? "?"}`,
    );
  }
  return wrong.length === 0
    ? { status: "matches", detail: `${path} is as the preview showed` }
    : { status: "differs", detail: `${path}: ${wrong.join("; ")}` };
}

async function verifyDirEntries(
  looker: Looker,
  expected: Extract<PreviewExpectation, { kind: "dir_entries" }>,
): Promise<OutcomeCheck> {
  const ran = await looker.run(listingProbe(expected.dir), expected.identity);
  if ("failed" in ran) return { status: "unchecked", detail: ran.failed };
  const listing = parseListing(expected.dir, ran);
  if (listing === null) return { status: "unchecked", detail: `${expected.dir} did not list back` };
  const unnamed: string[] = [];
  const now = new Map(listing.entries.map((entry) => [entry.name, entry]));
  for (const entry of listing.entries) {
    if (expected.named.includes(entry.name)) continue;
    const before = expected.others.find((other) => other.name === entry.name);
    if (!before) unnamed.push(`${entry.name} (new)`);
    else if (before.inode !== entry.inode || before.type !== entry.type || before.size !== entry.size) {
      unnamed.push(`${entry.name} (changed)`);
    }
  }
  for (const before of expected.others) if (!now.has(before.name)) unnamed.push(`${before.name} (gone)`);
  const dir = expected.dir === "/" ? "" : expected.dir;
  return unnamed.length === 0
    ? { status: "matches", detail: `nothing else changed in ${expected.dir}` }
    : {
        status: "differs",
        detail: `changed, but the preview did not name it: ${unnamed.map((name) => `${dir}/${name}`).join(", ")}`,
      };
}

async function verifyRemoved(
  looker: Looker,
  expected: Extract<PreviewExpectation, { kind: "tree_removed" }>,
): Promise<OutcomeCheck> {
  const split = splitPath(expected.root);
  if ("unseen" in split) return { status: "unchecked", detail: split.unseen };
  const ran = await looker.run(
    { command: nameFactsProbe(split.dir, [split.base]), accepts: "any" },
    expected.identity,
  );
  if ("failed" in ran) return { status: "unchecked", detail: ran.failed };
  const facts = parseNameFacts(split.dir, [expected.root], ran);
  if ("unseen" in facts) return { status: "unchecked", detail: facts.unseen };
  return facts[0]?.entry === null
    ? {
        status: "matches",
        detail: `${expected.root} is gone (${expected.names} name(s)), as the preview showed`,
      }
    : { status: "differs", detail: `${expected.root} is still there, but the preview showed it deleted` };
}

async function verifyFileHash(
  context: ProbeContext,
  path: string,
  expected: string | null,
): Promise<OutcomeCheck> {
  const q = shellQuote(path);
  const exists = await runProbe(context, { command: `test -e ${q}`, accepts: "zero_or_one" });
  if ("failed" in exists) return { status: "unchecked", detail: exists.failed };
  if (exists.exitCode !== 0) {
    return expected === null
      ? { status: "matches", detail: `${path} is gone, as the preview showed` }
      : { status: "differs", detail: `${path} does not exist, but the preview showed its new content` };
  }
  const hash = await runProbe(context, { command: `sha256sum -- ${q}`, accepts: "zero" });
  if ("failed" in hash) return { status: "unchecked", detail: hash.failed };
  const actual = hash.stdout.trim().split(/\s+/)[0] ?? "";
  if (actual === expected) return { status: "matches", detail: `${path} has the content the preview showed` };
  return {
    status: "differs",
    detail: `${path} is not what the preview showed (sha256 ${actual.slice(0, 12)}…, the preview's ${expected?.slice(0, 12) ?? "none"}…)`,
  };
}

async function verifyApt(
  context: ProbeContext,
  expectation: Extract<PreviewExpectation, { kind: "packages" }>,
): Promise<OutcomeCheck> {
  const names = [
    ...expectation.install.map((p) => p.name),
    ...expectation.upgrade.map((p) => p.name),
    ...expectation.remove,
  ];
  if (names.length === 0) return { status: "matches", detail: "the preview showed no package change" };
  const query = await runProbe(context, {
    command: `dpkg-query -W --showformat='\${Package}\\t\${Version}\\t\${db:Status-Abbrev}\\n' -- ${names.map(shellQuote).join(" ")}`,
    accepts: "any",
  });
  if ("failed" in query) return { status: "unchecked", detail: query.failed };
  const state = new Map<string, { version: string; installed: boolean }>();
  for (const line of query.stdout.split("\n")) {
    const [name, version, status] = line.split("\t");
    if (name)
      state.set(name.replace(/:.*$/, ""), {
        version: version ?? "",
        installed: (status ?? "").startsWith("ii"),
      });
  }
  const wrong: string[] = [];
  for (const p of [...expectation.install, ...expectation.upgrade]) {
    const now = state.get(p.name);
    if (!now?.installed) wrong.push(`${p.name} is not installed`);
    else if (p.version !== null && now.version !== p.version)
      wrong.push(`${p.name} is ${now.version}, the preview showed ${p.version}`);
  }
  for (const name of expectation.remove)
    if (state.get(name)?.installed) wrong.push(`${name} is still installed`);
  return wrong.length === 0
    ? { status: "matches", detail: `the packages are as the preview showed (${names.length})` }
    : { status: "differs", detail: wrong.join("; ") };
}
