import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { parseEnv } from "node:util";
import { loadConfig } from "./config.ts";

const oikos = fileURLToPath(new URL("../bin/oikos.js", import.meta.url));

// The CLI reads ./.env at start and the real environment wins: a probe process prints what it read,
// then the real entry point shows it applies the file before the configuration is loaded.
test("bin/oikos.js fills the environment from ./.env without overriding what is set", () => {
  const dir = mkdtempSync(join(tmpdir(), "oikos-dotenv-"));
  try {
    writeFileSync(
      join(dir, ".env"),
      "# a comment\nOIKOS_DOTENV_PROBE=from-file\nOIKOS_DOTENV_KEPT=from-file\nexport OIKOS_DOTENV_EXPORTED='quoted value'\n",
    );
    const probe = spawnSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const { loadDotEnv } = await import(${JSON.stringify(new URL("./dot-env.ts", import.meta.url).href)});
         const file = loadDotEnv();
         console.log(JSON.stringify({ file, probe: process.env.OIKOS_DOTENV_PROBE, kept: process.env.OIKOS_DOTENV_KEPT, exported: process.env.OIKOS_DOTENV_EXPORTED }));`,
      ],
      { cwd: dir, encoding: "utf8", env: { ...process.env, OIKOS_DOTENV_KEPT: "from-shell" } },
    );
    assert.equal(probe.status, 0, probe.stderr);
    assert.deepEqual(JSON.parse(probe.stdout), {
      file: join(dir, ".env"),
      probe: "from-file",
      kept: "from-shell",
      exported: "quoted value",
    });
    // The real entry point reads it too: a bad value from .env stops start-up naming the key.
    writeFileSync(join(dir, ".env"), "OIKOS_HTTP_PORT=not-a-port\n");
    const start = spawnSync(process.execPath, [oikos, "migrate"], { cwd: dir, encoding: "utf8" });
    assert.notEqual(start.status, 0);
    assert.match(start.stderr, /http\.port|OIKOS_HTTP_PORT/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test(".env.example is a .env oikos reads as written, and its settings are accepted", () => {
  const example = readFileSync(new URL("../.env.example", import.meta.url), "utf8");
  const env = Object.fromEntries(
    Object.entries(parseEnv(example)).filter(([, value]) => value !== ""),
  ) as NodeJS.ProcessEnv;
  assert.ok(env.OPENAI_BASE_URL && env.OIKOS_MODEL, "the model block is filled in");
  const dir = mkdtempSync(join(tmpdir(), "oikos-env-example-"));
  try {
    assert.doesNotThrow(() => loadConfig({ env, cwd: dir }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
