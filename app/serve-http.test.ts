import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { seedEmbeddedDataDir } from "../test-support/embedded-data-dir.ts";
import { OIKOS_BIN } from "../test-support/run-cli.ts";

const TOKEN = "test-token-0123456789abcdef";

test("`oikos start` without the terminal: /healthz, /metrics, /mcp behind a token, clean stop on SIGTERM", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "oikos-http-"));
  await seedEmbeddedDataDir(dataDir);
  const child = spawn(process.execPath, [OIKOS_BIN, "start"], {
    env: {
      PATH: process.env.PATH ?? "",
      OIKOS_DATA_DIR: dataDir,
      OIKOS_SHELL: "false",
      OIKOS_HTTP_PORT: "0",
      OIKOS_MCP_TOKEN: TOKEN,
      OIKOS_LOG_LEVEL: "info",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr.on("data", (chunk) => {
        stderr += chunk;
        const match = /"url":"(http:\/\/[^"]+)".*"msg":"http server listening"/.exec(stderr);
        if (match) resolve(match[1]!);
      });
      exited.then((code) => reject(new Error(`oikos exited early (${code}): ${stderr}`)));
    });

    const health = await fetch(`${url}/healthz`);
    assert.equal(health.status, 200);
    assert.deepEqual(await health.json(), { status: "ok", database: "pglite", queue: "in-process" });

    const metrics = await (await fetch(`${url}/metrics`)).text();
    assert.match(metrics, /oikos_http_requests_total\{route="\/healthz",status="200"\} 1/);

    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    };
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const refused = await fetch(`${url}/mcp`, { method: "POST", headers, body: JSON.stringify(initialize) });
    assert.equal(refused.status, 401);
    const accepted = await fetch(`${url}/mcp`, {
      method: "POST",
      headers: { ...headers, authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify(initialize),
    });
    assert.equal(accepted.status, 200);
    assert.match(await accepted.text(), /"name":"oikos"/);

    assert.equal((await fetch(`${url}/nope`)).status, 404);
    child.kill("SIGTERM");
    assert.equal(await exited, 0);
    assert.doesNotMatch(stderr, new RegExp(TOKEN), "the token never reaches the log");
  } finally {
    child.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  }
});
