/**
 * The outside attack of 2026-12 (second round), measured: every command tried, by class, through the
 * classifier; how many it proves read-only, and (with --list) which, with their grants. The effects
 * of the ones that auto-run are executed by jobs/ssh/outside-attack-effects.test.ts.
 *
 *   node test-support/attack-2026-12/measure.ts [--list]
 */
import { readFileSync } from "node:fs";
import { loadClassifier } from "../../policy/classify.ts";

export const ATTACK_CLASSES = [
  "bash-features",
  "read-tools",
  "network-tools",
  "service-clients",
  "elsewhere",
] as const;

/** One command a line; blank lines and `#` comments are skipped. */
export function attackCommands(name: (typeof ATTACK_CLASSES)[number]): string[] {
  return readFileSync(new URL(`./${name}.txt`, import.meta.url), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "" && !line.startsWith("#"));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const list = process.argv.includes("--list");
  const classifier = await loadClassifier();
  let tried = 0;
  let readOnly = 0;
  for (const name of ATTACK_CLASSES) {
    const commands = attackCommands(name);
    const proven = commands
      .map((command) => ({ command, result: classifier.classify(command, "host") }))
      .filter(({ result }) => result.risk === "read_only");
    tried += commands.length;
    readOnly += proven.length;
    console.log(`${name}: tried ${commands.length}, read_only ${proven.length}`);
    if (list)
      for (const { command, result } of proven)
        console.log(`  ${command}    ${JSON.stringify(result.grants ?? [])}`);
  }
  console.log(`total: tried ${tried}, read_only ${readOnly}`);
}
