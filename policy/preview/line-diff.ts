/**
 * A unified diff of two texts by lines (Myers' O(ND) algorithm), for the file-edit preview. Pure.
 * Past `maxEdits` differing lines it gives up (null): a preview of a rewrite that large says so
 * instead of guessing.
 */

export interface DiffOptions {
  /** Unchanged lines shown around each change. */
  context?: number;
  maxEdits?: number;
}

type Edit = { op: " " | "-" | "+"; line: string };

const DEFAULT_MAX_EDITS = 4_000;

/** The diff with `---`/`+++` headers, or "" when the texts are equal, or null past `maxEdits`. */
export function unifiedDiff(
  labels: { before: string; after: string },
  before: string,
  after: string,
  options: DiffOptions = {},
): string | null {
  if (before === after) return "";
  const a = splitLines(before);
  const b = splitLines(after);
  const edits = diffLines(a, b, options.maxEdits ?? DEFAULT_MAX_EDITS);
  if (edits === null) return null;
  const hunks = toHunks(edits, options.context ?? 3);
  return [`--- ${labels.before}`, `+++ ${labels.after}`, ...hunks].join("\n");
}

/** Lines with their ending kept apart: a missing final newline is shown like diff(1) does. */
function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  else lines[lines.length - 1] += "\n\\ No newline at end of file";
  return lines;
}

function diffLines(a: string[], b: string[], maxEdits: number): Edit[] | null {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, maxEdits);
  const offset = max + 1;
  let v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    const next = v.slice();
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && (v[offset + k - 1] as number) < (v[offset + k + 1] as number));
      let x = down ? (v[offset + k + 1] as number) : (v[offset + k - 1] as number) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      next[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, a, b, offset, d, k);
    }
    v = next;
  }
  return null;
}

function backtrack(
  trace: Int32Array[],
  a: string[],
  b: string[],
  offset: number,
  d: number,
  k: number,
): Edit[] {
  const edits: Edit[] = [];
  let x = a.length;
  let y = b.length;
  for (let depth = d; depth > 0; depth--) {
    const v = trace[depth] as Int32Array;
    const down =
      k === -depth || (k !== depth && (v[offset + k - 1] as number) < (v[offset + k + 1] as number));
    const prevK = down ? k + 1 : k - 1;
    const prevX = v[offset + prevK] as number;
    const prevY = prevX - prevK;
    while (x > prevX + (down ? 0 : 1) && y > prevY + (down ? 1 : 0)) {
      edits.push({ op: " ", line: a[--x] as string });
      y--;
    }
    if (down) edits.push({ op: "+", line: b[--y] as string });
    else edits.push({ op: "-", line: a[--x] as string });
    k = prevK;
  }
  while (x > 0 && y > 0) {
    edits.push({ op: " ", line: a[--x] as string });
    y--;
  }
  return edits.reverse();
}

function toHunks(edits: Edit[], context: number): string[] {
  const out: string[] = [];
  let i = 0;
  // Line numbers before each edit, 1-based, for the hunk headers.
  const aLine: number[] = [];
  const bLine: number[] = [];
  let la = 1;
  let lb = 1;
  for (const edit of edits) {
    aLine.push(la);
    bLine.push(lb);
    if (edit.op !== "+") la++;
    if (edit.op !== "-") lb++;
  }
  while (i < edits.length) {
    while (i < edits.length && (edits[i] as Edit).op === " ") i++;
    if (i >= edits.length) break;
    const start = Math.max(0, i - context);
    let end = i;
    let lastChange = i;
    while (end < edits.length) {
      if ((edits[end] as Edit).op !== " ") lastChange = end;
      else if (end - lastChange > 2 * context) break;
      end++;
    }
    const stop = Math.min(edits.length, lastChange + context + 1);
    const slice = edits.slice(start, stop);
    const aCount = slice.filter((e) => e.op !== "+").length;
    const bCount = slice.filter((e) => e.op !== "-").length;
    const aStart = aCount === 0 ? (aLine[start] as number) - 1 : (aLine[start] as number);
    const bStart = bCount === 0 ? (bLine[start] as number) - 1 : (bLine[start] as number);
    out.push(`@@ -${aStart},${aCount} +${bStart},${bCount} @@`);
    for (const edit of slice) out.push(`${edit.op}${edit.line}`);
    i = stop;
  }
  return out;
}
