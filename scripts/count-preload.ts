/**
 * Loaded into an oikos process with `--import <this file>?out=<dir>` (scripts/sessions-counts.ts puts
 * it in the 50-session bench's NODE_OPTIONS): records every SQL statement sent through pg, every
 * Redis command sent through ioredis and every child process started, each with the time it was sent,
 * and writes them to `<dir>/counts-<pid>.json` when the process exits. Counts, not timings: a loaded
 * machine stretches the waits, not the number of round trips.
 */
import { ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Redis } from "ioredis";
import pg from "pg";

export interface CountEvent {
  /** Milliseconds since the epoch. */
  t: number;
  kind: "sql" | "redis" | "spawn" | "cpu";
  /** The statement's text (whitespace collapsed), the Redis command, or the program and its first words. */
  what: string;
  /** The statement's parameters that are short strings (a session or execution id), to follow one session. */
  ids?: string[];
}

const out = new URL(import.meta.url).searchParams.get("out");
const events: CountEvent[] = [];
type Patchable = { [name: string]: (...args: unknown[]) => unknown };

const clientProto = pg.Client.prototype as unknown as Patchable;
const query = clientProto.query!;
clientProto.query = function (this: unknown, ...args: unknown[]) {
  const text = typeof args[0] === "string" ? args[0] : ((args[0] as { text?: string })?.text ?? "?");
  const params = Array.isArray(args[1]) ? (args[1] as unknown[]) : [];
  const ids = params.filter((p): p is string => typeof p === "string" && p.length >= 8 && p.length <= 64);
  events.push({
    t: Date.now(),
    kind: "sql",
    what: text.replace(/\s+/g, " "),
    ...(ids.length ? { ids } : {}),
  });
  return query.apply(this, args);
};

const redisProto = Redis.prototype as unknown as Patchable;
const sendCommand = redisProto.sendCommand!;
redisProto.sendCommand = function (this: unknown, ...args: unknown[]) {
  const command = args[0] as { name: string; args: unknown[] };
  const what =
    command.name === "evalsha" || command.name === "eval"
      ? `${command.name} ${String(command.args[0]).slice(0, 8)}`
      : command.name;
  events.push({ t: Date.now(), kind: "redis", what });
  return sendCommand.apply(this, args);
};

const spawnProto = ChildProcess.prototype as unknown as Patchable;
const spawn = spawnProto.spawn!;
spawnProto.spawn = function (this: unknown, ...args: unknown[]) {
  const options = args[0] as { file?: string; args?: string[] };
  const words = (options.args ?? []).slice(1, 3).map((w) => w.slice(0, 40));
  events.push({ t: Date.now(), kind: "spawn", what: [options.file ?? "?", ...words].join(" ") });
  return spawn.apply(this, args);
};

process.on("exit", () => {
  if (!out) return;
  // The process's CPU time at exit (microseconds): what the run cost, whatever the machine's load.
  const { user, system } = process.cpuUsage();
  events.push({ t: Date.now(), kind: "cpu", what: `${user} ${system}` });
  writeFileSync(join(out, `counts-${process.pid}.json`), JSON.stringify(events));
});
