/**
 * `node scripts/gated-run-counts.ts` (N=20, CMD=true, JAIL=1 for the read-only jail): what one gated
 * MCP `run` costs in counts, which a loaded machine does not change: SQL statements sent (pg, so with
 * DATABASE_URL), Redis commands (ioredis, with REDIS_URL), and tree-sitter parses of the command —
 * the gated-run bench's path (test-support/bench/mcp-server/gated-run.bench.ts) after a warm-up.
 */

import { Redis } from "ioredis";
import pg from "pg";
import { Parser } from "web-tree-sitter";
import { createTestSession, startExecutionStack } from "../test-support/jobs/execution/execution-stack.ts";
import { callTool } from "../test-support/mcp-server/call-tool.ts";
import { startSshLab } from "../test-support/sshd/ssh-lab.ts";

const counts = { sql: 0, redis: 0, tsParse: 0 };
const sqls = new Map<string, number>();
const redisCmds = new Map<string, number>();
let on = false;
type Patchable = { [name: string]: (...args: unknown[]) => unknown };
const clientProto = pg.Client.prototype as unknown as Patchable;
const origQuery = clientProto.query!;
clientProto.query = function (this: unknown, ...args: unknown[]) {
  if (on) {
    counts.sql++;
    const t = typeof args[0] === "string" ? args[0] : ((args[0] as { text?: string })?.text ?? "?");
    const k = t.replace(/\s+/g, " ").slice(0, 110);
    sqls.set(k, (sqls.get(k) ?? 0) + 1);
  }
  return origQuery.apply(this, args);
};
const redisProto = Redis.prototype as unknown as Patchable;
const origSend = redisProto.sendCommand!;
redisProto.sendCommand = function (this: unknown, ...rest: unknown[]) {
  const cmd = rest[0] as { name: string; args: unknown[] };
  if (on) {
    counts.redis++;
    const k = cmd.name === "evalsha" ? `evalsha ${String(cmd.args[0]).slice(0, 8)}` : cmd.name;
    redisCmds.set(k, (redisCmds.get(k) ?? 0) + 1);
  }
  return origSend.apply(this, rest);
};
const origParse = Parser.prototype.parse;
Parser.prototype.parse = function (this: Parser, ...a: Parameters<Parser["parse"]>) {
  if (on) counts.tsParse++;
  return origParse.apply(this, a);
} as typeof origParse;

const N = Number(process.env.N ?? 20);
const lab = await startSshLab({ hosts: [{ name: "bench" }] });
const stack = await startExecutionStack({
  lab,
  fileUrl: import.meta.url,
  waitMs: 10_000,
  ...(process.env.JAIL ? { readOnlyJail: "required" as const } : {}),
});
try {
  const session = await createTestSession(stack, "bench-session", { status: "approved" });
  const once = async () => {
    const r = await callTool(
      stack.client,
      "run",
      { target: "host:bench", command: process.env.CMD ?? "true", purpose: "bench" },
      session,
    );
    if ((r.json as { status?: string })?.status !== "completed") throw new Error(r.text);
  };
  for (let i = 0; i < 3; i++) await once();
  await new Promise((r) => setTimeout(r, 500));
  on = true;
  for (let i = 0; i < N; i++) await once();
  await new Promise((r) => setTimeout(r, 300));
  on = false;
  console.log(
    `per run (N=${N}, ${process.env.DATABASE_URL ? "postgres" : "pglite"}+${process.env.REDIS_URL ? "redis" : "in-process queue"}): SQL ${(counts.sql / N).toFixed(1)}, Redis commands ${(counts.redis / N).toFixed(1)}, tree-sitter parses ${(counts.tsParse / N).toFixed(1)}`,
  );
  for (const [k, v] of [...sqls].sort((a, b) => b[1] - a[1]))
    console.log(`  sql ${(v / N).toFixed(2)}  ${k}`);
  for (const [k, v] of [...redisCmds].sort((a, b) => b[1] - a[1]))
    console.log(`  redis ${(v / N).toFixed(2)}  ${k}`);
} finally {
  await stack.close();
  await lab.stop();
}
