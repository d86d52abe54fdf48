import { loadClassifier } from "../classify.ts";
import { CORPUS } from "../corpus/index.ts";

/**
 * Classifier throughput: the whole labelled corpus, parsed and walked again on every pass
 * (no result cache), single-threaded, for about two seconds after a warm-up.
 * `classifier_cmds_per_s` is wall-clock; `classifier_cmds_per_cpu_s` divides by this process's
 * CPU time instead, which stays comparable when other work shares the machine.
 */
export default async function classifierBench(): Promise<Record<string, number>> {
  const classifier = await loadClassifier();
  const commands = CORPUS.map((entry) => entry.command);
  for (let i = 0; i < 3; i++) for (const command of commands) classifier.classify(command, "host");
  let count = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  let elapsed = 0;
  while (elapsed < 2000) {
    for (const command of commands) classifier.classify(command, "host");
    count += commands.length;
    elapsed = performance.now() - started;
  }
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  return {
    classifier_cmds_per_s: Math.round((count / elapsed) * 1000),
    classifier_cmds_per_cpu_s: Math.round((count / cpuMs) * 1000),
  };
}
