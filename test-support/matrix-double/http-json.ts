import type { IncomingMessage, ServerResponse } from "node:http";

// JSON in and out for the homeserver double.

export function isEmpty(sync: Record<string, unknown>): boolean {
  const rooms = sync.rooms as { join: object; invite: object };
  return Object.keys(rooms.join).length === 0 && Object.keys(rooms.invite).length === 0;
}

export async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (!text) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw Object.assign(new Error("body is not JSON"), { status: 400, errcode: "M_NOT_JSON" });
  }
}

export function send(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return;
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}
