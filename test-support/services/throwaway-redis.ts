import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { freeLoopbackPort } from "../sshd/free-port.ts";

// A redis-server of a test's own on a free loopback port, with an append-only file fsynced on
// every write (as a deployment that must not lose jobs runs it), so a test can stop and start it
// mid-task. Never the shared server on 6379 that other tests use.

export interface ThrowawayRedis {
  port: number;
  url: string;
  /** SIGTERM, as a service manager stops it; resolves when it has exited. */
  stop(): Promise<void>;
  start(): Promise<void>;
  dispose(): Promise<void>;
}

export async function startThrowawayRedis(): Promise<ThrowawayRedis> {
  const dir = mkdtempSync(join(tmpdir(), "oikos-redis-"));
  const port = await freeLoopbackPort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(
      "redis-server",
      [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--dir",
        dir,
        "--save",
        "",
        "--appendonly",
        "yes",
      ].concat(["--appendfsync", "always"]),
      { stdio: "ignore" },
    );
    const probe = new Redis({ port, host: "127.0.0.1", lazyConnect: true, retryStrategy: () => 100 });
    probe.on("error", () => {});
    try {
      for (;;) {
        try {
          if ((await probe.ping()) === "PONG") return;
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
    } finally {
      probe.disconnect();
    }
  };
  const stop = async () => {
    const running = child;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill("SIGTERM");
    await exited;
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    start,
    stop,
    async dispose() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
