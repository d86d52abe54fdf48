import { createHash, randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";

const GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

export type EnvelopeType = "events_api" | "interactive" | "slash_commands";
export type DisconnectReason = "refresh_requested" | "warning" | "link_disabled" | "too_many_websockets";

export interface SocketModeOptions {
  /** How long Slack waits for an ack before it delivers the envelope again (3 s). */
  ackTimeoutMs?: number;
  /** Redeliveries after the first attempt (Slack: 3). */
  maxRetries?: number;
  /** Interval of Slack's WebSocket pings (0: none). */
  pingIntervalMs?: number;
  /** After `refresh_requested`/`warning`, Slack closes the old connection this much later. */
  closeGraceMs?: number;
}

interface Connection {
  id: number;
  socket: Duplex;
  buffer: Buffer;
  open: boolean;
  ping: NodeJS.Timeout | undefined;
}

interface Envelope {
  id: string;
  type: EnvelopeType;
  payload: unknown;
  attempt: number;
  retryReason: string;
  connection: number | undefined;
  timer: NodeJS.Timeout | undefined;
  resolve: (payload: unknown) => void;
  reject: (error: Error) => void;
}

/**
 * The Socket Mode side of the Slack double (docs.slack.dev "Using Socket Mode"): a minimal RFC
 * 6455 endpoint (text, ping, pong, close; client frames masked, server frames not) that says
 * `hello`, sends envelopes (`events_api`, `interactive`, `slash_commands`) and waits for the
 * app to acknowledge each by envelope_id. Like Slack it
 * - delivers to the newest open connection (an app may hold several; Slack allows 10);
 * - delivers an envelope that was not acknowledged within ackTimeoutMs, or whose connection
 *   closed first, again — same envelope_id and payload, retry_attempt + 1, retry_reason
 *   "timeout" — up to maxRetries times, on whatever connection is open (queued until one is);
 * - pings every pingIntervalMs and answers the client's pings;
 * - sends `disconnect` messages (refresh_requested, warning: the old connection is closed
 *   closeGraceMs later; link_disabled: closed at once) and counts the app's reconnects.
 */
export class SocketModeServer {
  readonly #options: Required<SocketModeOptions>;
  readonly #connections: Connection[] = [];
  readonly #unacked = new Map<string, Envelope>();
  readonly #waitingForConnection: Envelope[] = [];
  readonly #helloWaiters: (() => void)[] = [];
  #nextConnection = 1;
  #dropAcks = 0;
  /** Envelope ids the app acknowledged, in order. */
  readonly acked: string[] = [];
  /** Every envelope sent: id, type, attempt (0 = first delivery). */
  readonly sent: { id: string; type: EnvelopeType; attempt: number }[] = [];
  /** Connections the app opened (a reconnect adds one). */
  connectionsOpened = 0;
  pongsReceived = 0;
  /** Acks dropped by loseAcks(). */
  acksLost = 0;

  constructor(options: SocketModeOptions = {}) {
    this.#options = {
      ackTimeoutMs: options.ackTimeoutMs ?? 3_000,
      maxRetries: options.maxRetries ?? 3,
      pingIntervalMs: options.pingIntervalMs ?? 10_000,
      closeGraceMs: options.closeGraceMs ?? 1_000,
    };
  }

  get openConnections(): number {
    return this.#connections.filter((c) => c.open).length;
  }

  /** Resolves once a connection is open and greeted. */
  connected(): Promise<void> {
    return this.openConnections > 0 ? Promise.resolve() : this.nextConnection();
  }

  /** Resolves when the next new connection has been greeted. */
  nextConnection(): Promise<void> {
    return new Promise((resolve) => this.#helloWaiters.push(resolve));
  }

  /** The next `count` acks the app sends are lost on the way (Slack then delivers again). */
  loseAcks(count: number): void {
    this.#dropAcks += count;
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
    const connection: Connection = {
      id: this.#nextConnection++,
      socket,
      buffer: Buffer.alloc(0),
      open: true,
      ping: undefined,
    };
    this.#connections.push(connection);
    this.connectionsOpened++;
    socket.on("data", (chunk: Buffer) => this.#read(connection, chunk));
    socket.on("error", () => {});
    socket.on("close", () => this.#closed(connection));
    this.#sendText(connection, {
      type: "hello",
      num_connections: this.openConnections,
      debug_info: { host: "applink-double", build_number: 1, approximate_connection_time: 18060 },
      connection_info: { app_id: "A0DOUBLE" },
    });
    if (this.#options.pingIntervalMs > 0) {
      connection.ping = setInterval(
        () => this.#frame(connection, 0x9, Buffer.from(`ping-${Date.now()}`)),
        this.#options.pingIntervalMs,
      );
      connection.ping.unref?.();
    }
    for (const waiter of this.#helloWaiters.splice(0)) waiter();
    for (const envelope of this.#waitingForConnection.splice(0)) this.#dispatch(envelope);
  }

  /**
   * Sends one envelope; resolves with the app's ack payload (retried as Slack retries), rejects
   * when every attempt went unacknowledged.
   */
  send(type: EnvelopeType, payload: unknown, retry?: { attempt: number; reason: string }): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const envelope: Envelope = {
        id: randomUUID(),
        type,
        payload,
        attempt: retry?.attempt ?? 0,
        retryReason: retry?.reason ?? "",
        connection: undefined,
        timer: undefined,
        resolve,
        reject,
      };
      this.#unacked.set(envelope.id, envelope);
      this.#dispatch(envelope);
    });
  }

  /** Slack's `disconnect` message on the newest connection. */
  disconnect(reason: DisconnectReason): void {
    const connection = this.#newest();
    if (!connection) throw new Error("no Socket Mode connection to disconnect");
    this.#sendText(connection, { type: "disconnect", reason, debug_info: { host: "applink-double" } });
    const grace = reason === "link_disabled" ? 0 : this.#options.closeGraceMs;
    setTimeout(() => this.#close(connection), grace).unref?.();
  }

  /** Drops every connection without a close frame (a network failure). */
  dropConnections(): void {
    for (const connection of this.#connections) if (connection.open) connection.socket.destroy();
  }

  close(): void {
    for (const envelope of this.#unacked.values()) clearTimeout(envelope.timer);
    this.#unacked.clear();
    this.#waitingForConnection.length = 0;
    for (const connection of this.#connections) this.#close(connection);
  }

  #newest(): Connection | undefined {
    return this.#connections.filter((c) => c.open).at(-1);
  }

  #dispatch(envelope: Envelope): void {
    const connection = this.#newest();
    if (!connection) {
      this.#waitingForConnection.push(envelope);
      return;
    }
    envelope.connection = connection.id;
    this.sent.push({ id: envelope.id, type: envelope.type, attempt: envelope.attempt });
    this.#sendText(connection, {
      envelope_id: envelope.id,
      type: envelope.type,
      payload: envelope.payload,
      accepts_response_payload: envelope.type === "slash_commands",
      ...(envelope.type === "events_api"
        ? { retry_attempt: envelope.attempt, retry_reason: envelope.retryReason }
        : {}),
    });
    clearTimeout(envelope.timer);
    envelope.timer = setTimeout(() => this.#retry(envelope), this.#options.ackTimeoutMs);
    envelope.timer.unref?.();
  }

  #retry(envelope: Envelope): void {
    if (!this.#unacked.has(envelope.id)) return;
    clearTimeout(envelope.timer);
    if (envelope.attempt >= this.#options.maxRetries) {
      this.#unacked.delete(envelope.id);
      envelope.reject(new Error(`envelope ${envelope.id} was never acknowledged`));
      return;
    }
    envelope.attempt++;
    envelope.retryReason = "timeout";
    this.#dispatch(envelope);
  }

  #closed(connection: Connection): void {
    if (!connection.open) return;
    connection.open = false;
    clearInterval(connection.ping);
    for (const envelope of this.#unacked.values()) {
      if (envelope.connection === connection.id) this.#retry(envelope);
    }
  }

  #close(connection: Connection): void {
    if (!connection.open) return;
    this.#frame(connection, 0x8, Buffer.from([0x03, 0xe8]));
    connection.socket.end();
    this.#closed(connection);
  }

  #read(connection: Connection, chunk: Buffer): void {
    connection.buffer = Buffer.concat([connection.buffer, chunk]);
    for (;;) {
      const buffer = connection.buffer;
      if (buffer.length < 2) return;
      const opcode = buffer[0]! & 0x0f;
      const masked = (buffer[1]! & 0x80) !== 0;
      let length = buffer[1]! & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (buffer.length < 4) return;
        length = buffer.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (buffer.length < 10) return;
        length = Number(buffer.readBigUInt64BE(2));
        offset = 10;
      }
      const maskLength = masked ? 4 : 0;
      if (buffer.length < offset + maskLength + length) return;
      const mask = buffer.subarray(offset, offset + maskLength);
      const payload = Buffer.from(buffer.subarray(offset + maskLength, offset + maskLength + length));
      if (masked) for (let i = 0; i < payload.length; i++) payload[i]! ^= mask[i % 4]!;
      connection.buffer = buffer.subarray(offset + maskLength + length);
      this.#onFrame(connection, opcode, payload);
    }
  }

  #onFrame(connection: Connection, opcode: number, payload: Buffer): void {
    if (opcode === 0x9) this.#frame(connection, 0xa, payload);
    else if (opcode === 0xa) this.pongsReceived++;
    else if (opcode === 0x8) this.#close(connection);
    else if (opcode === 0x1) {
      let message: { envelope_id?: string; payload?: unknown };
      try {
        message = JSON.parse(payload.toString("utf8")) as { envelope_id?: string; payload?: unknown };
      } catch {
        return;
      }
      const envelope = message.envelope_id ? this.#unacked.get(message.envelope_id) : undefined;
      if (!envelope) return;
      if (this.#dropAcks > 0) {
        this.#dropAcks--;
        this.acksLost++;
        return;
      }
      clearTimeout(envelope.timer);
      this.#unacked.delete(envelope.id);
      this.acked.push(envelope.id);
      envelope.resolve(message.payload);
    }
  }

  #sendText(connection: Connection, message: unknown): void {
    this.#frame(connection, 0x1, Buffer.from(JSON.stringify(message), "utf8"));
  }

  #frame(connection: Connection, opcode: number, payload: Buffer): void {
    if (!connection.open) return;
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
    connection.socket.write(Buffer.concat([header, payload]));
  }
}
