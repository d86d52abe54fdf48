import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { CORPUS } from "../test-support/classifier-corpus/index.ts";
import { loadClassifier } from "./classify.ts";

/** CPU milliseconds of this process's main thread (Linux: /proc/self/task/<pid>/stat). */
function mainThreadCpuMs(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const processCpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

// base/wasm-tier.ts: TurboFan on the bash grammar's huge functions ran on V8's background threads
// (~450 ms of CPU for the first fifty commands after a start, ~500 ms for this corpus twice); on
// the baseline tier those threads only collect garbage and compile JavaScript (~80 ms here).
test("the parsers' WebAssembly stays on V8's baseline tier: classifying adds no background compiling", async () => {
  const classifier = await loadClassifier();
  const processBefore = processCpuMs();
  const mainBefore = mainThreadCpuMs();
  for (let pass = 0; pass < 2; pass++) for (const entry of CORPUS) classifier.classify(entry.command, "host");
  // Background compiles run after the calls that made a function hot.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const otherThreads = processCpuMs() - processBefore - (mainThreadCpuMs() - mainBefore);
  assert.ok(
    otherThreads < 250,
    `background threads used ${Math.round(otherThreads)} ms of CPU while classifying`,
  );
});
