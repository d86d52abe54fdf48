import { spawn } from "node:child_process";
import { commandWords } from "./command-words.ts";
import {
  capturedResult,
  type ExecOptions,
  type ExecResult,
  KILL_AFTER_SECONDS,
  resolveExecOptions,
} from "./exec-result.ts";
import { OutputCapture } from "./output-capture.ts";

/**
 * Run `command` on the machine oikos runs on with the wrapper's words (bash, or the jail), in its own
 * process group so a timeout or abort can TERM (then, after the kill window, KILL) everything it
 * started. oikos's own timer is the timeout here: there is no other host to outlive.
 */
export function execLocal(command: string, options: ExecOptions = {}): Promise<ExecResult> {
  const resolved = resolveExecOptions(options);
  const started = performance.now();
  const stdout = new OutputCapture(resolved.maxOutputBytes);
  const stderr = new OutputCapture(resolved.maxOutputBytes);
  let timedOut = false;
  let cancelled = false;
  const result = (exitCode: number | null, signal: string | null): ExecResult =>
    capturedResult({ exitCode, signal, stdout, stderr, startedAt: started, timedOut, cancelled });
  if (resolved.signal?.aborted) {
    cancelled = true;
    return Promise.resolve(result(null, null));
  }

  return new Promise((resolve, reject) => {
    const [program, ...args] = commandWords(command, {
      jail: resolved.jail,
      jailGrants: resolved.jailGrants,
      jailLimits: resolved.jailLimits,
      shell: resolved.shell,
      sudo: resolved.sudo,
    });
    const child = spawn(program!, args, { detached: true, stdio: ["ignore", "pipe", "pipe"] });
    const timers: NodeJS.Timeout[] = [];
    const killGroup = (signal: NodeJS.Signals): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, signal);
      } catch {
        // the group is already gone
      }
    };
    const stop = (): void => {
      killGroup("SIGTERM");
      timers.push(setTimeout(() => killGroup("SIGKILL"), KILL_AFTER_SECONDS * 1000));
    };
    const onAbort = (): void => {
      cancelled = true;
      stop();
    };
    resolved.signal?.addEventListener("abort", onAbort, { once: true });
    timers.push(
      setTimeout(() => {
        timedOut = true;
        stop();
      }, resolved.timeoutMs),
    );
    const cleanUp = (): void => {
      for (const timer of timers) clearTimeout(timer);
      resolved.signal?.removeEventListener("abort", onAbort);
    };
    child.stdout.on("data", (chunk: Buffer) => {
      stdout.push(chunk);
      resolved.onOutput?.("stdout", chunk.toString("utf8"));
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr.push(chunk);
      resolved.onOutput?.("stderr", chunk.toString("utf8"));
    });
    child.once("error", (error) => {
      cleanUp();
      reject(error);
    });
    child.once("close", (code, signal) => {
      cleanUp();
      // the shell is gone; anything it left behind in its group goes with it after a timeout or abort
      if (timedOut || cancelled) killGroup("SIGKILL");
      resolve(result(code, signal));
    });
  });
}
