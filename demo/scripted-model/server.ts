import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { performance } from "node:perf_hooks";
import { writeCompletion, writeHttpError } from "./respond.ts";
import type { ChatRequestBody, RecordedRequest, ScriptedReply, ScriptStep } from "./types.ts";

export interface ScriptedModelOptions {
  /** Steps tried in order for each request: the first one not used up whose `when` matches answers. */
  script?: ScriptStep[];
  /**
   * Answers a request no step matched. Default: HTTP 500 "no scripted step matched" (the request is
   * still recorded in `unmatched`), so a scenario that drifts from its script fails loudly.
   */
  fallback?: ScriptedReply | ((request: RecordedRequest) => ScriptedReply);
  /** Port to listen on; default 0 (a free one). Always 127.0.0.1. */
  port?: number;
}

export interface ScriptedModelServer {
  /** Base URL for an OpenAI client: `http://127.0.0.1:<port>/v1`. */
  readonly url: string;
  /** Every chat request so far, in arrival order. */
  readonly requests: readonly RecordedRequest[];
  /** Requests no step matched (answered by the fallback). */
  readonly unmatched: readonly RecordedRequest[];
  /** Most requests ever in flight at once (received, reply not finished): 1 proves calls never overlapped. */
  readonly peakConcurrency: number;
  /** Appends steps to the script (e.g. per phase of a scenario). */
  push(...steps: ScriptStep[]): void;
  /** Names of steps not used up yet (a standing `times: Infinity` step always counts as remaining). */
  remaining(): string[];
  /** Resolves when at least `count` requests have arrived; rejects after `timeoutMs` (default 10 s). */
  waitForRequests(count: number, timeoutMs?: number): Promise<RecordedRequest[]>;
  /** Stops listening and drops open connections (delayed replies included). */
  close(): Promise<void>;
}

interface LiveStep {
  step: ScriptStep;
  name: string;
  left: number;
}

/**
 * An OpenAI-compatible `/v1/chat/completions` endpoint that plays a script, for driving the agent
 * loop in tests, evals and benchmarks. Also answers `GET /v1/models`.
 */
export async function startScriptedModel(options: ScriptedModelOptions = {}): Promise<ScriptedModelServer> {
  const steps: LiveStep[] = [];
  const requests: RecordedRequest[] = [];
  const unmatched: RecordedRequest[] = [];
  const waiters = new Set<() => void>();
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let inFlight = 0;
  let peakConcurrency = 0;
  const push = (...added: ScriptStep[]) => {
    for (const step of added) {
      steps.push({ step, name: step.name ?? `step-${steps.length}`, left: step.times ?? 1 });
    }
  };
  push(...(options.script ?? []));

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "").split("?")[0];
    if (req.method === "GET" && path?.endsWith("/models")) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({ object: "list", data: [{ id: "scripted", object: "model", owned_by: "oikos" }] }),
      );
      return;
    }
    if (req.method !== "POST" || !path?.endsWith("/chat/completions")) {
      writeHttpError(res, 404, `scripted model: no route ${req.method} ${path}`);
      return;
    }
    let body: ChatRequestBody;
    try {
      body = JSON.parse(await readBody(req)) as ChatRequestBody;
    } catch {
      writeHttpError(res, 400, "scripted model: body is not JSON");
      return;
    }
    const recorded: RecordedRequest = {
      index: requests.length,
      receivedAt: Date.now(),
      receivedAtMono: performance.now(),
      body,
      headers: req.headers,
      step: null,
    };
    const live = steps.find((s) => s.left > 0 && (s.step.when ?? (() => true))(recorded));
    let reply: ScriptedReply;
    if (live) {
      live.left -= 1;
      recorded.step = live.name;
      reply = typeof live.step.reply === "function" ? live.step.reply(recorded) : live.step.reply;
    } else {
      unmatched.push(recorded);
      const fallback = options.fallback;
      reply = fallback
        ? typeof fallback === "function"
          ? fallback(recorded)
          : fallback
        : {
            fault: "http",
            status: 500,
            message: `scripted model: no scripted step matched request #${recorded.index}`,
          };
    }
    requests.push(recorded);
    inFlight += 1;
    peakConcurrency = Math.max(peakConcurrency, inFlight);
    res.once("close", () => {
      inFlight -= 1;
    });
    for (const wake of [...waiters]) wake();
    if (reply.delayMs) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          resolve();
        }, reply.delayMs);
        timers.add(timer);
      });
    }
    if (reply.hold && !res.destroyed) {
      await Promise.race([
        Promise.resolve(reply.hold).then(
          () => {},
          () => {},
        ),
        new Promise<void>((resolve) => res.once("close", resolve)),
      ]);
    }
    if (res.destroyed) return;
    if (reply.fault === "malformed") {
      // a 200 whose body is cut off mid-JSON, as a crashing proxy or a truncated stream sends it
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        '{"id":"chatcmpl-malformed","object":"chat.completion","choices":[{"index":0,"message":{"role":"assi',
      );
      return;
    }
    if (reply.fault === "drop") {
      req.socket.destroy();
      return;
    }
    if (reply.fault === "http") {
      writeHttpError(res, reply.status ?? 500, reply.message ?? `scripted fault ${reply.status ?? 500}`);
      return;
    }
    writeCompletion(res, body, reply);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) writeHttpError(res, 500, `scripted model crashed: ${String(error)}`);
      else res.end();
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    unmatched,
    get peakConcurrency() {
      return peakConcurrency;
    },
    push,
    remaining: () => steps.filter((s) => s.left > 0).map((s) => s.name),
    waitForRequests(count, timeoutMs = 10_000) {
      if (requests.length >= count) return Promise.resolve([...requests]);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`scripted model: ${requests.length} of ${count} requests after ${timeoutMs} ms`));
        }, timeoutMs);
        const check = () => {
          if (requests.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve([...requests]);
        };
        waiters.add(check);
      });
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
