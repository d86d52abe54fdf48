import { randomBytes } from "node:crypto";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { parseCommand } from "../core/bot-commands.ts";
import { cardToText } from "../core/card.ts";
import type { ChatAdapter, InboundSink, MessageRef, Outbound } from "../core/chat-adapter.ts";

export interface TerminalAdapterOptions {
  input: Readable;
  output: Writable;
  /** Who you are at start (`!as <user>` changes it). */
  user: string;
  /** Pipe mode: after each line, wait until the work it started has settled (queue idle). */
  settle?: () => Promise<void>;
  /** Treat the input as a TTY (prompt, no settling); default: input.isTTY. */
  interactive?: boolean;
}

const ROOM = "terminal";
const TERMINAL_HELP = [
  "Terminal:",
  "  +1 / -1                            react ✅ / ❌ to the latest card waiting for a decision",
  "  !react <emoji> [#n]                react to card #n (default: the latest waiting card)",
  "  !react ♾️  or  allow always          approve the waiting change and let it run again unasked (a standing grant)",
  "  !as <user>                         act as another user (to try permissions)",
  "  !new                               start a new thread (a new task)",
  "  !reply #n <text>                   say <text> in the thread of message #n (e.g. a typed phrase",
  "                                     for a card in an older thread)",
].join("\n");
/** Shown once when a person starts the terminal chat: the first thing to try. */
const GREETING = "Type a message to start a task, !help for the commands; Ctrl-D ends the chat.";

/**
 * The terminal as a one-room chat, in the spirit of Hubot's Shell adapter: the thread is the
 * session, reactions are typed, `!as` switches the user. Works with a TTY and with a pipe (each
 * line waits for what it started, so a scripted conversation reads like a real one).
 */
export class TerminalAdapter implements ChatAdapter {
  readonly platform = "shell";
  readonly selfId = "oikos";
  readonly #options: TerminalAdapterOptions;
  readonly #prefix = randomBytes(3).toString("hex");
  #counter = 0;
  #user: string;
  #thread: string | null = null;
  #sink: InboundSink | undefined;
  /** Short number shown to the user → platform message id, and which cards await a reaction. */
  readonly #numbers = new Map<number, string>();
  readonly #idsToNumbers = new Map<string, number>();
  readonly #waitingCards: string[] = [];
  /** Threads that are sessions (started by a message, not a command): their replies are indented. */
  readonly #threads = new Set<string>();
  /** The thread each message shown here is in (`!reply #n` answers in it). */
  readonly #threadOf = new Map<string, string | null>();

  constructor(options: TerminalAdapterOptions) {
    this.#options = options;
    this.#user = options.user;
  }

  get user(): string {
    return this.#user;
  }

  async start(sink: InboundSink): Promise<void> {
    this.#sink = sink;
  }

  async stop(): Promise<void> {
    this.#sink = undefined;
  }

  /** Reads lines until the input ends; resolves after the last line's work has settled. */
  async run(): Promise<void> {
    const { input, output } = this.#options;
    const interactive = this.#options.interactive ?? Boolean((input as { isTTY?: boolean }).isTTY);
    const prompt = interactive ? "you> " : "";
    const rl = createInterface({ input, terminal: false });
    if (interactive) output.write(`${GREETING}\n`);
    if (prompt) output.write(prompt);
    for await (const raw of rl) {
      const line = raw.trim();
      if (line) {
        // A pipe's lines are not on the screen: echo them, so the output reads as a conversation.
        if (!interactive) output.write(`you> ${line}\n`);
        await this.send(line);
        if (!interactive) await this.#options.settle?.();
      }
      if (prompt) output.write(prompt);
    }
    if (prompt) output.write("\n");
    await this.#options.settle?.();
  }

  async post(room: string, thread: string | null, message: Outbound): Promise<MessageRef> {
    const messageId = this.#nextId();
    const n = this.#number(messageId);
    this.#threadOf.set(messageId, thread);
    if ("text" in message) {
      this.#print("", thread, message.text);
      return { platform: this.platform, room, messageId, thread };
    }
    this.#print(`[#${n}]`, thread, cardToText(message.card));
    // a typed phrase for a thread that is not the one the next message goes to: say how to reach it
    if (message.card.phrase && thread !== null && thread !== this.#thread)
      this.#print("", thread, `(in this terminal: \`!reply #${n} ${message.card.phrase}\`)`);
    if ("card" in message) {
      if (message.card.reactions?.length) this.#waitingCards.push(messageId);
      if (message.card.kind === "summary" && thread === this.#thread) this.#thread = null;
    }
    return { platform: this.platform, room, messageId, thread };
  }

  async edit(ref: MessageRef, message: Outbound): Promise<void> {
    const text = "card" in message ? cardToText(message.card) : message.text;
    this.#print(`[#${this.#number(ref.messageId)} edited]`, ref.thread, text);
    if ("card" in message && !message.card.reactions?.length) {
      const at = this.#waitingCards.indexOf(ref.messageId);
      if (at >= 0) this.#waitingCards.splice(at, 1);
    }
  }

  async react(ref: MessageRef, key: string): Promise<void> {
    this.#options.output.write(`  (oikos reacted ${key} to #${this.#number(ref.messageId)})\n`);
  }

  /** Handles one typed line as if it had been read from the input. */
  async send(line: string): Promise<void> {
    const sink = this.#sink;
    if (!sink) return;
    const words = line.split(/\s+/);
    const head = words[0]!.toLowerCase();
    if (head === "!as") {
      if (words[1]) this.#user = words[1];
      this.#say(`You are ${this.#user}.`);
      return;
    }
    if (head === "!new") {
      this.#thread = null;
      this.#say("Next message starts a new thread.");
      return;
    }
    if (head === "!reply") {
      await this.#reply(sink, words[1], line.replace(/^\S+\s+\S+\s*/, ""));
      return;
    }
    if (head === "+1" || head === "-1" || head === "!react") {
      const key = head === "+1" ? "+1" : head === "-1" ? "-1" : (words[1] ?? "");
      const ref = head === "!react" ? words[2] : undefined;
      await this.#react(sink, key, ref);
      return;
    }
    const messageId = this.#nextId();
    const command = parseCommand(line);
    const thread = this.#thread;
    if (!command && !thread) {
      this.#thread = messageId;
      this.#threads.add(messageId);
    }
    await this.#message(sink, messageId, thread, line);
    // `!help` alone lists the terminal's own commands too; `!help <command>` is about that command.
    if (command?.name === "help" && command.words.length === 1)
      this.#options.output.write(`${TERMINAL_HELP}\n`);
  }

  /** `!reply #n <text>`: a message in the thread of message #n, whichever thread is current. */
  async #reply(sink: InboundSink, ref: string | undefined, text: string): Promise<void> {
    if (!ref || !text) {
      this.#say("Usage: !reply #n <text>");
      return;
    }
    const target = this.#numbers.get(Number(ref.replace(/^#/, "")));
    if (target === undefined) {
      this.#say(`There is no message ${ref}.`);
      return;
    }
    // a message outside any thread (a command's answer) starts a thread of its own, as on Matrix
    const thread = this.#threadOf.get(target) ?? target;
    const messageId = this.#nextId();
    this.#threadOf.set(messageId, thread);
    await this.#message(sink, messageId, thread, text);
  }

  /** What the operator typed, as the core receives it: message `messageId` in `thread` (null: top level). */
  #message(sink: InboundSink, messageId: string, thread: string | null, text: string): Promise<void> {
    return sink({
      kind: "message",
      platform: this.platform,
      room: ROOM,
      eventId: messageId,
      messageId,
      user: this.#user,
      thread,
      text,
    });
  }

  async #react(sink: InboundSink, key: string, ref: string | undefined): Promise<void> {
    if (!key) {
      this.#say("Usage: !react <emoji> [#n]");
      return;
    }
    const target = ref ? this.#numbers.get(Number(ref.replace(/^#/, ""))) : this.#waitingCards.at(-1);
    if (!target) {
      this.#say(ref ? `There is no message ${ref}.` : "No card is waiting for a reaction.");
      return;
    }
    const eventId = this.#nextId();
    await sink({
      kind: "reaction",
      platform: this.platform,
      room: ROOM,
      eventId,
      user: this.#user,
      target,
      key,
    });
  }

  #print(label: string, thread: string | null, text: string): void {
    const indent = thread && this.#threads.has(thread) ? "  │ " : "";
    const lines = text.split("\n");
    const first = label ? `oikos ${label} ${lines[0]}` : lines[0];
    const out = [`${indent}${first}`, ...lines.slice(1).map((l) => `${indent}${l}`)];
    this.#options.output.write(`${out.join("\n")}\n`);
  }

  #say(text: string): void {
    this.#options.output.write(`${text}\n`);
  }

  #nextId(): string {
    this.#counter++;
    return `${this.#prefix}-${this.#counter}`;
  }

  #number(messageId: string): number {
    let n = this.#idsToNumbers.get(messageId);
    if (n === undefined) {
      n = this.#idsToNumbers.size + 1;
      this.#idsToNumbers.set(messageId, n);
      this.#numbers.set(n, messageId);
    }
    return n;
  }
}
