import { z } from "zod";
import type { Classifier } from "../../policy/classify.ts";
import { loadClassifier } from "../../policy/classify.ts";
import { commandArgs } from "../command-args.ts";
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
  const args = commandArgs({ name: "classify", usage, io }, argv, {
    options: { "target-type": { type: "string", short: "t", default: "host" }, jsonl: { type: "boolean" } },
    allowPositionals: true,
  });
  if (!args) return 2;
  const targetType = args.values["target-type"];
  const command = args.positionals.length > 0 ? args.positionals.join(" ") : null;
  const classifier = await loadClassifier();
  if (command !== null) {
    const result = classifier.classify(command, targetType);
    io.stdout.write(
      `${JSON.stringify({ risk: result.risk, reasons: result.reasons, segments: result.segments })}\n`,
    );
    return 0;
  }
  if (!args.values.jsonl) {
    io.stderr.write(`oikos classify: give a command after -- or use --jsonl\n${usage}\n`);
    return 2;
  }
  let lineNumber = 0;
  for await (const line of jsonLines(io.stdin)) {
    lineNumber++;
    io.stdout.write(`${JSON.stringify(classifyLine(classifier, line, lineNumber))}\n`);
  }
  return 0;
}

/**
 * The lines of a JSONL stream: split on `\n` only (a trailing `\r` dropped). Node's readline also
 * ends a line at `\r` and at U+2028/U+2029, which a JSON string may hold raw, so one command would
 * come back as two answers.
 */
export async function* jsonLines(input: NodeJS.ReadableStream): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8");
  let pending = "";
  for await (const chunk of input) {
    pending += typeof chunk === "string" ? chunk : decoder.decode(chunk as Uint8Array, { stream: true });
    let end = pending.indexOf("\n");
    while (end >= 0) {
      yield pending.slice(0, end).replace(/\r$/, "");
      pending = pending.slice(end + 1);
      end = pending.indexOf("\n");
    }
  }
  pending += decoder.decode();
  if (pending !== "") yield pending.replace(/\r$/, "");
}
