import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "../base/logger.ts";
import { redact } from "../policy/redact.ts";
import type { Metrics } from "./metrics.ts";

export type HttpHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export interface HttpServerOptions {
  host: string;
  port: number;
  logger: Logger;
  metrics: Metrics;
  /** Readiness probe: resolves when the database answers. */
  health: () => Promise<Record<string, unknown>>;
  /** Extra routes by path prefix, e.g. `/mcp`. */
  routes?: Record<string, HttpHandler>;
}

export interface RunningHttpServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

/** `/healthz`, Prometheus `/metrics`, and mounted handlers; everything else is 404. */
export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const routes = Object.entries(options.routes ?? {});
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const route = routeName(path, routes);
    res.on("finish", () => options.metrics.httpRequests.inc({ route, status: String(res.statusCode) }));
    handle(req, res, path).catch((error: unknown) => {
      options.logger.error({ err: error, path }, "http handler failed");
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: "internal error" }));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    if (path === "/healthz") {
      try {
        const detail = await options.health();
        sendJson(res, 200, { status: "ok", ...detail });
      } catch (error) {
        sendJson(res, 503, { status: "unavailable", error: redact((error as Error).message) });
      }
      return;
    }
    if (path === "/metrics") {
      res.writeHead(200, { "content-type": options.metrics.registry.contentType });
      res.end(await options.metrics.registry.metrics());
      return;
    }
    for (const [prefix, handler] of routes) {
      if (path === prefix || path.startsWith(`${prefix}/`)) return handler(req, res);
    }
    sendJson(res, 404, { error: `no route for ${path}` });
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const url = `http://${address.address.includes(":") ? `[${address.address}]` : address.address}:${address.port}`;
  options.logger.info({ url }, "http server listening");
  return {
    server,
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function routeName(path: string, routes: [string, HttpHandler][]): string {
  if (path === "/healthz" || path === "/metrics") return path;
  return routes.find(([prefix]) => path === prefix || path.startsWith(`${prefix}/`))?.[0] ?? "other";
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}
