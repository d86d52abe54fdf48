import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { parsePveshBatch, pveshBatchCommand } from "./pvesh-batch.ts";

test("one command reads many paths; each path keeps its own answer, error and exit status", () => {
  // a stand-in pvesh: JSON for two paths, an error for the third (as pvesh prints them)
  const dir = mkdtempSync(join(tmpdir(), "pvesh-batch-"));
  try {
    writeFileSync(
      join(dir, "pvesh"),
      [
        "#!/bin/sh",
        'case "$2" in',
        '  /a) echo \'[{"x":1,"text":"line\\\\nbreak @@oikos-pvesh-exit 0"}]\' ;;',
        "  /b) printf '{\"y\":2}' ;;",
        "  *) echo \"Configuration file 'nodes/pve1/lxc/9.conf' does not exist\" >&2; exit 2 ;;",
        "esac",
      ].join("\n"),
    );
    chmodSync(join(dir, "pvesh"), 0o755);
    const paths = ["/a", "/b", "/nodes/pve1/lxc/9/config", "/never"];
    const command = pveshBatchCommand(paths.slice(0, 3));
    const run = (shell: string) => {
      const ran = spawnSync(shell, ["-c", command], {
        env: { PATH: `${dir}:/usr/bin:/bin` },
        encoding: "utf8",
      });
      return { stdout: ran.stdout, stderr: ran.stderr };
    };
    const out = run("bash");
    const reads = parsePveshBatch(paths, out);
    assert.deepEqual(reads.get("/a"), {
      ok: true,
      json: [{ x: 1, text: "line\nbreak @@oikos-pvesh-exit 0" }],
    });
    assert.deepEqual(reads.get("/b"), { ok: true, json: { y: 2 } });
    const failed = reads.get("/nodes/pve1/lxc/9/config");
    assert.ok(failed && !failed.ok);
    assert.match(failed.error, /exit 2: Configuration file 'nodes\/pve1\/lxc\/9.conf' does not exist/);
    const never = reads.get("/never");
    assert.ok(never && !never.ok && /no answer/.test(never.error));
    // the same script runs under a POSIX sh too
    assert.deepEqual(parsePveshBatch(paths.slice(0, 2), { stdout: run("sh").stdout, stderr: "" }).get("/b"), {
      ok: true,
      json: { y: 2 },
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
