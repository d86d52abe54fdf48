import type { JailGrant } from "../../policy/jail-grant.ts";
import type { CommandShell } from "./command-words.ts";
import type { JailRun } from "./jail-script.ts";
import type { JailLimits } from "./jail-settings.ts";
import type { OutputCapture } from "./output-capture.ts";

export const DEFAULT_TIMEOUT_MS = 120_000;
export const DEFAULT_MAX_OUTPUT_BYTES = 64 * 1024;
/** After the TERM, how long the remote side gets before KILL (the `timeout -k` value). */
export const KILL_AFTER_SECONDS = 5;

export type OutputStream = "stdout" | "stderr";

export interface ExecOptions {
  /** Wall-clock limit; the remote process is signalled and killed when it passes. Default 120 s. */
  timeoutMs?: number;
  /** Per stream (stdout, stderr): first and last half of this many bytes are kept. Default 64 KiB. */
  maxOutputBytes?: number;
  /** Aborting cancels the command the same way a timeout does, and marks the result `cancelled`. */
  signal?: AbortSignal;
  /** Live output as it arrives (before capping), e.g. for progress. */
  onOutput?: (stream: OutputStream, text: string) => void;
  /** Run inside the read-only jail (jail-script.ts); the result's `jail` says whether it held. */
  jail?: boolean;
  /** What the jail opens to this run (policy/jail-grant.ts); nothing when left out. */
  jailGrants?: readonly JailGrant[];
  /** The jail's bounds; DEFAULT_JAIL_LIMITS where left out (tests pass small ones). */
  jailLimits?: Partial<JailLimits>;
  /** Default bash; `sh` only for the probe and approved commands on a target without bash. */
  shell?: CommandShell;
  /** Run as root through `sudo -n` (command-words.ts); only plan previews of `sudo` commands ask. */
  sudo?: boolean;
}

export interface ExecResult {
  /** Exit status; null when the process died of a signal or the channel closed without one. */
  exitCode: number | null;
  /** Terminating signal as `SIGTERM` etc., when the remote side reported one. */
  signal: string | null;
  stdout: string;
  stderr: string;
  /** The stream was mostly binary: its text is a flagged printable preview (output-text.ts). */
  stdoutBinary?: boolean;
  stderrBinary?: boolean;
  /** Bytes produced on stdout + stderr, before capping. */
  outputBytes: number;
  truncated: boolean;
  durationMs: number;
  /** The time limit passed and the command was killed: not the same as a failure of the command. */
  timedOut: boolean;
  /** The caller aborted through `signal`. */
  cancelled: boolean;
  /**
   * Only when the jail was asked for: it held the command, or it failed to start and the command
   * never ran (then exit code and stderr are the jail's).
   */
  jail?: JailRun;
}

export interface ResolvedExecOptions {
  timeoutMs: number;
  maxOutputBytes: number;
  signal: AbortSignal | undefined;
  onOutput: ((stream: OutputStream, text: string) => void) | undefined;
  jail: boolean;
  jailGrants: readonly JailGrant[];
  jailLimits: Partial<JailLimits>;
  shell: CommandShell;
  sudo: boolean;
}

export function resolveExecOptions(options: ExecOptions = {}): ResolvedExecOptions {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxOutputBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  if (!(timeoutMs > 0)) throw new RangeError(`timeoutMs must be positive, got ${timeoutMs}`);
  if (!(maxOutputBytes >= 0)) throw new RangeError(`maxOutputBytes must be >= 0, got ${maxOutputBytes}`);
  const jail = options.jail ?? false;
  const shell = options.shell ?? "bash";
  if (jail && shell !== "bash") throw new RangeError("the read-only jail runs under bash only");
  return {
    timeoutMs,
    maxOutputBytes,
    signal: options.signal,
    onOutput: options.onOutput,
    jail,
    jailGrants: options.jailGrants ?? [],
    jailLimits: options.jailLimits ?? {},
    shell,
    sudo: options.sudo ?? false,
  };
}

/** Exit status of timeout(1) when it had to stop the command. */
export const REMOTE_TIMEOUT_EXIT_CODE = 124;

/**
 * The host's timeout(1) and oikos's own timer race at the deadline; when the host's wins, the
 * command still timed out. Told apart from a command that exits 124 by itself by having run for
 * the whole timeout.
 */
export function asTimedOutWhenRemoteTimerFired(result: ExecResult, timeoutMs: number): ExecResult {
  const remoteTimerFired =
    !result.timedOut && result.exitCode === REMOTE_TIMEOUT_EXIT_CODE && result.durationMs >= timeoutMs - 50;
  return remoteTimerFired ? { ...result, timedOut: true } : result;
}

/** Whole seconds for `timeout(1)`, never below one. */
export function timeoutSeconds(timeoutMs: number): number {
  return Math.max(1, Math.ceil(timeoutMs / 1000));
}

/** An ExecResult from the two capped streams of a command that started at `startedAt` (performance.now()). */
export function capturedResult(input: {
  exitCode: number | null;
  signal: string | null;
  stdout: OutputCapture;
  stderr: OutputCapture;
  startedAt: number;
  timedOut: boolean;
  cancelled: boolean;
}): ExecResult {
  const { stdout, stderr } = input;
  return {
    exitCode: input.exitCode,
    signal: input.signal,
    stdout: stdout.text(),
    stderr: stderr.text(),
    stdoutBinary: stdout.binary,
    stderrBinary: stderr.binary,
    outputBytes: stdout.totalBytes + stderr.totalBytes,
    truncated: stdout.truncated || stderr.truncated,
    durationMs: Math.round(performance.now() - input.startedAt),
    timedOut: input.timedOut,
    cancelled: input.cancelled,
  };
}

/** The result of a command cancelled before it started. */
export function cancelledBeforeStart(): ExecResult {
  return {
    exitCode: null,
    signal: null,
    stdout: "",
    stderr: "",
    outputBytes: 0,
    truncated: false,
    durationMs: 0,
    timedOut: false,
    cancelled: true,
  };
}
