import { shellQuote } from "../ssh/shell-quote.ts";

/**
 * Many `pvesh get <path> --output-format json` reads in one remote command: discovery reads the
 * cluster in a few SSH commands, not one per guest. Each path's output is framed by a marker line on
 * stdout and on stderr, with its exit status, so one failed read (a node that went down, a guest
 * removed meanwhile) is that path's error and the others still count. `--output-format json` prints
 * one line of compact JSON, so a marker can never fall inside a document.
 */

const START = "@@oikos-pvesh ";
const END = "@@oikos-pvesh-exit ";

/** Runs one command on the node and gives back both streams and the exit status. */
export type NodeCommand = (
  command: string,
) => Promise<{ stdout: string; stderr: string; exitCode: number | null }>;

export type PveshRead = { ok: true; json: unknown } | { ok: false; error: string };

/**
 * One host-side script running each line in turn, each framed on stdout and stderr by a marker with
 * its id and, after it, its exit status. Ids are oikos's own (API paths, vmids): quoted all the same.
 */
export function framedCommand(items: readonly { id: string; line: string }[]): string {
  return items
    .map(({ id, line }) => {
      const start = shellQuote(`${START}${id}`);
      return [
        `printf '%s\\n' ${start}; printf '%s\\n' ${start} >&2`,
        `${line}; s=$?`,
        `printf '\\n${END}%s\\n' "$s"; printf '\\n${END}%s\\n' "$s" >&2`,
      ].join("; ");
    })
    .join("\n");
}

/** Each path read in turn. Paths are quoted: node names come from the cluster. */
export function pveshBatchCommand(paths: readonly string[]): string {
  return framedCommand(
    paths.map((path) => ({ id: path, line: `pvesh get ${shellQuote(path)} --output-format json` })),
  );
}

/** Each framed line's output: stdout, stderr and exit status (null: it never finished). */
export function parseFramed(
  ids: readonly string[],
  output: { stdout: string; stderr: string },
): Map<string, { stdout: string; stderr: string; exit: number | null }> {
  const out = frames(output.stdout);
  const err = frames(output.stderr);
  return new Map(
    ids.map((id) => [
      id,
      { stdout: out.get(id)?.text ?? "", stderr: err.get(id)?.text ?? "", exit: out.get(id)?.exit ?? null },
    ]),
  );
}

/** Splits the batch's output back into one result per path (a path with no frame: the batch broke off). */
export function parsePveshBatch(
  paths: readonly string[],
  output: { stdout: string; stderr: string },
): Map<string, PveshRead> {
  const framed = parseFramed(paths, output);
  const results = new Map<string, PveshRead>();
  for (const path of paths) {
    const frame = framed.get(path)!;
    const stderr = frame.stderr.trim();
    if (frame.exit === null) {
      results.set(path, { ok: false, error: `pvesh get ${path}: no answer (the batch stopped early)` });
      continue;
    }
    if (frame.exit !== 0) {
      results.set(path, {
        ok: false,
        error: `pvesh get ${path}: exit ${frame.exit}: ${stderr.slice(0, 300)}`,
      });
      continue;
    }
    try {
      results.set(path, { ok: true, json: JSON.parse(frame.stdout) });
    } catch {
      results.set(path, { ok: false, error: `pvesh get ${path} did not print JSON` });
    }
  }
  return results;
}

function frames(text: string): Map<string, { text: string; exit: number | null }> {
  const found = new Map<string, { text: string; exit: number | null }>();
  let current: { path: string; lines: string[] } | null = null;
  for (const line of text.split("\n")) {
    if (line.startsWith(START)) {
      current = { path: line.slice(START.length), lines: [] };
      found.set(current.path, { text: "", exit: null });
      continue;
    }
    if (current && line.startsWith(END)) {
      const exit = Number(line.slice(END.length));
      found.set(current.path, {
        text: current.lines.join("\n"),
        exit: Number.isInteger(exit) ? exit : null,
      });
      current = null;
      continue;
    }
    current?.lines.push(line);
  }
  return found;
}

/**
 * Reads `paths` in up to `parallel` batches at once (each its own channel on the node's pooled
 * connection: pvesh is slow to start, so the node's cores share the work).
 */
export async function pveshReadAll(
  run: NodeCommand,
  paths: readonly string[],
  parallel = 2,
): Promise<Map<string, PveshRead>> {
  const unique = [...new Set(paths)];
  if (unique.length === 0) return new Map();
  const size = Math.ceil(unique.length / Math.max(1, parallel));
  const chunks: string[][] = [];
  for (let i = 0; i < unique.length; i += size) chunks.push(unique.slice(i, i + size));
  const parts = await Promise.all(
    chunks.map(async (chunk) => {
      try {
        return parsePveshBatch(chunk, await run(pveshBatchCommand(chunk)));
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        return new Map(chunk.map((path): [string, PveshRead] => [path, { ok: false, error: why }]));
      }
    }),
  );
  return new Map(parts.flatMap((part) => [...part]));
}
