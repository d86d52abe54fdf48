import { redact } from "../../../policy/redact.ts";
import { LOOKALIKE_SAMPLES } from "../../secret-samples/lookalike-samples.ts";
import { PATHOLOGICAL_SHAPES } from "../../secret-samples/pathological.ts";
import { SECRET_SAMPLES } from "../../secret-samples/secret-samples.ts";

const WINDOWS = 5;
const WINDOW_MS = 400;
const CHUNK = 16 * 1024;

/**
 * Redaction throughput on mixed command output: ~2 MB of what the execute worker stores (log lines,
 * listings, configs, JSON from the look-alike corpus) with one real-shaped secret every few KiB,
 * redacted in 16 KiB pieces as outputs arrive. Best of five 400 ms windows after a warm-up, like
 * the classifier bench; `redact_mb_per_cpu_s` divides by this process's CPU time instead (steadier
 * on a busy machine). `redact_pathological_mb_per_s` runs the shapes of policy/secrets/linear.test.ts.
 */
export default async function redactBench(): Promise<Record<string, number>> {
  const mixed = chunks(mixedCommandOutput(2_000_000));
  const pathological = chunks(pathologicalInput(400_000));
  const cpuBefore = process.cpuUsage();
  const mixedRate = throughput(mixed);
  const cpu = process.cpuUsage(cpuBefore);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  return {
    redact_mb_per_s: mixedRate.best,
    redact_mb_per_cpu_s: mixedRate.megabytes / cpuSeconds,
    redact_pathological_mb_per_s: throughput(pathological).best,
  };
}

function throughput(pieces: readonly string[]): { best: number; megabytes: number } {
  const bytes = pieces.reduce((sum, piece) => sum + piece.length, 0);
  const warmUntil = performance.now() + 500;
  while (performance.now() < warmUntil) for (const piece of pieces) redact(piece);
  let best = 0;
  let megabytes = 0;
  for (let w = 0; w < WINDOWS; w++) {
    let done = 0;
    const started = performance.now();
    let elapsed = 0;
    while (elapsed < WINDOW_MS) {
      for (const piece of pieces) redact(piece);
      done += bytes;
      elapsed = performance.now() - started;
    }
    best = Math.max(best, done / 1e6 / (elapsed / 1000));
    megabytes += done / 1e6;
  }
  return { best, megabytes };
}

function chunks(text: string): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; at += CHUNK) out.push(text.slice(at, at + CHUNK));
  return out;
}

/** Deterministic mixed output: journal and access-log lines, command listings, configs, a secret now and then. */
export function mixedCommandOutput(size: number): string {
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < size; i++) {
    const piece =
      i % 3 === 0
        ? logLines(i)
        : i % 11 === 0
          ? SECRET_SAMPLES[i % SECRET_SAMPLES.length]!.text
          : LOOKALIKE_SAMPLES[i % LOOKALIKE_SAMPLES.length]!.text;
    parts.push(piece);
    length += piece.length + 1;
  }
  return parts.join("\n");
}

function logLines(seed: number): string {
  const lines: string[] = [];
  for (let n = 0; n < 12; n++) {
    const k = seed * 12 + n;
    lines.push(
      n % 2 === 0
        ? `May 06 10:${String(k % 60).padStart(2, "0")}:0${k % 10} pve kernel: [${k}.${k % 997}] vmbr0: port ${k % 8}(tap${k % 300}i0) entered forwarding state`
        : `10.0.0.${k % 250} - - [06/May/2024:10:00:${String(k % 60).padStart(2, "0")} +0000] "GET /api/v1/items/${k}?page=${k % 9} HTTP/1.1" 200 ${k % 5000} "-" "Mozilla/5.0"`,
    );
  }
  return lines.join("\n");
}

function pathologicalInput(size: number): string {
  const shapes = Object.values(PATHOLOGICAL_SHAPES);
  let text = "";
  for (let i = 0; text.length < size; i++) text += `${shapes[i % shapes.length]}\n`;
  return text;
}
