import { type ChildProcess, spawn } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { SSHD_PATH } from "./lab-prerequisites.ts";
import { killTree } from "./process-tree.ts";
import { renderSshdConfig, type SshdConfigInput } from "./sshd-config.ts";

export interface RunningSshd {
  child: ChildProcess;
  port: number;
}

const BANNER_DEADLINE_MS = 15_000;
const live = new Set<ChildProcess>();

// A test process that dies without calling stop() must not leave sshd listeners behind.
process.once("exit", () => {
  for (const child of live) if (child.pid !== undefined) killTree(child.pid);
});

/**
 * Start `sshd -D` with the given config and resolve once its port answers with our own banner.
 * Rejects with `portTaken: true` when another process won the port first, so the caller can retry.
 */
export async function startSshd(
  input: SshdConfigInput,
  paths: { configPath: string; logPath: string },
): Promise<RunningSshd> {
  await writeFile(paths.configPath, renderSshdConfig(input));
  // sshd re-executes itself per connection, so it must be started by absolute path.
  const args = ["-D", "-f", paths.configPath, "-E", paths.logPath];
  // A chroot of the whole machine: / bound onto the chroot directory inside this sshd's own mount
  // namespace (the machine never sees the bind), so sessions see every file as usual, but from a
  // chroot, where the kernel refuses new user namespaces.
  const chroot = input.chrootDirectory;
  const child =
    chroot === undefined
      ? spawn(SSHD_PATH, args, { stdio: ["ignore", "ignore", "pipe"] })
      : spawn(
          "unshare",
          [
            "--mount",
            "--propagation",
            "private",
            "--",
            "sh",
            "-c",
            'mount --rbind / "$0" && exec "$@"',
            chroot,
            SSHD_PATH,
            ...args,
          ],
          { stdio: ["ignore", "ignore", "pipe"] },
        );
  live.add(child);
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  let exited = false;
  child.once("exit", () => {
    exited = true;
    live.delete(child);
  });
  const deadline = Date.now() + BANNER_DEADLINE_MS;
  while (Date.now() < deadline) {
    if (exited) break;
    const banner = await readBanner(input.port).catch(() => null);
    if (banner?.includes(input.bannerTag)) return { child, port: input.port };
    if (banner !== null && !exited) break; // someone else's server answers on this port
    await new Promise((resolve) => setTimeout(resolve, 15));
  }
  stopSshd(child);
  const log = await readFile(paths.logPath, "utf8").catch(() => "");
  const detail = `${stderr}\n${log}`.trim();
  const error = new Error(`sshd on 127.0.0.1:${input.port} did not come up: ${detail || "no output"}`);
  Object.assign(error, { portTaken: /Address already in use|Bind to port/i.test(detail) || !exited });
  throw error;
}

/** Kill the listener and every session it forked (sessions would otherwise outlive it). */
export function stopSshd(child: ChildProcess): void {
  if (child.pid !== undefined) killTree(child.pid);
  live.delete(child);
}

export function waitForExit(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

function readBanner(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port });
    let data = "";
    socket.setTimeout(2_000, () => socket.destroy(new Error("banner timeout")));
    socket.on("data", (chunk: Buffer) => {
      data += chunk.toString("latin1");
      const end = data.indexOf("\n");
      if (end >= 0) {
        socket.destroy();
        resolve(data.slice(0, end).trim());
      }
    });
    socket.once("error", reject);
    socket.once("close", () => reject(new Error("closed before banner")));
  });
}
