import assert from "node:assert/strict";
import { test } from "node:test";
import type { Inbound } from "./chat-adapter.ts";
import { ConcurrentInbound } from "./concurrent-inbound.ts";

const base = { platform: "matrix", room: "!r", user: "@alice", eventId: "" };
const topLevel = (id: string): Inbound => ({
  ...base,
  eventId: id,
  kind: "message",
  messageId: id,
  thread: null,
  text: id,
});
const reply = (id: string, thread: string): Inbound => ({
  ...base,
  eventId: id,
  kind: "message",
  messageId: id,
  thread,
  text: id,
});

test("new threads of one batch are handled side by side; a reply waits for every one begun before it", async () => {
  const log: string[] = [];
  const gates = new Map<string, PromiseWithResolvers<void>>();
  const gate = (id: string) => {
    if (!gates.has(id)) gates.set(id, Promise.withResolvers<void>());
    return gates.get(id)!;
  };
  const inbound = new ConcurrentInbound(async (event) => {
    log.push(`begin ${event.eventId}`);
    if (event.kind === "message" && event.thread === null) await gate(event.eventId).promise;
    log.push(`end ${event.eventId}`);
  });
  await inbound.handle(topLevel("a"));
  await inbound.handle(topLevel("b"));
  // Sequential handling would still be inside "a": both began, neither ended.
  assert.deepEqual(log, ["begin a", "begin b"]);
  const replied = inbound.handle(reply("a-1", "a"));
  gate("b").resolve();
  await new Promise((resolve) => setImmediate(resolve));
  assert.ok(
    !log.includes("begin a-1"),
    "the reply waits for the thread it belongs to (and every one before it)",
  );
  gate("a").resolve();
  await replied;
  await inbound.settled();
  assert.deepEqual(log, ["begin a", "begin b", "end b", "end a", "begin a-1", "end a-1"]);
});

test("a failed new thread fails the batch when it settles, so the platform delivers it again", async () => {
  const inbound = new ConcurrentInbound(async (event) => {
    if (event.eventId === "bad") throw new Error("database down");
  });
  await inbound.handle(topLevel("bad"));
  await inbound.handle(topLevel("good"));
  await assert.rejects(inbound.settled(), /database down/);
});
