import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chmod, mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { join } from "node:path";

/**
 * Execution oracles of the outside attack of 2026-12 that test-support/jail/listeners.ts does not
 * have: what arrived (not only how many bytes), a pathname datagram socket, the machine's System V
 * message queues, its keyrings and its processes.
 */

/** A TCP listener on loopback that keeps every byte it receives, as text. */
export interface LineListener {
  port: number;
  received(): string;
  close(): Promise<void>;
}

export async function startLineListener(): Promise<LineListener> {
  let text = "";
  const server: Server = createServer((socket) => {
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString("latin1");
    });
    socket.on("error", () => {});
    // answer nothing: the client times out or gives up; the bytes it sent are what counts
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    port,
    received: () => text,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.unref();
      }),
  };
}

/**
 * A pathname Unix datagram socket (as /dev/log or /run/systemd/notify are), served by perl (node has
 * no Unix datagram sockets): every datagram becomes one line on its stdout.
 */
export interface DatagramListener {
  path: string;
  received(): string;
  close(): Promise<void>;
}

const DGRAM_SERVER = `
$| = 1;
socket(my $s, 1, 2, 0) or die "socket: $!";
bind($s, pack("S a108", 1, $ARGV[0])) or die "bind: $!";
chmod 0777, $ARGV[0];
print "ready\\n";
while (defined(recv($s, my $buf, 4096, 0))) { print "got:$buf\\n" }
`;

export async function startDatagramListener(): Promise<DatagramListener> {
  const dir = await mkdtemp("/var/lib/oikos-attack-dgram-");
  await chmod(dir, 0o755);
  const path = join(dir, "service.sock");
  const child: ChildProcess = spawn("perl", ["-e", DGRAM_SERVER, path], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("ready\n")) resolve();
    });
    child.on("exit", (code) => reject(new Error(`the datagram listener exited (${code})`)));
  });
  return {
    path,
    received: () => out.replace("ready\n", ""),
    async close() {
      child.removeAllListeners("exit");
      child.kill("SIGTERM");
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A System V message queue made by the test, open to every user; `messages()` counts what is in it. */
export interface MessageQueue {
  id: number;
  messages(): Promise<number>;
  remove(): void;
}

export function createMessageQueue(): MessageQueue {
  const out = execFileSync("ipcmk", ["-Q", "-p", "0666"], { encoding: "utf8" });
  const id = Number(/([0-9]+)\s*$/.exec(out.trim())?.[1]);
  if (!Number.isInteger(id)) throw new Error(`ipcmk said ${out}`);
  return {
    id,
    async messages() {
      const row = (await sysvRows("msg")).find((columns) => columns[1] === String(id));
      return Number(row?.[4] ?? Number.NaN);
    },
    remove: () => removeQueue(id),
  };
}

export function removeQueue(id: number): void {
  try {
    execFileSync("ipcrm", ["-q", String(id)], { stdio: "ignore" });
  } catch {
    // already gone
  }
}

/** The machine's message queues owned by `uid` (ids), from /proc/sysvipc/msg. */
export async function queuesOwnedBy(uid: number): Promise<number[]> {
  return (await sysvRows("msg")).filter((columns) => columns[7] === String(uid)).map((c) => Number(c[1]));
}

/** /proc/sysvipc/msg: key msqid perms cbytes qnum lspid lrpid uid gid … */
async function sysvRows(kind: "msg"): Promise<string[][]> {
  const text = await readFile(`/proc/sysvipc/${kind}`, "utf8");
  return text
    .split("\n")
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((columns) => columns.length > 8);
}

/** add_key, keyctl on the architectures the test knows; null elsewhere (the test skips). */
export function keyringSyscalls(): { addKey: number; keyctl: number } | null {
  if (process.arch === "x64") return { addKey: 248, keyctl: 250 };
  if (process.arch === "arm64") return { addKey: 217, keyctl: 219 };
  return null;
}

/** Processes whose command line is exactly these words, with their uid (from /proc). */
export async function processesRunning(words: readonly string[]): Promise<{ pid: number; uid: number }[]> {
  const { readdir } = await import("node:fs/promises");
  const wanted = `${words.join("\0")}\0`;
  const found: { pid: number; uid: number }[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^[0-9]+$/.test(entry)) continue;
    try {
      const cmdline = await readFile(`/proc/${entry}/cmdline`, "utf8");
      if (cmdline !== wanted) continue;
      const status = await readFile(`/proc/${entry}/status`, "utf8");
      const uid = Number(/^Uid:\s+([0-9]+)/m.exec(status)?.[1]);
      found.push({ pid: Number(entry), uid });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}
