import { createInterface } from "node:readline";
import { z } from "zod";
import type { Classifier } from "../../policy/classify.ts";
import { loadClassifier } from "../../policy/classify.ts";
import type { CommandIO } from "../command-module.ts";

export const description =
  "classify a shell command's risk (read_only, config_mutation, destructive, reject)";
export const usage = [
  "oikos classify [--target-type <type>] -- '<command>'   prints {risk, reasons, segments}",
  'oikos classify --jsonl                                 reads {"target_type", "command"} per stdin line,',
  "                                                       writes {risk, reasons} per line in the same order",
  "Needs no database or configuration. --target-type defaults to host.",
].join("\n");

const LineSchema = z.object({
  target_type: z.string().min(1).default("host"),
  command: z.string(),
});

interface Options {
  targetType: string;
  jsonl: boolean;
  command: string | null;
}

function parseArgs(argv: string[]): Options | string {
  const options: Options = { targetType: "host", jsonl: false, command: null };
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--") {
      words.push(...argv.slice(i + 1));
      break;
    }
    if (arg === "--jsonl") options.jsonl = true;
    else if (arg === "--target-type" || arg === "-t") {
      const value = argv[++i];
      if (!value) return "--target-type needs a value (host, lxc, vm, local …)";
      options.targetType = value;
    } else if (arg.startsWith("--target-type=")) options.targetType = arg.slice("--target-type=".length);
    else if (arg.startsWith("-")) return `unknown option ${arg}`;
    else words.push(arg);
  }
  if (words.length > 0) options.command = words.join(" ");
  return options;
}

function classifyLine(
  classifier: Classifier,
  line: string,
  lineNumber: number,
): { risk: string; reasons: string[] } {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch (error) {
    return { risk: "reject", reasons: [`line ${lineNumber} is not JSON: ${(error as Error).message}`] };
  }
  const parsed = LineSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join(".") || "line";
    return {
      risk: "reject",
      reasons: [
        `line ${lineNumber}: ${where}: ${issue?.message ?? "invalid"}; expected {"target_type", "command"}`,
      ],
    };
  }
  try {
    const result = classifier.classify(parsed.data.command, parsed.data.target_type);
    return { risk: result.risk, reasons: result.reasons };
  } catch (error) {
    return {
      risk: "reject",
      reasons: [`line ${lineNumber}: the classifier failed: ${(error as Error).message}`],
    };
  }
}

export async function run(argv: string[], io: CommandIO): Promise<number> {
  const options = parseArgs(argv);
  if (typeof options === "string") {
    io.stderr.write(`oikos classify: ${options}\n${usage}\n`);
    return 2;
  }
  const classifier = await loadClassifier();
  if (options.command !== null) {
    const result = classifier.classify(options.command, options.targetType);
    io.stdout.write(
      `${JSON.stringify({ risk: result.risk, reasons: result.reasons, segments: result.segments })}\n`,
    );
    return 0;
  }
  if (!options.jsonl) {
    io.stderr.write(`oikos classify: give a command after -- or use --jsonl\n${usage}\n`);
    return 2;
  }
  const lines = createInterface({ input: io.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  let lineNumber = 0;
  for await (const line of lines) {
    lineNumber++;
    io.stdout.write(`${JSON.stringify(classifyLine(classifier, line, lineNumber))}\n`);
  }
  return 0;
}
