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
  const json = argv.includes("--json");
  const names: string[] = [];
  let modelUrl: string | undefined;
  let modelName: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${arg} needs a value`);
      return next;
    };
    if (arg === "--scenario") names.push(value());
    else if (arg.startsWith("--scenario=")) names.push(arg.slice("--scenario=".length));
    else if (arg === "--model-url") modelUrl = value();
    else if (arg === "--model") modelName = value();
    else if (arg !== "--json" && arg !== "--fast") {
      io.stderr.write(`Unknown argument ${arg}\n${usage}\n`);
      return 2;
    }
  }
  // Loaded on demand: nothing imports evals/ statically, and `oikos help` stays light.
  const { formatScoreboard, jsonResult, runEvals, writeScoreboard } = await import(
    "../../evals/run-evals.ts"
  );
  const results = await runEvals({
    names,
    fastOnly: argv.includes("--fast"),
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
