import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";

export interface TerminalChatOptions {
  input: Readable;
  output: Writable;
  /** Called for every non-empty line; its answer (if any) is printed. */
  onLine(line: string): Promise<string | null>;
  prompt?: string;
}

/**
 * The terminal as a chat room: one line in, answers out. Works with a TTY and with a pipe;
 * resolves when input ends (Ctrl-D or end of the piped script), after the last line is answered.
 */
export async function runTerminalChat(options: TerminalChatOptions): Promise<void> {
  const interactive = "isTTY" in options.input && Boolean((options.input as { isTTY?: boolean }).isTTY);
  const rl = createInterface({ input: options.input, terminal: false });
  const prompt = interactive ? (options.prompt ?? "you> ") : "";
  if (prompt) options.output.write(prompt);
  for await (const raw of rl) {
    const line = raw.trim();
    if (line) {
      const answer = await options.onLine(line);
      if (answer) options.output.write(`${answer}\n`);
    }
    if (prompt) options.output.write(prompt);
  }
  if (prompt) options.output.write("\n");
}
