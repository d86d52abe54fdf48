import type { Client, ClientChannel } from "ssh2";
import { SshConnectionLostError } from "./errors.ts";
import {
  capturedResult,
  type ExecResult,
  KILL_AFTER_SECONDS,
  type ResolvedExecOptions,
} from "./exec-result.ts";
import { OutputCapture } from "./output-capture.ts";

/** The channel could not be opened: the command never started, so opening again is safe. */
export class ChannelOpenError extends Error {
  constructor(cause: unknown) {
    super(`could not open an SSH channel: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = "ChannelOpenError";
  }
}

/** After the TERM at the deadline: remote `timeout -k` gets its kill window, plus a margin. */
const ESCALATE_AFTER_MS = (KILL_AFTER_SECONDS + 2) * 1000;
/** After KILL and closing our end, wait this long for the close to come back before giving up. */
const ABANDON_AFTER_MS = 2_000;

/**
 * Run `command` exactly as given on one new channel of `client`. On the deadline (or abort) the
 * remote process gets TERM through the channel, then KILL and a channel close; the command itself
 * should also be wrapped in timeout(1) (see shell-quote.ts) so the host kills it even without us.
 */
export function runOnChannel(
  client: Client,
  command: string,
  options: ResolvedExecOptions,
  where: string,
): Promise<ExecResult> {
  const started = performance.now();
  const stdout = new OutputCapture(options.maxOutputBytes);
  const stderr = new OutputCapture(options.maxOutputBytes);
  let exitCode: number | null = null;
  let exitSignal: string | null = null;
  let timedOut = false;
  let cancelled = false;

  const result = (): ExecResult =>
    capturedResult({ exitCode, signal: exitSignal, stdout, stderr, startedAt: started, timedOut, cancelled });

  if (options.signal?.aborted) {
    cancelled = true;
    return Promise.resolve(result());
  }

  return new Promise<ExecResult>((resolve, reject) => {
    let channel: ClientChannel | null = null;
    let settled = false;
    const timers: NodeJS.Timeout[] = [];

    const finish = (error?: Error): void => {
      if (settled) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      client.removeListener("close", onConnectionClosed);
      if (error === undefined) resolve(result());
      else reject(error);
    };

    const stop = (): void => {
      if (settled) return;
      channel?.signal("TERM");
      timers.push(
        setTimeout(() => {
          channel?.signal("KILL");
          channel?.close();
          timers.push(setTimeout(() => finish(), ABANDON_AFTER_MS));
        }, ESCALATE_AFTER_MS),
      );
    };
    const onAbort = (): void => {
      cancelled = true;
      stop();
    };
    const onConnectionClosed = (): void => {
      // ssh2 emits the connection's close before it fails the pending channel opens
      if (channel === null)
        finish(new ChannelOpenError(new Error("connection closed before the channel opened")));
      // a kill we asked for may end with the connection; anything else leaves the outcome unknown
      else if (timedOut || cancelled) finish();
      else finish(new SshConnectionLostError(where));
    };

    options.signal?.addEventListener("abort", onAbort, { once: true });
    client.once("close", onConnectionClosed);
    timers.push(
      setTimeout(() => {
        timedOut = true;
        stop();
      }, options.timeoutMs),
    );

    const onChannel = (error: Error | undefined, stream: ClientChannel): void => {
      if (error !== undefined && error !== null) {
        finish(new ChannelOpenError(error));
        return;
      }
      channel = stream;
      if (settled) {
        stream.close();
        return;
      }
      if (timedOut || cancelled) stream.signal("TERM");
      stream.on("data", (chunk: Buffer) => {
        stdout.push(chunk);
        options.onOutput?.("stdout", chunk.toString("utf8"));
      });
      stream.stderr.on("data", (chunk: Buffer) => {
        stderr.push(chunk);
        options.onOutput?.("stderr", chunk.toString("utf8"));
      });
      stream.on("exit", (code: number | null, signal?: string) => {
        exitCode = typeof code === "number" ? code : null;
        exitSignal = signal ?? null;
      });
      // a stream error (e.g. the connection failing under it) is followed by close or the connection's close
      stream.on("error", () => {});
      stream.once("close", () => finish());
    };
    try {
      client.exec(command, onChannel);
    } catch (error) {
      finish(new ChannelOpenError(error)); // ssh2 throws "Not connected" once it knows the socket is gone
    }
  });
}
