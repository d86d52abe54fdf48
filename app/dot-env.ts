import { existsSync } from "node:fs";
import { join } from "node:path";

/**
 * Reads `.env` from the working directory into the environment, as docker compose does, with Node's
 * own parser (`KEY=value` lines, `#` comments, quotes). A variable already set in the real
 * environment keeps its value: the file only fills gaps. Returns the file read, if any.
 */
export function loadDotEnv(dir: string = process.cwd()): string | undefined {
  const file = join(dir, ".env");
  if (!existsSync(file)) return undefined;
  process.loadEnvFile(file);
  return file;
}
