import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { ORACLE_USER } from "./constants.ts";

/** What one command did: strace's record of its attempts, and whether it hit the time limit. */
export interface OracleRun {
  command: string;
  trace: string;
  timedOut: boolean;
}

const RUNNER = fileURLToPath(new URL("./runner.ts", import.meta.url));

/**
 * Why the oracle cannot run here, or null. It needs root (only to build the namespaces; commands
 * run as `oikos-oracle`), strace, util-linux unshare/prlimit, and the user (created when missing).
 */
export function oracleUnavailable(): string | null {
  if (process.getuid?.() !== 0) return "the execution oracle needs root to build its namespaces";
  for (const tool of ["/usr/bin/strace", "/usr/bin/unshare", "/usr/bin/prlimit"]) {
    if (!existsSync(tool)) return `the execution oracle needs ${tool} (sh scripts/install-test-deps.sh)`;
  }
  try {
    execFileSync("id", ["-u", ORACLE_USER], { stdio: "ignore" });
  } catch {
    try {
      execFileSync(
        "useradd",
        [
          "--system",
          "--no-create-home",
          "--home-dir",
          "/nonexistent",
          "--shell",
          "/usr/sbin/nologin",
          ORACLE_USER,
        ],
        { stdio: "ignore" },
      );
    } catch (error) {
      return `cannot create the oracle user ${ORACLE_USER}: ${(error as Error).message}`;
    }
  }
  return null;
}

class Worker {
  private readonly pending = new Map<number, (reply: { trace: string; timedOut: boolean }) => void>();
  private readonly child: ChildProcessWithoutNullStreams;
  readonly ready: Promise<void>;

  constructor() {
    // Fresh mount, PID, network, IPC and UTS namespaces; /bin/sh is their PID 1 and reaps orphans.
    // A background job's stdin would be /dev/null, so the runner gets the pipe through fd 3.
    this.child = spawn(
      "unshare",
      [
        "--mount",
        "--pid",
        "--net",
        "--ipc",
        "--uts",
        "--fork",
        "--propagation",
        "private",
        "--mount-proc",
        "--kill-child",
        "--",
        "/bin/sh",
        "-c",
        'exec 3<&0; "$0" "$1" <&3 3<&- & wait $!',
        process.execPath,
        RUNNER,
      ],
      { stdio: ["pipe", "pipe", "pipe"] },
    );
    let stderr = "";
    this.child.stderr.on("data", (chunk) => {
      stderr += String(chunk);
    });
    const lines = createInterface({ input: this.child.stdout });
    this.ready = new Promise((resolve, reject) => {
      this.child.once("exit", (code) =>
        reject(new Error(`the oracle runner exited (${code}): ${stderr.trim()}`)),
      );
      lines.on("line", (line) => {
        const message = JSON.parse(line) as {
          ready?: boolean;
          fatal?: string;
          id?: number;
          trace?: string;
          timedOut?: boolean;
        };
        if (message.fatal) reject(new Error(`the oracle sandbox failed: ${message.fatal}`));
        else if (message.ready) resolve();
        else if (message.id !== undefined) {
          this.pending.get(message.id)?.({ trace: message.trace ?? "", timedOut: message.timedOut ?? false });
          this.pending.delete(message.id);
        }
      });
    });
  }

  run(id: number, command: string): Promise<{ trace: string; timedOut: boolean }> {
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.child.stdin.write(`${JSON.stringify({ id, command })}\n`);
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.child.exitCode !== null) return resolve();
      this.child.once("exit", () => resolve());
      this.child.stdin.end();
    });
  }
}

/** A pool of sandbox runners; commands are spread over them and answered in order. */
export class OracleSandbox {
  private nextId = 0;
  private readonly workers: Worker[];
  private constructor(workers: Worker[]) {
    this.workers = workers;
  }

  static async start(workers = 2): Promise<OracleSandbox> {
    const pool = Array.from({ length: workers }, () => new Worker());
    await Promise.all(pool.map((worker) => worker.ready));
    return new OracleSandbox(pool);
  }

  async run(commands: readonly string[]): Promise<OracleRun[]> {
    const queues: Promise<OracleRun[]>[] = this.workers.map(async (worker, w) => {
      const out: OracleRun[] = [];
      for (let i = w; i < commands.length; i += this.workers.length) {
        const command = commands[i] as string;
        out.push({ command, ...(await worker.run(this.nextId++, command)) });
      }
      return out;
    });
    const perWorker = await Promise.all(queues);
    const ordered: OracleRun[] = [];
    for (let i = 0; i < commands.length; i++) {
      ordered.push(perWorker[i % this.workers.length]?.[Math.floor(i / this.workers.length)] as OracleRun);
    }
    return ordered;
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.close()));
  }
}
