import assert from "node:assert/strict";
import { test } from "node:test";
import { capturingLogger } from "../test-support/bot/slack-bot.ts";
import { type AdapterStatus, AdapterStatusBoard, describeAdapter } from "./adapter-status.ts";
import { type AdapterLauncher, AdapterSupervisor } from "./adapter-supervisor.ts";
import type { ChatAdapter } from "./core/chat-adapter.ts";

const FAST = { baseMs: 5, unreachableMaxMs: 20, refusedMaxMs: 20 };

function fakeAdapter(stops: string[]): ChatAdapter {
  return {
    platform: "matrix",
    selfId: "@oikos:x",
    start: async () => {},
    stop: async () => {
      stops.push("stopped");
    },
    post: async () => ({ platform: "matrix", room: "r", messageId: "m", thread: null }),
    edit: async () => {},
    react: async () => {},
  } as unknown as ChatAdapter;
}

/** A launcher whose tries fail with `failures` in turn, then succeed. */
function launcher(failures: Error[], stops: string[] = []): AdapterLauncher & { tries: number } {
  const l = {
    platform: "matrix",
    tries: 0,
    async create() {
      const failure = failures[l.tries++];
      const adapter = fakeAdapter(stops);
      if (failure) adapter.start = async () => Promise.reject(failure);
      return adapter;
    },
    diagnose: (error: unknown) => ({
      state: (String(error).includes("token") ? "refused" : "unreachable") as "refused" | "unreachable",
      cause: (error as Error).message,
      advice: "check it",
    }),
  };
  return l;
}

test("down twice, then up: one log line for the change, connected on the board, the adapter handed over", async () => {
  const board = new AdapterStatusBoard();
  const seen: AdapterStatus["state"][] = [];
  board.onChange((_, status) => seen.push(status.state));
  const { logger, records } = capturingLogger();
  const l = launcher([new Error("ECONNREFUSED"), new Error("ECONNREFUSED")]);
  const connected = Promise.withResolvers<ChatAdapter>();
  const supervisor = new AdapterSupervisor({
    launcher: l,
    board,
    logger,
    sink: async () => {},
    onConnected: async (adapter) => connected.resolve(adapter),
    onStarting: () => {},
    onDisconnected: () => {},
    backoff: FAST,
  });
  supervisor.start();
  await supervisor.firstAttempt();
  assert.equal(board.get("matrix")?.state, "unreachable");
  assert.match(
    describeAdapter("matrix", board.get("matrix")!),
    /matrix unreachable \(ECONNREFUSED\): check it — next try in/,
  );
  await connected.promise;
  assert.equal(l.tries, 3);
  assert.deepEqual(seen, ["starting", "unreachable", "unreachable", "connected"]);
  const loud = records.filter((r) => r.level >= 40);
  assert.equal(loud.length, 1, "a repeated failure is not logged again");
  assert.match(loud[0]!.msg, /matrix cannot be reached \(ECONNREFUSED\): check it/);
  assert.ok(records.some((r) => r.msg === "matrix: connected after 2 failed tries"));
  await supervisor.stop();
  assert.equal(board.get("matrix")?.state, "stopped");
});

test("a refusal is its own state, logged as an error; a change of cause is a new line", async () => {
  const board = new AdapterStatusBoard();
  const { logger, records } = capturingLogger();
  const supervisor = new AdapterSupervisor({
    launcher: launcher([new Error("ECONNREFUSED"), new Error("token_revoked"), new Error("token_revoked")]),
    board,
    logger,
    sink: async () => {},
    onConnected: async () => {},
    onStarting: () => {},
    onDisconnected: () => {},
    backoff: FAST,
  });
  supervisor.start();
  while (board.get("matrix")?.state !== "connected") await new Promise((r) => setTimeout(r, 5));
  const loud = records.filter((r) => r.level >= 40).map((r) => [r.level, r.msg.split(":")[0]]);
  assert.deepEqual(loud, [
    [40, "matrix cannot be reached (ECONNREFUSED)"],
    [50, "matrix refused oikos (token_revoked)"],
  ]);
  await supervisor.stop();
});

test("a stop while waiting to try again ends at once and starts nothing", async () => {
  const board = new AdapterStatusBoard();
  const { logger } = capturingLogger();
  const l = launcher([new Error("ECONNREFUSED")]);
  const supervisor = new AdapterSupervisor({
    launcher: l,
    board,
    logger,
    sink: async () => {},
    onConnected: async () => assert.fail("nothing connects after a stop"),
    onStarting: () => {},
    onDisconnected: () => {},
    backoff: { baseMs: 60_000, unreachableMaxMs: 60_000, refusedMaxMs: 60_000 },
  });
  supervisor.start();
  await supervisor.firstAttempt();
  await supervisor.stop();
  assert.equal(l.tries, 1);
  assert.equal(board.get("matrix")?.state, "stopped");
});

test("an adapter whose start finishes after the stop is stopped, never handed over", async () => {
  const board = new AdapterStatusBoard();
  const { logger } = capturingLogger();
  const stops: string[] = [];
  const slow = Promise.withResolvers<void>();
  const supervisor = new AdapterSupervisor({
    launcher: {
      platform: "matrix",
      create: async () => {
        await slow.promise;
        return fakeAdapter(stops);
      },
      diagnose: () => ({ state: "unreachable", cause: "x", advice: "y" }),
    },
    board,
    logger,
    sink: async () => {},
    onConnected: async () => assert.fail("nothing connects after a stop"),
    onStarting: () => {},
    onDisconnected: () => {},
    backoff: FAST,
  });
  supervisor.start();
  const stopping = supervisor.stop();
  slow.resolve();
  await stopping;
  assert.deepEqual(stops, ["stopped"]);
});
