import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const CHILD = fileURLToPath(new URL("../../test-support/jobs/queue/crash-child.ts", import.meta.url));

/** Runs the child; calls onLine for each stdout JSON line; resolves with its exit code/signal. */
function runChild(
  phase: string,
  dir: string,
  onLine: (line: Record<string, unknown>, kill: () => void) => void,
) {
  const child = spawn(process.execPath, [CHILD, phase, dir], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  createInterface({ input: child.stdout }).on("line", (text) => {
    onLine(JSON.parse(text) as Record<string, unknown>, () => child.kill("SIGKILL"));
  });
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) => {
    child.on("close", (code, signal) => resolve({ code, signal, stderr }));
  });
}

test("in-process queue after kill -9: the running job is interrupted, not re-run; waiting jobs run", {
  timeout: 60_000,
}, async () => {
  const dir = await mkdtemp(join(tmpdir(), "oikos-crash-"));
  try {
    const first = await runChild("first", join(dir, "pg"), (line, kill) => {
      if (line.started === "exec-long") kill();
    });
    assert.equal(first.signal, "SIGKILL", `first run ended without the kill: ${first.stderr}`);

    const lines: Record<string, unknown>[] = [];
    const second = await runChild("second", join(dir, "pg"), (line) => lines.push(line));
    assert.equal(second.code, 0, second.stderr);

    const interrupted = lines.filter((l) => "interrupted" in l);
    assert.deepEqual(
      interrupted.map((l) => [l.interrupted, l.data]),
      [["exec-long", { executionId: "long" }]],
    );
    assert.match(String(interrupted[0]!.reason), /process stopped/);
    assert.deepEqual(
      lines.filter((l) => "ran" in l).map((l) => l.ran),
      ["exec-w1", "exec-w2"],
    );
    assert.deepEqual(
      lines.filter((l) => "error" in l),
      [],
    );
    const rows = lines.find((l) => "rows" in l)?.rows;
    assert.deepEqual(rows, [
      { id: "exec-long", status: "interrupted", attempts: 1 },
      { id: "exec-w1", status: "done", attempts: 1 },
      { id: "exec-w2", status: "done", attempts: 1 },
    ]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
