import { OUTSIDE_CASES } from "./cases.ts";
import { type CaseResult, runCase, startOutsideLab } from "./runner.ts";

/** `node test-support/jobs/preview/outside-check/main.ts [id-filter]`: every case, its verdict and why. */
const filter = process.argv[2];
const lab = await startOutsideLab();
const results: CaseResult[] = [];
try {
  const cases = OUTSIDE_CASES.filter((c) => !filter || c.id.includes(filter) || c.cls === filter);
  const queue = [...cases];
  await Promise.all(
    [0, 1, 2].map(async () => {
      for (let c = queue.shift(); c; c = queue.shift()) {
        try {
          results.push(await runCase(lab, c));
        } catch (error) {
          results.push({
            id: c.id,
            cls: c.cls,
            command: c.command,
            verdict: "wrong",
            why: `runner: ${(error as Error).message}`,
            previewStatus: "failed",
            previewText: "",
            changes: [],
            outcome: "",
          });
        }
      }
    }),
  );
} finally {
  await lab.stop();
}
results.sort((a, b) => a.id.localeCompare(b.id));
for (const r of results) {
  console.log(
    `\n=== ${r.verdict.toUpperCase()} ${r.id} [${r.cls}] ${r.why}\n$ ${r.command}\nchanges: ${r.changes.join("; ")}\npreview(${r.previewStatus}): ${r.previewText.slice(0, 1500)}\noutcome: ${r.outcome}`,
  );
}
const counts: Record<string, number> = {};
for (const r of results) counts[r.verdict] = (counts[r.verdict] ?? 0) + 1;
console.log(`\nTOTAL ${results.length}`, JSON.stringify(counts));
