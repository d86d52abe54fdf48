import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import pg from "pg";
import type { StoreOptions } from "../../store/connect.ts";
import { deleteRedisKeys, redisTestPrefix, redisTestUrl } from "../../test-support/redis.ts";
import { type SshLab, sshLabUnavailable, startSshLab } from "../../test-support/sshd/ssh-lab.ts";

const CHILD = fileURLToPath(new URL("../../test-support/jobs/execution/worker-child.ts", import.meta.url));
const unavailable = await sshLabUnavailable();

function runChild(
  phase: string,
  config: object,
  onLine: (line: Record<string, unknown>, kill: () => void) => void,
) {
  const child = spawn(process.execPath, [CHILD, phase, JSON.stringify(config)], {
    stdio: ["ignore", "pipe", "pipe"],
  });
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

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe("kill -9 of the worker during a mutating command", {
  skip: unavailable ? `sshd unavailable: ${unavailable}` : false,
}, () => {
  let lab: SshLab;
  let dir: string;
  let storeOptions: StoreOptions;
  let dropDatabase = async () => {};
  const redisUrl = redisTestUrl();
  const prefix = redisTestPrefix(import.meta.url);

  before(async () => {
    lab = await startSshLab({ hosts: [{ name: "victim" }] });
    dir = await mkdtemp(join(tmpdir(), "oikos-worker-crash-"));
    const baseUrl = process.env.DATABASE_URL;
    if (baseUrl) {
      const name = `oikos_t_crash_${randomBytes(4).toString("hex")}`;
      const admin = new pg.Client({ connectionString: baseUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      const url = new URL(baseUrl);
      url.pathname = `/${name}`;
      storeOptions = { kind: "postgres", url: url.toString(), poolSize: 3 };
      dropDatabase = async () => {
        const cleanup = new pg.Client({ connectionString: baseUrl });
        await cleanup.connect();
        await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await cleanup.end();
      };
    } else {
      storeOptions = { kind: "pglite", dataDir: join(dir, "pg") };
    }
  });
  after(async () => {
    await lab?.stop();
    await rm(dir, { recursive: true, force: true });
    await dropDatabase();
    if (redisUrl) await deleteRedisKeys(redisUrl, prefix);
  });

  test("after restart the execution is interrupted and the command ran exactly once", {
    timeout: 90_000,
  }, async () => {
    const host = lab.host("victim");
    const counter = join(host.stateDir, "counter");
    const config = {
      store: storeOptions,
      redisUrl,
      prefix,
      host: { host: host.host, port: host.port, username: host.username, privateKey: lab.privateKey },
      command: `n=$(cat ${counter} 2>/dev/null || echo 0); echo $((n + 1)) > ${counter}; sleep 30`,
    };
    let executionId = "";
    const first = await runChild("first", config, (line, kill) => {
      if (typeof line.started === "string") {
        executionId = line.started;
        // kill only once the side effect happened on the target, mid-sleep
        until(() => existsSync(counter), "the counter file").then(kill, kill);
      }
    });
    assert.equal(first.signal, "SIGKILL", `the first worker ended without the kill: ${first.stderr}`);
    assert.equal((await readFile(counter, "utf8")).trim(), "1");

    const lines: Record<string, unknown>[] = [];
    const second = await runChild("second", config, (line) => lines.push(line));
    assert.equal(second.code, 0, second.stderr);
    const rows = lines.find((line) => "rows" in line)?.rows as { id: string; status: string; risk: string }[];
    assert.deepEqual(
      rows.map((row) => [row.id, row.status, row.risk]),
      [[executionId, "interrupted", "config_mutation"]],
    );
    assert.equal((await readFile(counter, "utf8")).trim(), "1", "the mutating command must never run twice");
  });
});
