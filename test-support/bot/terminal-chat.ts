import { PassThrough } from "node:stream";
import type { RoomAccessConfig } from "../../bot/core/access.ts";
import { TerminalAdapter } from "../../bot/shell/terminal-adapter.ts";
import { type ChatHarness, createChatHarness } from "./chat-harness.ts";

/** The terminal chat attached to a harness, its output collected for tests to read. */
export interface TerminalChat {
  terminal: TerminalAdapter;
  /** Everything printed since the start or the last `take`. */
  output(): string;
  /** What was printed since the last `take`, and forgets it. */
  take(): string;
}

/** Starts the real terminal adapter (non-interactive, typing as `user`) on the harness core. */
export async function attachTerminal(h: ChatHarness, user = "alice"): Promise<TerminalChat> {
  let printed = "";
  const out = new PassThrough();
  out.on("data", (chunk: Buffer) => {
    printed += chunk.toString();
  });
  const terminal = new TerminalAdapter({ input: new PassThrough(), output: out, user, interactive: false });
  h.adapters.set("shell", terminal);
  await terminal.start((e) => h.core.handle(e));
  return {
    terminal,
    output: () => printed,
    take: () => {
      const text = printed;
      printed = "";
      return text;
    },
  };
}

export type HarnessTerminal = TerminalChat & { h: ChatHarness };

/** A new chat harness with `access` (and `options`) and the terminal chat on it, typing as alice. */
export async function startTerminalChat(
  access: RoomAccessConfig,
  options?: Parameters<typeof createChatHarness>[1],
): Promise<HarnessTerminal> {
  const h = await createChatHarness(access, options);
  return { h, ...(await attachTerminal(h)) };
}
