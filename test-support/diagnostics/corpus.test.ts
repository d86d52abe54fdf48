import assert from "node:assert/strict";
import { test } from "node:test";
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
