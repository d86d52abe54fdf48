import { loadClassifier } from "../../../policy/classify.ts";
import { CORPUS } from "../../classifier-corpus/index.ts";

const WINDOWS = 5;
const WINDOW_MS = 400;

/**
 * Classifier throughput: the whole labelled corpus, parsed and walked again on every pass (no
 * result cache), single-threaded, after a 0.5 s warm-up. The run is five 400 ms windows (~2 s):
 * `classifier_cmds_per_s` is the best window (least disturbed by other work on the machine),
 * `classifier_cmds_per_s_mean` the whole run, `classifier_cmds_per_cpu_s` the whole run divided by
 * this process's CPU time instead of wall time.
 */
export default async function classifierBench(): Promise<Record<string, number>> {
  const classifier = await loadClassifier();
  const commands = CORPUS.map((entry) => entry.command);
  // Warm-up until the JIT has settled (about half a second).
  const warmUntil = performance.now() + 500;
  while (performance.now() < warmUntil) for (const command of commands) classifier.classify(command, "host");

  let best = 0;
  let total = 0;
  let totalMs = 0;
  const cpuBefore = process.cpuUsage();
  for (let w = 0; w < WINDOWS; w++) {
    let count = 0;
    const started = performance.now();
    let elapsed = 0;
    while (elapsed < WINDOW_MS) {
      for (const command of commands) classifier.classify(command, "host");
      count += commands.length;
      elapsed = performance.now() - started;
    }
    best = Math.max(best, (count / elapsed) * 1000);
    total += count;
    totalMs += elapsed;
  }
  const cpu = process.cpuUsage(cpuBefore);
  return {
    classifier_cmds_per_s: Math.round(best),
    classifier_cmds_per_s_mean: Math.round((total / totalMs) * 1000),
    classifier_cmds_per_cpu_s: Math.round((total / ((cpu.user + cpu.system) / 1000)) * 1000),
  };
}
