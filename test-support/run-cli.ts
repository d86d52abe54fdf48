import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/**
 * The `oikos` command as users run it (`bin/oikos.js`): it turns Node's compile cache on, so a test
 * that starts oikos many times compiles its modules once (about 0.7 s of CPU less per start).
 */
export const OIKOS_BIN = fileURLToPath(new URL("../bin/oikos.js", import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `oikos <args>` as a user would (a child process), feeding `stdin` and collecting output. */
export function runCli(
  args: string[],
  options: { stdin?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [OIKOS_BIN, ...args], {
      stdio: ["pipe", "pipe", "pipe"],
      ...(options.env ? { env: options.env } : {}),
      ...(options.cwd ? { cwd: options.cwd } : {}),
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.stdin ?? "");
  });
}

export interface SpawnedCli {
  pid: number;
  exited: Promise<number | null>;
  exitCode(): number | null;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first JSON log line (stderr) whose msg is `msg` and that `match` accepts. */
  waitForLog(
    msg: string,
    match?: (line: Record<string, unknown>) => boolean,
  ): Promise<Record<string, unknown>>;
  kill(signal: NodeJS.Signals): void;
  /** Types into the child's stdin (spawned with `stdin: "pipe"`). */
  write(text: string): void;
}

/** Starts `oikos <args>` as a long-running child process and watches its JSON log on stderr. */
export function spawnCli(
  args: string[],
  options: { stdin?: "ignore" | "pipe"; env?: NodeJS.ProcessEnv; cwd?: string } = {},
): SpawnedCli {
  const child = spawn(process.execPath, [OIKOS_BIN, ...args], {
    stdio: [options.stdin ?? "ignore", "pipe", "pipe"],
    ...(options.env ? { env: options.env } : {}),
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  let stdout = "";
  let stderr = "";
  const waiters: Array<() => void> = [];
  child.stdout?.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    stderr += chunk;
    for (const waiter of [...waiters]) waiter();
  });
  let code: number | null = null;
  let done = false;
  const exited = new Promise<number | null>((resolve) =>
    child.on("close", (c) => {
      code = c;
      done = true;
      resolve(c);
      for (const waiter of [...waiters]) waiter();
    }),
  );
  const findLog = (msg: string, match?: (line: Record<string, unknown>) => boolean) => {
    for (const text of stderr.split("\n")) {
      if (!text.startsWith("{")) continue;
      try {
        const line = JSON.parse(text) as Record<string, unknown>;
        if (line.msg === msg && (!match || match(line))) return line;
      } catch {
        // a partial line: the rest is still to come
      }
    }
    return undefined;
  };
  return {
    pid: child.pid ?? -1,
    exited,
    exitCode: () => (done ? code : null),
    stdout: () => stdout,
    stderr: () => stderr,
    waitForLog(msg, match) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = findLog(msg, match);
          if (found) {
            waiters.splice(waiters.indexOf(check), 1);
            resolve(found);
          } else if (done) {
            waiters.splice(waiters.indexOf(check), 1);
            reject(new Error(`oikos exited (${code}) before logging "${msg}":\n${stderr}\n${stdout}`));
          }
        };
        waiters.push(check);
        check();
      });
    },
    kill(signal) {
      if (!done) child.kill(signal);
    },
    write(text) {
      child.stdin?.write(text);
    },
  };
}
