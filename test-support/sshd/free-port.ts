import { createServer } from "node:net";

/**
 * A loopback port that was free a moment ago. Another process may still take it before sshd binds,
 * so callers retry with a fresh port when sshd exits early (see sshd-process.ts).
 */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", reject);
    server.listen({ host: "127.0.0.1", port: 0, exclusive: true }, () => {
      const address = server.address();
      if (address === null || typeof address === "string") {
        server.close();
        reject(new Error("could not read the allocated port"));
        return;
      }
      server.close(() => resolve(address.port));
    });
  });
}
