import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { OikosError } from "../base/errors.ts";

const run = promisify(execFile);
const CHILD = fileURLToPath(new URL("./embedded-init-child.ts", import.meta.url));

/**
 * Creates the embedded database's data dir in a child process when it does not exist yet.
 * PGlite's initdb runs a second PostgreSQL instance and copies its dump across: ~570 MB at peak,
 * and that memory stays resident in the process until a full GC that an idle server never does.
 * In a child it is returned to the OS when the child exits, so the long-running process opens an
 * existing data dir like on every later start (~270 MB peak, issue 22).
 */
export async function initEmbeddedDataDir(dataDir: string): Promise<void> {
  if (existsSync(`${dataDir}/PG_VERSION`)) return;
  try {
    await run(process.execPath, [CHILD, dataDir], { timeout: 300_000 });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new OikosError(
      "embedded_database_init_failed",
      `Could not create the embedded database in ${dataDir}: ${stderr || (error as Error).message}. ` +
        "Check that the folder is writable and has free space (OIKOS_DATA_DIR chooses it).",
    );
  }
}
