import type { Readable, Writable } from "node:stream";

export interface CommandIO {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
}

/** Shape of every `app/commands/<name>.ts`: the CLI loads them by name. */
export interface CommandModule {
  description: string;
  /** Extra lines shown by `oikos help <name>`. */
  usage?: string;
  run(argv: string[], io: CommandIO): Promise<number>;
}
