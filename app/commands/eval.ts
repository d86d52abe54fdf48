import { existsSync } from "node:fs";
import { commandArgs } from "../command-args.ts";
import type { CommandIO } from "../command-module.ts";

export const description =
  "replay the golden scenarios (past incidents) against a simulated homelab and score them";
export const usage = [
  "oikos eval [--json] [--scenario NAME]... [--fast] [--model-url URL] [--model NAME]",
  "Runs every manifest in evals/scenarios/ end to end: Matrix double → bot → agent → MCP gates → real sshd",
  "hosts with fake toolboxes. Default model: each scenario's scripted model. --model-url points the agent at",
  "a real OpenAI-compatible endpoint (key from OPENAI_API_KEY) scored with the same assertions.",
  '--json: the last line is {"scenarios":[{name,passed,failures,tool_calls,model_calls,wall_ms}]}.',
  "The scoreboard and a JSON dump of each failed scenario's final state go to OIKOS_EVAL_OUT (default ./eval-results).",
  "Exit code 1 when any scenario fails.",
].join("\n");

export async function run(argv: string[], io: CommandIO): Promise<number> {
  const args = commandArgs({ name: "eval", usage, io }, argv, {
    options: {
      json: { type: "boolean", default: false },
      scenario: { type: "string", multiple: true, default: [] },
      fast: { type: "boolean", default: false },
      "model-url": { type: "string" },
      model: { type: "string" },
    },
  });
  if (!args) return 2;
  const { json, scenario: names, fast, "model-url": modelUrl, model: modelName } = args.values;
  if (!existsSync(new URL("../../evals/run-evals.ts", import.meta.url))) {
    io.stderr.write(
      "oikos eval: the scenarios are not part of this installation (the Docker image ships without " +
        "evals/ and test-support/); run `npm run eval` in a clone of the repository.\n",
    );
    return 2;
  }
  // Loaded on demand: nothing imports evals/ statically, and `oikos help` stays light.
  const { formatScoreboard, jsonResult, runEvals, writeScoreboard } = await import(
    "../../evals/run-evals.ts"
  );
  const results = await runEvals({
    names,
    fastOnly: fast,
    modelUrl,
    modelName: modelName ?? process.env.OIKOS_MODEL,
    modelApiKey: modelUrl ? process.env.OPENAI_API_KEY : undefined,
    onResult: (r) => {
      if (!json) io.stderr.write(`${r.passed ? "PASS" : "FAIL"} ${r.name} (${r.wall_ms} ms)\n`);
    },
  });
  const scoreboard = formatScoreboard(results);
  io.stdout.write(`${scoreboard}\n`);
  await writeScoreboard(scoreboard);
  if (json) io.stdout.write(`${JSON.stringify({ scenarios: results.map(jsonResult) })}\n`);
  return results.every((r) => r.passed) ? 0 : 1;
}
