import { execFile, spawn } from "node:child_process";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * The real resources the daily-diagnostics lab runs its rows against (root only): a loop block
 * device with a GPT partition table and an ext4 filesystem on its first partition; a network
 * namespace of its own with a veth pair, an address, nftables and iptables rules; a loopback HTTP
 * listener; a tmux server (a Unix-socket service). Every name carries the test's pid, so labs of
 * parallel test files never meet, and `stop` removes all of it.
 */
export interface DiagnosticsLab {
  /** The loop device, e.g. /dev/loop3, and its first partition, /dev/loop3p1. */
  disk: string;
  partition: string;
  /** The network namespace the `net_namespace` rows run in, and the veth end with an address. */
  netns: string;
  interface: string;
  /** The HTTP listener's loopback port (the host's network namespace). */
  port: number;
  /** Requests the listener answered. */
  requests(): number;
  /** Values of the corpus placeholders ({{disk}} …). */
  placeholders: Record<string, string>;
  stop(): Promise<void>;
}

export async function startDiagnosticsLab(): Promise<DiagnosticsLab> {
  const cleanups: (() => Promise<unknown>)[] = [];
  const stop = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  };
  try {
    const dir = await mkdtemp("/var/lib/oikos-diagnostics-lab-");
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    await chmod(dir, 0o755);
    const { disk, partition } = await loopDisk(dir, cleanups);
    const { netns, iface } = await namespace(cleanups);
    const { server, port, requests } = await listener();
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    return {
      disk,
      partition,
      netns,
      interface: iface,
      port,
      requests,
      placeholders: {
        "{{disk}}": disk,
        "{{partition}}": partition,
        "{{interface}}": iface,
        "{{port}}": String(port),
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function loopDisk(dir: string, cleanups: (() => Promise<unknown>)[]) {
  const image = join(dir, "disk.img");
  await writeFile(image, Buffer.alloc(0));
  await run("truncate", ["-s", "24M", image]);
  // a GPT with one Linux partition (sfdisk's script), labelled so the rows have something to show
  await run("bash", [
    "-c",
    `printf 'label: gpt\\nsize=16MiB, type=linux, name=oikos-lab\\n' | sfdisk -q ${image}`,
  ]);
  const disk = (await run("losetup", ["-f", "-P", "--show", image])).stdout.trim();
  cleanups.push(() => run("losetup", ["-d", disk]));
  const partition = `${disk}p1`;
  // the partition node appears once udev (or the kernel's devtmpfs) has it: partx makes sure
  await run("partx", ["-u", disk]).catch(() => {});
  await run("mkfs.ext4", ["-q", "-L", "oikos-lab", "-U", "0a1b2c3d-0000-4000-8000-000000000027", partition]);
  return { disk, partition };
}

async function namespace(cleanups: (() => Promise<unknown>)[]) {
  const netns = `oikos-diag-${process.pid}`;
  const ip = (...args: string[]) => run("ip", args);
  const inNs = (...args: string[]) => run("ip", ["netns", "exec", netns, ...args]);
  await ip("netns", "add", netns);
  cleanups.push(() => ip("netns", "del", netns));
  const iface = "veth-lab0";
  // No duplicate address detection: a link-local address stays `tentative` for a second or two
  // after the link comes up, and a row read in that second would differ from one read after it.
  await inNs("sysctl", "-qw", "net.ipv6.conf.default.accept_dad=0", "net.ipv6.conf.all.accept_dad=0");
  await ip("-n", netns, "link", "set", "lo", "up");
  await ip("-n", netns, "link", "add", iface, "type", "veth", "peer", "name", "veth-lab1");
  await ip("-n", netns, "addr", "add", "10.27.0.1/24", "dev", iface);
  await ip("-n", netns, "addr", "add", "10.27.0.2/24", "dev", "veth-lab1");
  await ip("-n", netns, "link", "set", iface, "up");
  await ip("-n", netns, "link", "set", "veth-lab1", "up");
  await ip("-n", netns, "route", "add", "10.27.1.0/24", "via", "10.27.0.2");
  await inNs(
    "nft",
    [
      "add table inet filter",
      "add chain inet filter input { type filter hook input priority 0; policy accept; }",
      "add rule inet filter input tcp dport 22 accept",
      "add rule inet filter input ct state established,related accept",
    ].join("; "),
  );
  await inNs("iptables", "-A", "INPUT", "-p", "tcp", "--dport", "8006", "-j", "ACCEPT");
  await inNs("iptables", "-t", "nat", "-A", "POSTROUTING", "-s", "10.27.0.0/24", "-j", "MASQUERADE");
  await inNs("ip6tables", "-A", "INPUT", "-p", "tcp", "--dport", "22", "-j", "ACCEPT");
  // a process listening on port 22 there, so the rows that name a socket's process (`ss -p`, `lsof
  // -i`, `fuser`, `netstat -p`) have one to show, and a jail that cannot see it is seen to be blind
  const sshLike = spawn(
    "ip",
    [
      "netns",
      "exec",
      netns,
      "perl",
      "-MIO::Socket::INET",
      "-e",
      'my $listener = IO::Socket::INET->new(LocalAddr => "0.0.0.0:22", Listen => 5, ReuseAddr => 1) or die "listen: $!\\n"; print "ready\\n"; STDOUT->flush; sleep 3600',
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  cleanups.push(async () => sshLike.kill("SIGKILL"));
  await new Promise<void>((resolve, reject) => {
    sshLike.stdout?.once("data", () => resolve());
    sshLike.once("exit", (code) => reject(new Error(`the lab's listener on port 22 exited (${code})`)));
  });
  return { netns, iface };
}

async function listener(): Promise<{ server: Server; port: number; requests: () => number }> {
  let count = 0;
  const server = createServer((_request, response) => {
    count++;
    response.writeHead(200, { "content-type": "text/plain", date: "Thu, 01 Jan 2026 00:00:00 GMT" });
    response.end("oikos diagnostics lab\n");
  });
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port, requests: () => count };
}
