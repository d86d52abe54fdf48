import { spawn } from "node:child_process";
import { commandWords } from "../../jobs/ssh/command-words.ts";
import { type JailRun, readJailedStderr } from "../../jobs/ssh/jail-script.ts";
import type { JailGrant } from "../../policy/jail-grant.ts";

/** One run of the diagnostics lab: what the command printed, and the jail's report when it was asked for. */
export interface LabRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  jail?: JailRun;
}

/**
 * Runs `command` on this machine with THE wrapper's words (jobs/ssh/command-words.ts: bash, or the
 * read-only jail with `grants`), started inside the network namespace `netns` when given — as an
 * sshd of a machine whose network that namespace is would start it. The jail script, its settings
 * and how its stderr is read are production's; only the process start is the lab's.
 */
export function runInLab(
  command: string,
  options: { jail: boolean; grants?: readonly JailGrant[]; netns?: string; timeoutMs?: number },
): Promise<LabRun> {
  const words = commandWords(command, { jail: options.jail, jailGrants: options.grants ?? [] });
  const [program, ...args] = options.netns ? ["ip", "netns", "exec", options.netns, ...words] : words;
  return new Promise((resolve, reject) => {
    const child = spawn(program!, args, { detached: true, stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer = setTimeout(() => {
      try {
        process.kill(-(child.pid ?? 0), "SIGKILL");
      } catch {
        // gone already
      }
    }, options.timeoutMs ?? 60_000);
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("close", (code) => {
      clearTimeout(timer);
      const stdout = Buffer.concat(out).toString("utf8");
      const stderr = Buffer.concat(err).toString("utf8");
      if (!options.jail) return resolve({ exitCode: code, stdout, stderr });
      const read = readJailedStderr(stderr);
      resolve({ exitCode: code, stdout, stderr: read.stderr, jail: read.run });
    });
  });
}
