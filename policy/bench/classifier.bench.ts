import { loadClassifier } from "../classify.ts";
import { CORPUS } from "../corpus/index.ts";

/**
 * Classifier throughput: the whole labelled corpus, parsed and walked again on every pass
 * (no result cache), single-threaded, for about two seconds after a short warm-up.
 */
export default async function classifierBench(): Promise<Record<string, number>> {
  const classifier = await loadClassifier();
  const commands = CORPUS.map((entry) => entry.command);
  for (const command of commands) classifier.classify(command, "host");
  let count = 0;
  const started = performance.now();
  let elapsed = 0;
  while (elapsed < 2000) {
    for (const command of commands) classifier.classify(command, "host");
    count += commands.length;
    elapsed = performance.now() - started;
  }
  return { classifier_cmds_per_s: Math.round((count / elapsed) * 1000) };
}
