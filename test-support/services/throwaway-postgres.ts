import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freeLoopbackPort } from "../sshd/free-port.ts";

// A PostgreSQL cluster of a test's own (initdb + pg_ctl on a free loopback port), so a test can
// stop and start it mid-task. Never the shared server on 5432 that other tests use.

export interface ThrowawayPostgres {
  port: number;
  /** postgres://postgres@127.0.0.1:<port>/postgres (trust auth). */
  url: string;
  stop(): void;
  start(): void;
  dispose(): void;
}

function binDir(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], "bin") : undefined;
}

const asRoot = process.getuid?.() === 0;

/** Why this machine cannot run a throwaway cluster, or false when it can. */
export function throwawayPostgresSkip(): string | false {
  if (!binDir()) return "no initdb under /usr/lib/postgresql/*/bin";
  if (asRoot) {
    try {
      execFileSync("id", ["postgres"], { stdio: "ignore" });
    } catch {
      return "running as root and there is no postgres user to run initdb as";
    }
  }
  return false;
}

/** Runs a PostgreSQL binary as the postgres user when we are root (initdb refuses root). */
function run(bin: string, args: string[]): void {
  const path = join(binDir()!, bin);
  if (asRoot) execFileSync("runuser", ["-u", "postgres", "--", path, ...args], { stdio: "pipe", cwd: "/" });
  else execFileSync(path, args, { stdio: "pipe" });
}

export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const dir = mkdtempSync(join(tmpdir(), "oikos-pg-"));
  const data = join(dir, "data");
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
    chownSync(dir, uid, gid);
  }
  run("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8"]);
  const port = await freeLoopbackPort();
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off`;
  const pg: ThrowawayPostgres = {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: () =>
      run("pg_ctl", ["-D", data, "-l", join(dir, "log"), "-o", options, "-w", "-t", "60", "start"]),
    // Fast mode: open connections are cut, as on a real restart.
    stop: () => run("pg_ctl", ["-D", data, "-m", "fast", "-w", "-t", "60", "stop"]),
    dispose() {
      try {
        pg.stop();
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  pg.start();
  return pg;
}
