/**
 * `node scripts/sessions-counts.ts [--top N] [--keep <dir>]`: what one of the 50-session bench's
 * sessions costs in counts (test-support/bench/app/sessions.bench.ts, on the deployment DATABASE_URL /
 * REDIS_URL select): SQL statements by table and verb and by statement, Redis commands, child
 * processes started — per session, from the first session row written to the process's exit (start-up
 * left out). The oikos process is loaded with scripts/count-preload.ts. `node scripts/sessions-counts.ts
 * --file <dir>/counts-<pid>.json` summarises a recorded run again.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { CountEvent } from "./count-preload.ts";

const SESSIONS = 50;
const { values } = parseArgs({
  options: { top: { type: "string" }, keep: { type: "string" }, file: { type: "string" } },
});
const top = Number(values.top ?? 40);

async function record(): Promise<CountEvent[]> {
  const dir = values.keep ?? mkdtempSync(join(tmpdir(), "oikos-counts-"));
  const preload = new URL("./count-preload.ts", import.meta.url);
  preload.searchParams.set("out", dir);
  process.env.OIKOS_BENCH_NODE_OPTIONS = [process.env.OIKOS_BENCH_NODE_OPTIONS, `--import=${preload.href}`]
    .filter(Boolean)
    .join(" ");
  const bench = (
    await import(fileURLToPath(new URL("../test-support/bench/app/sessions.bench.ts", import.meta.url)))
  ).default as () => Promise<Record<string, number>>;
  const figures = await bench();
  process.stderr.write(
    `sessions50_wall_ms ${Math.round(figures.sessions50_wall_ms ?? Number.NaN)} (load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")})\n`,
  );
  // The biggest file is the oikos process (any node child it started wrote its own).
  const files = readdirSync(dir).filter((f) => f.startsWith("counts-"));
  const events = files
    .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as CountEvent[])
    .sort((a, b) => b.length - a.length)[0];
  if (!values.keep) rmSync(dir, { recursive: true, force: true });
  else process.stderr.write(`recorded in ${dir}\n`);
  return events ?? [];
}

/** `select "a" from "sessions" where "id" = $1` → `select from sessions`; the statement's verb and its first table. */
function tableVerb(sql: string): string {
  const lower = sql.toLowerCase().trim();
  const verb =
    /^(with|select|insert|update|delete|begin|commit|rollback|savepoint|release)/.exec(lower)?.[1] ?? "other";
  if (["begin", "commit", "rollback", "savepoint", "release"].includes(verb)) return verb;
  const table =
    verb === "insert"
      ? /insert into "?(\w+)"?/.exec(lower)?.[1]
      : verb === "update"
        ? /update "?(\w+)"?/.exec(lower)?.[1]
        : / from "?(\w+)"?/.exec(lower)?.[1];
  return `${verb} ${table ?? "?"}`;
}

/** The statement with its parameters and value lists folded, so one shape is one row. */
function shape(sql: string): string {
  return sql
    .replace(/\$\d+/g, "?")
    .replace(/\(\?(, \?)+\)/g, "(?…)")
    .replace(/(\(\?…\), )+\(\?…\)/g, "(?…)…")
    .slice(0, 160);
}

function table(title: string, counts: Map<string, number>, limit = Number.POSITIVE_INFINITY): void {
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  console.log(`\n${title}: ${(total / SESSIONS).toFixed(1)} per session`);
  console.log("| per session | what |\n| ---: | --- |");
  for (const [what, n] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, limit))
    console.log(`| ${(n / SESSIONS).toFixed(2)} | \`${what.replaceAll("|", "\\|")}\` |`);
}

const all = values.file ? (JSON.parse(readFileSync(values.file, "utf8")) as CountEvent[]) : await record();
const firstSession = all.findIndex((e) => e.kind === "sql" && /^insert into "sessions"/i.test(e.what));
if (firstSession < 0) throw new Error("no session row was written: nothing to count");
const events = all.slice(firstSession);
const group = (kind: CountEvent["kind"], key: (what: string) => string) => {
  const counts = new Map<string, number>();
  for (const e of events) if (e.kind === kind) counts.set(key(e.what), (counts.get(key(e.what)) ?? 0) + 1);
  return counts;
};
table("SQL statements by verb and table", group("sql", tableVerb));
table("SQL statements by shape", group("sql", shape), top);
table(
  "Redis commands",
  group("redis", (w) => w),
);
table(
  "child processes started",
  group("spawn", (w) => w),
);
const cpu = all.find((e) => e.kind === "cpu");
if (cpu) {
  const [user, system] = cpu.what.split(" ").map(Number) as [number, number];
  console.log(
    `\nCPU time of the oikos process, start-up included: user ${Math.round(user / 1000)} ms, system ${Math.round(system / 1000)} ms`,
  );
}
