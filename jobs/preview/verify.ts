import { shellQuote } from "../../policy/preview/rule.ts";
import type { OutcomeCheck, PreviewExpectation } from "../../policy/preview/types.ts";
import { type ProbeContext, runProbe } from "./run-probe.ts";

/**
 * After the run: does the target show what the preview said? A file's sha256, apt's package lists
 * (dpkg-query). Read-only probes, run like the preview's; a check that cannot run is `unchecked`.
 */
export async function verifyExpectation(
  context: ProbeContext,
  expectation: PreviewExpectation,
): Promise<OutcomeCheck> {
  switch (expectation.kind) {
    case "file_hash":
      return verifyFile(context, expectation.path, expectation.sha256After);
    case "packages":
      if (expectation.manager !== "apt")
        return { status: "unchecked", detail: `no check for ${expectation.manager}` };
      return verifyApt(context, expectation);
  }
}

async function verifyFile(
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
