import pino, { type Logger } from "pino";
import type { Config } from "./config.ts";

export type { Logger };

// Field names whose values never reach a log line, wherever they sit in the object.
const SECRET_FIELDS = [
  "password",
  "passphrase",
  "token",
  "accessToken",
  "apiKey",
  "botToken",
  "appToken",
  "signingSecret",
  "privateKey",
  "authorization",
  "secret",
];

const redactPaths = SECRET_FIELDS.flatMap((f) => [f, `*.${f}`, `*.*.${f}`, `headers.${f}`]);

/** Structured JSON logs; to stderr (stdout belongs to the terminal chat) or a file. */
export function createLogger(config: Pick<Config, "log">, name = "oikos"): Logger {
  const destination = config.log.file
    ? pino.destination({ dest: config.log.file, mkdir: true, sync: false })
    : pino.destination({ fd: 2, sync: true });
  return pino(
    {
      name,
      level: config.log.level,
      redact: { paths: redactPaths, censor: "[REDACTED]" },
    },
    destination,
  );
}

/** A logger that drops everything, for tests and one-shot commands. */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}
