import { join } from "node:path";
import { Writable } from "node:stream";
import pino from "pino";
import type { Logger } from "../base/logger.ts";
import type { Config } from "./config.ts";
import { createLogger } from "./logger.ts";

/**
 * The log of a process whose terminal is a chat: JSON records go to a file (`log.file`, else
 * `<dataDir>/oikos.log`) and warnings and errors also print as one short readable line, so no
 * JSON interleaves with the conversation. Headless processes keep JSON on stderr (createLogger).
 */
export function terminalLogger(config: Pick<Config, "log" | "dataDir">, stderr: NodeJS.WritableStream) {
  const file = config.log.file ?? join(config.dataDir, "oikos.log");
  const streams = pino.multistream([
    {
      level: config.log.level === "silent" ? "fatal" : config.log.level,
      stream: pino.destination({ dest: file, mkdir: true, sync: true }),
    },
    { level: "warn", stream: readableLines(stderr) },
  ]);
  const logger: Logger = createLogger({ log: { ...config.log, file } }, "oikos", streams);
  return { logger, file };
}

/** pino's JSON lines as `oikos ⚠ message (error)`: what happened, in one line; the file has the rest. */
export function readableLines(out: NodeJS.WritableStream): Writable {
  return new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n")) {
        if (!line.trim()) continue;
        out.write(`${readableLine(line)}\n`);
      }
      done();
    },
  });
}

export function readableLine(json: string): string {
  try {
    const record = JSON.parse(json) as { level?: number; msg?: string; err?: { message?: string } };
    const icon = (record.level ?? 40) >= 50 ? "✖" : "⚠";
    const why = record.err?.message ? ` (${record.err.message.split("\n")[0]!.slice(0, 200)})` : "";
    return `oikos ${icon} ${record.msg ?? "log"}${why}`;
  } catch {
    return `oikos ⚠ ${json.slice(0, 200)}`;
  }
}
