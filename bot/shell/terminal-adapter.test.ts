import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { test } from "node:test";
import type { Inbound } from "../core/chat-adapter.ts";
import { TerminalAdapter } from "./terminal-adapter.ts";

/** Runs the terminal over `lines` and returns what it printed and what it handed the core. */
async function session(lines: string[], interactive: boolean) {
  const input = new PassThrough();
  const output = new PassThrough();
  let printed = "";
  output.on("data", (chunk: Buffer) => {
    printed += chunk.toString();
  });
  const received: Inbound[] = [];
  const terminal = new TerminalAdapter({ input, output, user: "operator", interactive });
  await terminal.start(async (event) => {
    received.push(event);
  });
  input.end(lines.map((line) => `${line}\n`).join(""));
  await terminal.run();
  return { printed, received };
}

test("from a pipe every line is echoed before it is handled, so the output reads as the conversation", async () => {
  const { printed, received } = await session(["restart gitea", "+1"], false);
  assert.match(printed, /^you> restart gitea\nyou> \+1\n/);
  assert.deepEqual(
    received.map((e) => e.kind),
    ["message"],
    "+1 with no card waiting reacts to nothing",
  );
  assert.doesNotMatch(printed, /you> $/m, "no prompt in pipe mode");
});

test("a person at a terminal is told how to begin, and sees a prompt, not their line again", async () => {
  const { printed } = await session(["hello"], true);
  assert.match(
    printed,
    /^Type a message to start a task, !help for the commands; Ctrl-D ends the chat\.\nyou> /,
  );
  assert.doesNotMatch(printed, /you> hello/);
});

test("!help lists the terminal's own commands; !help <command> is about that command only", async () => {
  const all = await session(["!help"], false);
  assert.match(all.printed, /Terminal:\n {2}\+1 \/ -1/);
  const one = await session(["!help routing"], false);
  assert.equal(one.received.length, 1, "the core answers !help routing");
  assert.doesNotMatch(one.printed, /Terminal:/);
});
