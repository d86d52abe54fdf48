import { createSocket, type Socket as UdpSocket } from "node:dgram";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { join } from "node:path";

/**
 * Services a containment test starts, each counting the bytes it receives: a TCP and a UDP listener
 * on loopback, a pathname Unix-socket service (the stand-in for docker.sock or D-Bus) and an
 * abstract one. The oracle executes: an escape is a byte received, not a label.
 */
export interface Listeners {
  tcpPort: number;
  udpPort: number;
  /** A pathname socket under /var/lib (readable by every user, outside the jail's scratch). */
  unixPath: string;
  /** The abstract socket's name, without the leading NUL. */
  abstractName: string;
  /** Bytes received so far, per service. */
  received(): { tcp: number; udp: number; unix: number; abstract: number };
  /** Connections accepted so far, per stream service. */
  connections(): { tcp: number; unix: number; abstract: number };
  close(): Promise<void>;
}

export async function startListeners(): Promise<Listeners> {
  const bytes = { tcp: 0, udp: 0, unix: 0, abstract: 0 };
  const accepted = { tcp: 0, unix: 0, abstract: 0 };
  const counting = (kind: "tcp" | "unix" | "abstract"): Server =>
    createServer((socket) => {
      accepted[kind]++;
      socket.on("data", (chunk: Buffer) => {
        bytes[kind] += chunk.length;
      });
      socket.on("error", () => {});
    });
  const dir = await mkdtemp("/var/lib/oikos-jail-listeners-");
  await chmod(dir, 0o755);
  const unixPath = join(dir, "service.sock");
  const abstractName = `oikos-jail-test-${process.pid}-${Date.now()}`;
  const tcp = counting("tcp");
  const unix = counting("unix");
  const abstract = counting("abstract");
  const udp: UdpSocket = createSocket("udp4");
  udp.on("message", (message: Buffer) => {
    bytes.udp += message.length;
  });
  await Promise.all([
    new Promise<void>((resolve) => tcp.listen(0, "127.0.0.1", resolve)),
    new Promise<void>((resolve) => unix.listen(unixPath, resolve)),
    new Promise<void>((resolve) => abstract.listen(`\0${abstractName}`, resolve)),
    new Promise<void>((resolve) => udp.bind(0, "127.0.0.1", resolve)),
  ]);
  await chmod(unixPath, 0o777);
  const address = tcp.address();
  const tcpPort = typeof address === "object" && address !== null ? address.port : 0;
  return {
    tcpPort,
    udpPort: udp.address().port,
    unixPath,
    abstractName,
    received: () => ({ ...bytes }),
    connections: () => ({ ...accepted }),
    async close() {
      await Promise.all(
        [tcp, unix, abstract].map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
      );
      await new Promise<void>((resolve) => udp.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
