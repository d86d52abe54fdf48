import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { seedEmbeddedDataDir } from "../test-support/embedded-data-dir.ts";
import { runCli, spawnCli } from "../test-support/run-cli.ts";

/** The CLI with no configuration beyond what the test passes. */
const run = (args: string[], input: string, env: Record<string, string>) =>
  runCli(args, {
    stdin: input,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env },
  });

test("`oikos start` with no configuration: help, status on PGlite and the in-process queue, clean exit", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "oikos-start-"));
  try {
    const first = await run(["start"], "!help\n!status\n", {
      OIKOS_SHELL: "true",
      OIKOS_DATA_DIR: dataDir,
      OIKOS_LOG_LEVEL: "warn",
    });
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /!help/);
    assert.match(first.stdout, /!status/);
    assert.match(first.stdout, /database:\s+PGlite \(embedded\)/);
    assert.match(first.stdout, /queue:\s+in-process queue/);
    assert.match(first.stdout, /model:\s+not configured/);

    // A second start on the same data folder applies no migration again and still works.
    const second = await run(["start"], "!status\n", {
      OIKOS_SHELL: "true",
      OIKOS_DATA_DIR: dataDir,
      OIKOS_LOG_LEVEL: "info",
    });
    assert.equal(second.code, 0, second.stderr);
    const log = readFileSync(join(dataDir, "oikos.log"), "utf8");
    assert.match(log, /"msg":"oikos started"/, "the terminal's log goes to <dataDir>/oikos.log");
    assert.doesNotMatch(log, /database migrated/);
    assert.match(second.stdout, /PGlite/);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test("a newcomer's `oikos start` session shows no JSON log line: logs go to <dataDir>/oikos.log, said once", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "oikos-quiet-"));
  try {
    const session = await run(["start"], "!help\n!tasks\nhello, is the nas up?\n!entity host:nas\n", {
      OIKOS_SHELL: "true",
      OIKOS_DATA_DIR: dataDir,
      OIKOS_LOG_LEVEL: "debug",
    });
    assert.equal(session.code, 0, session.stderr);
    assert.match(session.stdout, /No model is configured/);
    assert.match(session.stdout, /There is no entity `host:nas`/);
    const shown = `${session.stdout}\n${session.stderr}`.split("\n");
    const json = shown.filter((line) => /^\s*\{.*"(level|msg)"/.test(line));
    assert.deepEqual(json, [], "no JSON log line in the conversation");
    const told = session.stderr.split("\n").filter((line) => line.includes("oikos.log"));
    assert.equal(told.length, 1, "where the log goes is said once");
    const log = readFileSync(join(dataDir, "oikos.log"), "utf8").trim().split("\n");
    assert.ok(
      log.length > 2 && log.every((line) => JSON.parse(line).msg !== undefined),
      "the file holds the JSON log",
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test("a bad configuration value stops start-up with the key named", async () => {
  const result = await run(["start"], "", { OIKOS_HTTP_PORT: "eighty", OIKOS_DATA_DIR: tmpdir() });
  assert.equal(result.code, 1);
  assert.match(result.stderr, /http\.port \(env OIKOS_HTTP_PORT\)/);
});

test("unknown commands are refused with the list of known ones", async () => {
  const result = await run(["frobnicate"], "", {});
  assert.equal(result.code, 2);
  assert.match(result.stderr, /unknown command "frobnicate".*start/);
});

test("`oikos start </dev/null` (systemd, nohup) runs headless until SIGTERM, saying so", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "oikos-headless-"));
  await seedEmbeddedDataDir(dataDir);
  const child = spawnCli(["start"], {
    stdin: "ignore",
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      OIKOS_DATA_DIR: dataDir,
      OIKOS_HTTP_PORT: "0",
      OIKOS_LOG_LEVEL: "info",
    },
  });
  try {
    const headless = await child.waitForLog("oikos running headless until SIGTERM or SIGINT");
    assert.deepEqual(headless.adapters, [], "no chat adapter is configured, and the terminal is not one");
    // Still serving after end of input: the health endpoint answers.
    const health = await fetch(`${String(headless.http)}/healthz`);
    assert.equal(health.status, 200);
    assert.equal(child.exitCode(), null, "end of input did not end the process");
    child.kill("SIGTERM");
    assert.equal(await child.exited, 0);
    assert.doesNotMatch(child.stderr(), /"level":(50|60)/, "a normal stop logs no error");
  } finally {
    child.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test("`oikos start` with the terminal chat on an open pipe stops on SIGTERM (the chat's reader does not keep it alive)", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "oikos-pipe-"));
  await seedEmbeddedDataDir(dataDir);
  const child = spawnCli(["start"], {
    stdin: "pipe",
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      OIKOS_DATA_DIR: dataDir,
      OIKOS_SHELL: "true",
      OIKOS_LOG_LEVEL: "info",
    },
  });
  try {
    // With the terminal chat attached the JSON log goes to <dataDir>/oikos.log.
    await until(() => {
      const log = join(dataDir, "oikos.log");
      return existsSync(log) && readFileSync(log, "utf8").includes('"oikos started"');
    }, child);
    child.kill("SIGTERM");
    assert.equal(await child.exited, 0, "the process ended although its stdin pipe is still open");
  } finally {
    child.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  }
});

async function until(
  ready: () => boolean,
  child: { exitCode(): number | null; stderr(): string },
): Promise<void> {
  while (!ready()) {
    if (child.exitCode() !== null) throw new Error(`oikos exited (${child.exitCode()}): ${child.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
