import { createHash, randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";

const GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

/**
 * The Socket Mode side of the Slack double: a minimal RFC 6455 WebSocket endpoint (text, ping,
 * pong, close; client frames masked, server frames not) that says `hello`, sends envelopes
 * (`events_api`, `interactive`, `slash_commands`) and resolves when the app acknowledges one by
 * its envelope_id. One connection at a time, like an app with one socket.
 */
export class SocketModeServer {
  #socket: Duplex | undefined;
  #buffer = Buffer.alloc(0);
  readonly #acks = new Map<string, (payload: unknown) => void>();
  #connected: Promise<void>;
  #onConnected: () => void = () => {};
  readonly acked: string[] = [];

  constructor() {
    this.#connected = new Promise((resolve) => {
      this.#onConnected = resolve;
    });
  }

  /** Resolves once an app has connected and been greeted. */
  connected(): Promise<void> {
    return this.#connected;
  }

  upgrade(req: IncomingMessage, socket: Duplex): void {
    const key = req.headers["sec-websocket-key"];
    if (typeof key !== "string") {
      socket.end("HTTP/1.1 400 Bad Request\r\n\r\n");
      return;
    }
    const accept = createHash("sha1")
      .update(key + GUID)
      .digest("base64");
    socket.write(
      `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
    );
    this.#socket = socket;
    this.#buffer = Buffer.alloc(0);
    socket.on("data", (chunk: Buffer) => this.#read(chunk));
    socket.on("error", () => {});
    socket.on("close", () => {
      if (this.#socket === socket) this.#socket = undefined;
    });
    this.#sendText(
      JSON.stringify({
        type: "hello",
        num_connections: 1,
        debug_info: { host: "double" },
        connection_info: { app_id: "A0DOUBLE" },
      }),
    );
    this.#onConnected();
  }

  /** Sends one envelope and resolves with the app's ack (its optional response payload). */
  send(
    type: "events_api" | "interactive" | "slash_commands",
    payload: unknown,
    retry?: { num: number; reason: string },
  ): Promise<unknown> {
    if (!this.#socket) throw new Error("no Socket Mode connection");
    const envelopeId = randomBytes(8).toString("hex");
    const acked = new Promise<unknown>((resolve) => this.#acks.set(envelopeId, resolve));
    this.#sendText(
      JSON.stringify({
        envelope_id: envelopeId,
        type,
        payload,
        accepts_response_payload: type !== "events_api",
        retry_attempt: retry?.num ?? 0,
        retry_reason: retry?.reason ?? "",
      }),
    );
    return acked;
  }

  close(): void {
    if (!this.#socket) return;
    this.#frame(0x8, Buffer.from([0x03, 0xe8]));
    this.#socket.end();
    this.#socket = undefined;
  }

  #read(chunk: Buffer): void {
    this.#buffer = Buffer.concat([this.#buffer, chunk]);
    for (;;) {
      if (this.#buffer.length < 2) return;
      const opcode = this.#buffer[0]! & 0x0f;
      const masked = (this.#buffer[1]! & 0x80) !== 0;
      let length = this.#buffer[1]! & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (this.#buffer.length < 4) return;
        length = this.#buffer.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (this.#buffer.length < 10) return;
        length = Number(this.#buffer.readBigUInt64BE(2));
        offset = 10;
      }
      const maskLength = masked ? 4 : 0;
      if (this.#buffer.length < offset + maskLength + length) return;
      const mask = this.#buffer.subarray(offset, offset + maskLength);
      const payload = Buffer.from(this.#buffer.subarray(offset + maskLength, offset + maskLength + length));
      if (masked) for (let i = 0; i < payload.length; i++) payload[i]! ^= mask[i % 4]!;
      this.#buffer = this.#buffer.subarray(offset + maskLength + length);
      this.#onFrame(opcode, payload);
    }
  }

  #onFrame(opcode: number, payload: Buffer): void {
    if (opcode === 0x9) this.#frame(0xa, payload);
    else if (opcode === 0x8) this.close();
    else if (opcode === 0x1) {
      const message = JSON.parse(payload.toString("utf8")) as { envelope_id?: string; payload?: unknown };
      const resolve = message.envelope_id ? this.#acks.get(message.envelope_id) : undefined;
      if (message.envelope_id && resolve) {
        this.#acks.delete(message.envelope_id);
        this.acked.push(message.envelope_id);
        resolve(message.payload);
      }
    }
  }

  #sendText(text: string): void {
    this.#frame(0x1, Buffer.from(text, "utf8"));
  }

  #frame(opcode: number, payload: Buffer): void {
    if (!this.#socket) return;
    const length = payload.length;
    let header: Buffer;
    if (length < 126) header = Buffer.from([0x80 | opcode, length]);
    else if (length < 65536) {
      header = Buffer.alloc(4);
      header[0] = 0x80 | opcode;
      header[1] = 126;
      header.writeUInt16BE(length, 2);
    } else {
      header = Buffer.alloc(10);
      header[0] = 0x80 | opcode;
      header[1] = 127;
      header.writeBigUInt64BE(BigInt(length), 2);
    }
    this.#socket.write(Buffer.concat([header, payload]));
  }
}
