import { redactWithReport } from "../../policy/redact.ts";
import { commandArgs } from "../command-args.ts";
import type { CommandIO } from "../command-module.ts";

export const description = "remove secrets from text on stdin (a log to share, a config to paste)";
export const usage = [
  "oikos redact [--report] < input > output",
  "Writes stdin to stdout with every secret oikos recognises replaced by [REDACTED] — the same",
  "detectors that clean chat, model context, logs and stored output. --report prints, on stderr,",
  "how many secrets each rule found. Needs no database or configuration.",
].join("\n");

/** Flush a piece once this much is buffered and it ends at a line outside any key block. */
const PIECE_BYTES = 4 * 1024 * 1024;

export async function run(argv: string[], io: CommandIO): Promise<number> {
  const args = commandArgs({ name: "redact", usage, io }, argv, { options: { report: { type: "boolean" } } });
  if (!args) return 2;
  const report = args.values.report === true;
  const hits = new Map<string, number>();
  const emit = async (text: string): Promise<void> => {
    const result = redactWithReport(text);
    for (const [rule, count] of Object.entries(result.hits)) hits.set(rule, (hits.get(rule) ?? 0) + count);
    if (!io.stdout.write(result.text)) await new Promise((resolve) => io.stdout.once("drain", resolve));
  };
  // Binary or invalid UTF-8 input is decoded with replacement characters, never rejected.
  const decoder = new TextDecoder("utf-8");
  let pending = "";
  for await (const chunk of io.stdin) {
    pending += decoder.decode(chunk as Buffer, { stream: true });
    const cut = safeCut(pending);
    if (cut > 0) {
      await emit(pending.slice(0, cut));
      pending = pending.slice(cut);
    }
  }
  pending += decoder.decode();
  if (pending.length > 0) await emit(pending);
  if (report) io.stderr.write(reportLines(hits));
  return 0;
}

/**
 * Where the buffered text may be split: after its last newline, once enough is buffered, unless a
 * key block is still open there (a private key split in two would hide from both halves).
 */
function safeCut(text: string): number {
  if (text.length < PIECE_BYTES) return 0;
  const cut = text.lastIndexOf("\n") + 1;
  if (cut === 0) return 0;
  const head = text.slice(0, cut);
  const begin = head.lastIndexOf("-----BEGIN");
  if (begin >= 0 && head.indexOf("-----END", begin) < 0 && text.length < 16 * PIECE_BYTES) return 0;
  return cut;
}

function reportLines(hits: ReadonlyMap<string, number>): string {
  const total = [...hits.values()].reduce((sum, count) => sum + count, 0);
  if (total === 0) return "oikos redact: no secrets found\n";
  const rules = [...hits].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return `oikos redact: ${total} secret${total === 1 ? "" : "s"} redacted\n${rules
    .map(([rule, count]) => `  ${rule}  ${count}\n`)
    .join("")}`;
}
