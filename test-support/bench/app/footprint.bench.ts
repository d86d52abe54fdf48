import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";

// What users run (npm start, the systemd unit): the entry with the compile cache.
const CLI = fileURLToPath(new URL("../../../bin/oikos.js", import.meta.url));
/** The definition of "idle": RSS 10 s after the process said it started. */
const SETTLE_MS = 10_000;
const START_TIMEOUT_MS = 180_000;

/**
 * Resident memory of each process role, from the OS (/proc/<pid>/status: VmRSS now, VmHWM the
 * peak), with the terminal adapter only:
 * - rss_idle_mb_embedded / rss_peak_mb_embedded: `oikos start` on PGlite, on a data dir an earlier
 *   start created (every start but the first); rss_first_start_peak_mb_embedded: that first start;
 * - rss_idle_mb_postgres: `oikos start` with DATABASE_URL (a database made for the bench);
 * - rss_idle_mb_worker: `oikos worker` on the same Postgres; rss_idle_mb_mcp_stdio: `oikos mcp --stdio`.
 * Without a reachable PostgreSQL the Postgres figures are left out, with a note on stderr.
 */
export default async function footprintBench(): Promise<Record<string, number>> {
  const figures: Record<string, number> = {};
  const dir = await mkdtemp(join(tmpdir(), "oikos-footprint-"));
  try {
    const first = await measure(["start"], { OIKOS_DATA_DIR: join(dir, "data"), OIKOS_SHELL: "true" }, dir);
    figures.rss_first_start_peak_mb_embedded = first.peakMb;
    const again = await measure(["start"], { OIKOS_DATA_DIR: join(dir, "data"), OIKOS_SHELL: "true" }, dir);
    figures.rss_idle_mb_embedded = again.idleMb;
    figures.rss_peak_mb_embedded = again.peakMb;
    const database = await benchDatabase();
    if (!database) {
      process.stderr.write(
        "  (no PostgreSQL at DATABASE_URL or 127.0.0.1:5432: Postgres footprints not measured)\n",
      );
      return figures;
    }
    try {
      const env = { DATABASE_URL: database.url, OIKOS_DATA_DIR: join(dir, "pgdata") };
      const postgres = await measure(["start"], { ...env, OIKOS_SHELL: "true" }, dir);
      figures.rss_idle_mb_postgres = postgres.idleMb;
      figures.rss_peak_mb_postgres = postgres.peakMb;
      // A worker shares the queue through Redis: measured only where one answers.
      const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
      try {
        figures.rss_idle_mb_worker = (await measure(["worker"], { ...env, REDIS_URL: redisUrl }, dir)).idleMb;
      } catch (error) {
        process.stderr.write(`  (oikos worker not measured: ${(error as Error).message.slice(0, 300)})\n`);
      }
      figures.rss_idle_mb_mcp_stdio = (await measure(["mcp", "--stdio"], env, dir, "settle")).idleMb;
    } finally {
      await database.drop();
    }
    return figures;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

interface Footprint {
  idleMb: number;
  peakMb: number;
}

async function measure(
  args: string[],
  env: Record<string, string>,
  cwd: string,
  ready: "started" | "settle" = "started",
): Promise<Footprint> {
  const logFile = join(cwd, `${args[0]}-${Date.now()}.log`);
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd,
    env: { ...cleanEnv(), ...env, OIKOS_LOG_LEVEL: "info", OIKOS_LOG_FILE: logFile, OIKOS_HTTP_PORT: "0" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2000);
  });
  try {
    if (ready === "started") await started(child, logFile, () => stderr);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const status = await readFile(`/proc/${child.pid}/status`, "utf8");
    return { idleMb: kbField(status, "VmRSS") / 1024, peakMb: kbField(status, "VmHWM") / 1024 };
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => (child.exitCode === null ? child.once("exit", resolve) : resolve(null)));
  }
}

/** Resolves once the log file holds the "oikos started" line, rejects if the process ends first. */
async function started(child: ChildProcess, logFile: string, stderr: () => string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      const log = await readFile(logFile, "utf8").catch(() => "");
      throw new Error(`exited ${child.exitCode} before starting: ${stderr()}${log.slice(-600)}`);
    }
    const log = await readFile(logFile, "utf8").catch(() => "");
    if (log.includes('"oikos started"')) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`not started after ${START_TIMEOUT_MS} ms`);
}

function kbField(status: string, field: string): number {
  const line = status.split("\n").find((l) => l.startsWith(`${field}:`));
  if (!line) throw new Error(`/proc status has no ${field}`);
  return Number.parseInt(line.slice(field.length + 1).trim(), 10);
}

/** The bench's own environment minus what would change the role's configuration. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env))
    if (key.startsWith("OIKOS_") || key === "DATABASE_URL" || key === "REDIS_URL") delete env[key];
  return env;
}

async function benchDatabase(): Promise<{ url: string; drop(): Promise<void> } | undefined> {
  const admin = new URL(process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString(), connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
  } catch {
    return undefined;
  }
  const name = `oikos_bench_footprint_${process.pid}`;
  await client.query(`CREATE DATABASE ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/** Measured on the deployment DATABASE_URL / REDIS_URL select (scripts/bench.ts names it with each figure). */
export const usesStore = true;
