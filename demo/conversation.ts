import { createInterface } from "node:readline";
import { PassThrough, type Readable, type Writable } from "node:stream";
import type { EventBus } from "../jobs/events/port.ts";
import type { Outcome } from "../store/statuses.ts";

/** Who approves the plan: the person at the terminal, or the demo on their behalf (stdin is a pipe). */
export type Approver = "person" | "on-behalf";

export type ConversationEnd =
  | { kind: "completed"; outcome: Outcome }
  | { kind: "denied" }
  | { kind: "left"; why: string };

export interface ConversationOptions {
  events: EventBus;
  /** Resolves once nothing the last line started is still running (the terminal's pipe-mode settle). */
  settled: () => Promise<void>;
  opening: string;
  approver: Approver;
  stdin: Readable;
  stdout: Writable;
  timeoutMs: number;
}

/**
 * The operator's side of the demo, written into the terminal chat's input: the opening message,
 * then, once the plan card waits, the approval — typed by the person, or given on their behalf —
 * and the end of input once the task is closed (or the plan denied).
 */
export interface Conversation {
  /** The terminal chat's input. */
  input: Readable;
  ended: Promise<ConversationEnd>;
  /** The terminal chat read its input to the end: a conversation still open then was left. */
  terminalEnded(): void;
}

export function converse(options: ConversationOptions): Conversation {
  const input = new PassThrough();
  const { events } = options;
  const proposed = Promise.withResolvers<void>();
  const closed = Promise.withResolvers<ConversationEnd>();
  const unsubscribe = [
    events.subscribe("plan.proposed", () => proposed.resolve()),
    events.subscribe("plan.decided", (event) => {
      if (event.decision === "denied") closed.resolve({ kind: "denied" });
    }),
    events.subscribe("task.completed", (event) =>
      closed.resolve({ kind: "completed", outcome: event.outcome }),
    ),
  ];
  const timer = setTimeout(
    () => closed.resolve({ kind: "left", why: `it did not finish within ${options.timeoutMs / 1000} s` }),
    options.timeoutMs,
  );
  const ended = (async (): Promise<ConversationEnd> => {
    try {
      input.write(`${options.opening}\n`);
      const first = await Promise.race([proposed.promise.then(() => undefined), closed.promise]);
      if (first) return first;
      await options.settled();
      const stopAsking = askForApproval(options, input);
      const end = await closed.promise;
      stopAsking();
      await options.settled();
      return end;
    } finally {
      clearTimeout(timer);
      for (const off of unsubscribe) off();
      if (!input.writableEnded) input.end();
    }
  })();
  return {
    input,
    ended,
    terminalEnded: () => closed.resolve({ kind: "left", why: "input ended before the plan was decided" }),
  };
}

function askForApproval(options: ConversationOptions, input: PassThrough): () => void {
  if (options.approver === "on-behalf") {
    options.stdout.write("(stdin is not a terminal: the demo approves the plan on your behalf)\n");
    input.write("+1\n");
    return () => {};
  }
  options.stdout.write("Approve the plan? Type +1 and Enter (or -1 to deny it):\n");
  const typed = createInterface({ input: options.stdin, terminal: false });
  typed.on("line", (line) => input.write(`${line}\n`));
  // The person's input ends (Ctrl-D): so does the chat's, once it has taken their last line.
  typed.on("close", () => input.end());
  return () => {
    typed.removeAllListeners("close");
    typed.close();
  };
}
