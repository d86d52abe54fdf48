import pino, { type Logger } from "pino";

/**
 * The `Logger` every layer takes (pino's). The composition root builds the real one, redacting and
 * configured (`app/logger.ts` `createLogger`); a layer only receives it.
 */
export type { Logger };

/** A logger that drops everything, for tests and one-shot commands. */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}
