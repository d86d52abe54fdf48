import { constants } from "node:os";
import { z } from "zod";
import { redact } from "../../policy/redact.ts";
import { commandWords, timeoutWords } from "./command-words.ts";
import { GuestAgentError } from "./errors.ts";
import {
  type ExecOptions,
  type ExecResult,
  KILL_AFTER_SECONDS,
  resolveExecOptions,
  timeoutSeconds,
} from "./exec-result.ts";
import type { HostRunner } from "./host-runner.ts";
import { OutputCapture } from "./output-capture.ts";
import { remoteLine } from "./shell-quote.ts";

/** What `qm guest exec` prints: the guest agent's exec status (or just a pid when it stopped waiting). */
const GuestExecStatusSchema = z.looseObject({
  exited: z.union([z.number(), z.boolean()]).optional(),
  exitcode: z.number().int().optional(),
  signal: z.number().int().optional(),
  "out-data": z.string().optional(),
  "err-data": z.string().optional(),
  "out-truncated": z.union([z.number(), z.boolean()]).optional(),
  "err-truncated": z.union([z.number(), z.boolean()]).optional(),
  pid: z.number().int().optional(),
});

/**
 * The host-side line for `command` in VM `vmid`: timeout(1) inside the guest kills the command (the
 * jail, when asked for, is set up inside the guest), qm waits a little longer than that, and a
 * timeout(1) around qm on the host is the backstop. The command is one word of qm's argument list.
 */
export function qmGuestExecCommand(vmid: number, command: string, options: ExecOptions = {}): string {
  const { timeoutMs, jail, jailGrants, jailLimits, shell, sudo } = resolveExecOptions(options);
  const seconds = timeoutSeconds(timeoutMs);
  const inGuest = commandWords(command, {
    jail,
    jailGrants,
    jailLimits,
    shell,
    sudo,
    timeoutSeconds: seconds,
    killAfterSeconds: KILL_AFTER_SECONDS,
  });
  return qmLine(vmid, inGuest, seconds + KILL_AFTER_SECONDS + 2);
}

/**
 * CMD_C: how a Windows guest runs a command. The guest agent starts the program it is given
 * (CreateProcess, no shell of its own), so the command goes to cmd.exe: `/d` skips the AutoRun
 * commands of the registry (cmd's --norc), `/c` runs the rest and ends. No env, no bash, no
 * timeout(1) there (Windows' timeout.exe is a pause): qm stops waiting at the time limit and the
 * host's timeout(1) backstops qm, but the process inside the guest is not killed.
 */
export const CMD_C = ["cmd.exe", "/d", "/c"] as const;

/** The host-side line for `command` in Windows VM `vmid`: cmd.exe through the guest agent. */
export function qmGuestWindowsCommand(vmid: number, command: string, options: ExecOptions = {}): string {
  const { timeoutMs, jail, sudo } = resolveExecOptions(options);
  if (jail) throw new RangeError("the read-only jail runs under bash only, not on Windows");
  if (sudo) throw new RangeError("sudo does not exist on Windows");
  return qmLine(vmid, [...CMD_C, command], timeoutSeconds(timeoutMs));
}

function qmLine(vmid: number, inGuest: readonly string[], qmWait: number): string {
  return remoteLine(
    timeoutWords(
      ["qm", "guest", "exec", String(vmid), "--timeout", String(qmWait), "--", ...inGuest],
      qmWait + 5,
      KILL_AFTER_SECONDS,
    ),
  );
}

/** Run `command` in Windows VM `vmid` (cmd.exe through the guest agent); as execQmGuest otherwise. */
export function execQmGuestWindows(
  host: HostRunner,
  vmid: number,
  command: string,
  options: ExecOptions = {},
): Promise<ExecResult> {
  return runThroughAgent(host, vmid, qmGuestWindowsCommand(vmid, command, options), options);
}

/**
 * Run `command` in VM `vmid` through the QEMU guest agent on its owning host and turn the agent's
 * JSON into an ExecResult. A host-side failure without that JSON is a GuestAgentError.
 */
export function execQmGuest(
  host: HostRunner,
  vmid: number,
  command: string,
  options: ExecOptions = {},
): Promise<ExecResult> {
  return runThroughAgent(host, vmid, qmGuestExecCommand(vmid, command, options), options);
}

/** Runs qm's host-side `line` and turns the agent's JSON into an ExecResult. */
async function runThroughAgent(
  host: HostRunner,
  vmid: number,
  line: string,
  options: ExecOptions,
): Promise<ExecResult> {
  const { maxOutputBytes } = resolveExecOptions(options);
  // the live output is qm's JSON, not the guest's: do not stream it to the caller
  const {
    onOutput: _ignored,
    jail: _inGuest,
    jailGrants: _grantsInGuest,
    jailLimits: _limitsInGuest,
    shell: _shellInGuest,
    ...hostOptions
  } = options;
  const onHost = await host.run(line, hostOptions);
  if (onHost.timedOut || onHost.cancelled) return onHost;

  let status: z.output<typeof GuestExecStatusSchema>;
  try {
    status = GuestExecStatusSchema.parse(JSON.parse(onHost.stdout));
  } catch (error) {
    // Remote stderr may carry secrets; the message becomes an execution's status reason.
    const detail = redact(
      onHost.stderr.trim().split("\n")[0] || `qm exit code ${onHost.exitCode}, no JSON on stdout`,
    );
    throw new GuestAgentError(vmid, host.name, detail, {
      cause: error,
      logMessage: redact(
        `qm guest exec ${vmid} on ${host.name}: exit ${onHost.exitCode}, stderr ${onHost.stderr.slice(0, 500)}`,
      ),
    });
  }

  const stdout = new OutputCapture(maxOutputBytes);
  const stderr = new OutputCapture(maxOutputBytes);
  stdout.push(Buffer.from(status["out-data"] ?? "", "utf8"));
  stderr.push(Buffer.from(status["err-data"] ?? "", "utf8"));
  const finished = status.exited === 1 || status.exited === true;
  return {
    exitCode: finished ? (status.exitcode ?? null) : null,
    signal: status.signal === undefined ? null : signalName(status.signal),
    stdout: stdout.text(),
    stderr: stderr.text(),
    stdoutBinary: stdout.binary,
    stderrBinary: stderr.binary,
    outputBytes: stdout.totalBytes + stderr.totalBytes,
    truncated:
      stdout.truncated ||
      stderr.truncated ||
      Boolean(status["out-truncated"]) ||
      Boolean(status["err-truncated"]),
    durationMs: onHost.durationMs,
    // qm stopped waiting before the guest process exited
    timedOut: !finished,
    cancelled: false,
  };
}

function signalName(signal: number): string {
  const entry = Object.entries(constants.signals).find(([, number]) => number === signal);
  return entry?.[0] ?? `SIG${signal}`;
}
