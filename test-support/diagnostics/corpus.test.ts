import assert from "node:assert/strict";
import { test } from "node:test";
import { loadClassifier } from "../../policy/classify.ts";
import { grantKey, type JailGrant, unionGrants } from "../../policy/jail-grant.ts";
import { DIAGNOSTICS } from "./corpus.ts";
import { DIAGNOSTIC_AREAS, LAB_PLACEHOLDERS } from "./schema.ts";

test("the daily-diagnostics corpus: at least 150 distinct commands, every area present", () => {
  assert.ok(DIAGNOSTICS.length >= 150, `${DIAGNOSTICS.length} rows`);
  const commands = DIAGNOSTICS.map((row) => row.command);
  assert.equal(new Set(commands).size, commands.length, "a command is listed twice");
  const areas = new Set(DIAGNOSTICS.map((row) => row.area));
  assert.deepEqual(
    DIAGNOSTIC_AREAS.filter((area) => !areas.has(area)),
    [],
  );
});

test("a lab command uses only the placeholders its fixture provides", () => {
  const wrong: string[] = [];
  for (const row of DIAGNOSTICS) {
    if (row.lab.runs !== "here") continue;
    const lab = row.lab;
    for (const placeholder of (lab.command ?? row.command).match(/\{\{[a-z]+\}\}/g) ?? []) {
      if (LAB_PLACEHOLDERS[placeholder] !== lab.fixture) wrong.push(`${row.command}: ${placeholder}`);
    }
  }
  assert.deepEqual(wrong, []);
});

const classifier = await loadClassifier();

/** Why a row does not run with nobody asked exactly as listed, or null. */
function miss(command: string, expected: readonly JailGrant[]): string | null {
  const result = classifier.classify(command, "host");
  if (result.risk !== "read_only") return `${result.risk}: ${result.reasons[0] ?? ""}`;
  const want = unionGrants(expected).map(grantKey);
  const got = unionGrants(result.grants ?? []).map(grantKey);
  return want.join(",") === got.join(",")
    ? null
    : `grants ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`;
}

test("at least 97 % of the daily diagnostics auto-run: read_only with exactly the expected grants", (t) => {
  const misses = DIAGNOSTICS.map((row) => ({ row, why: miss(row.command, row.grants) })).filter((m) => m.why);
  const ratio = (DIAGNOSTICS.length - misses.length) / DIAGNOSTICS.length;
  t.diagnostic(
    `diagnostics_autorun_ratio ${ratio.toFixed(3)} (${DIAGNOSTICS.length - misses.length}/${DIAGNOSTICS.length})`,
  );
  for (const { row, why } of misses) t.diagnostic(`${row.command}: ${why}`);
  assert.ok(ratio >= 0.97, `${misses.length} rows do not auto-run`);
});

test("a lab command is the same diagnostic: read_only with the same kinds of grants", () => {
  const sample: Record<string, string> = {
    "{{disk}}": "/dev/loop3",
    "{{partition}}": "/dev/loop3p1",
    "{{interface}}": "veth-lab0",
    "{{port}}": "18080",
  };
  const differ: string[] = [];
  for (const row of DIAGNOSTICS) {
    if (row.lab.runs !== "here" || !row.lab.command || miss(row.command, row.grants)) continue;
    const command = row.lab.command.replace(/\{\{[a-z]+\}\}/g, (p) => sample[p] ?? p);
    const result = classifier.classify(command, "host");
    const kinds = (grants: readonly JailGrant[]) =>
      [...new Set(grants.map((g) => g.resource))].sort().join(",");
    if (result.risk !== "read_only" || kinds(result.grants ?? []) !== kinds(row.grants))
      differ.push(`${command}: ${result.risk} ${kinds(result.grants ?? [])}`);
  }
  assert.deepEqual(differ, []);
});
