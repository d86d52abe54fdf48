import pino from "pino";
import { isOikosError } from "../base/errors.ts";
import type { Logger } from "../base/logger.ts";
import { REDACTED, redact, redactObject } from "../policy/redact.ts";

/** What the logger needs of the configuration (`Config["log"]` is one). */
export interface LogSettings {
  level: string;
  file?: string | undefined;
}

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
export function createLogger(
  config: { log: LogSettings },
  name = "oikos",
  stream?: pino.DestinationStream,
): Logger {
  const destination = stream
    ? stream
    : config.log.file
      ? pino.destination({ dest: config.log.file, mkdir: true, sync: false })
      : pino.destination({ fd: 2, sync: true });
  return pino(
    {
      name,
      level: config.log.level,
      redact: { paths: redactPaths, censor: REDACTED },
      hooks: {
        // Free-text messages and error strings may quote a command line or a URL with a token.
        logMethod(args, method) {
          method.apply(this, args.map((a) => (typeof a === "string" ? redact(a) : a)) as typeof args);
        },
      },
      formatters: {
        // Runs before pino's serializers, so errors are shaped here, then everything is redacted.
        log: (object) => redactObject(serializeErrorFields(object)),
      },
    },
    destination,
  );
}

function serializeErrorFields(object: Record<string, unknown>): Record<string, unknown> {
  if (!(object.err instanceof Error) && !(object.error instanceof Error)) return object;
  return { ...object, err: serializeError(object.err), error: serializeError(object.error) };
}

/** pino's error shape plus our `code` and the detailed `logMessage` meant for the log. */
function serializeError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const base = pino.stdSerializers.err(error);
  return isOikosError(error) ? { ...base, code: error.code, logMessage: error.logMessage } : base;
}
