/**
 * The one base error. `message` is what an operator reads (in a room or a terminal) and must say
 * what to do; `logMessage` carries the detail for the log; `code` is stable for programs.
 */
export class OikosError extends Error {
  readonly code: string;
  readonly logMessage: string;

  constructor(code: string, message: string, options: { logMessage?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "OikosError";
    this.code = code;
    this.logMessage = options.logMessage ?? message;
  }
}

/** A configuration value is missing or malformed; start-up stops with this. */
export class ConfigError extends OikosError {
  constructor(message: string, options: { logMessage?: string; cause?: unknown } = {}) {
    super("config_invalid", message, options);
    this.name = "ConfigError";
  }
}

export function isOikosError(error: unknown): error is OikosError {
  return error instanceof OikosError;
}
