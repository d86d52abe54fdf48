import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { OikosError } from "../base/errors.ts";

/**
 * One writer per embedded database. PGlite is a database in a folder with no server in front: two
 * processes on one folder each write it as if alone (an `oikos import` beside a running `oikos
 * start` landed writes the running process never saw). The first process to open the folder holds
 * `<folder>.lock` beside it (its pid; beside, so PGlite's initdb still finds an empty folder); another one meets the lock and is refused with what to do. A lock
 * whose process is gone (a crash, a kill -9) is taken over. The same process opening the folder
 * again (tests, a command's second handle) is not refused.
 */
export class EmbeddedDatabaseBusy extends OikosError {
  readonly holder: LockHolder;

  constructor(dataDir: string, holder: LockHolder) {
    super(
      "embedded_database_busy",
      `Another oikos process (pid ${holder.pid}, \`oikos ${holder.command}\`, since ${holder.since}) uses the embedded database in ${dataDir}; ` +
        "one process writes an embedded database at a time. Stop that process first and run this again, " +
        "or run both on PostgreSQL (DATABASE_URL), which several processes can share.",
      { logMessage: `embedded database ${dataDir} is locked by pid ${holder.pid} (${holder.command})` },
    );
    this.name = "EmbeddedDatabaseBusy";
    this.holder = holder;
  }
}

export interface LockHolder {
  pid: number;
  command: string;
  since: string;
}

export interface EmbeddedLock {
  release(): void;
}

/** Takes the folder's lock or throws EmbeddedDatabaseBusy. */
export function lockEmbeddedDatabase(dataDir: string, command = commandName()): EmbeddedLock {
  const path = lockPathOf(dataDir);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, "wx");
      const holder: LockHolder = { pid: process.pid, command, since: new Date().toISOString() };
      writeSync(fd, JSON.stringify(holder));
      closeSync(fd);
      return { release: () => releaseIfOurs(path) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = readHolder(path);
    if (holder && holder.pid === process.pid) return { release: () => {} };
    if (holder && isAlive(holder.pid)) throw new EmbeddedDatabaseBusy(dataDir, holder);
    // Its process is gone (or the file is unreadable half-written junk): take it over.
    try {
      unlinkSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
  const holder = readHolder(path);
  throw new EmbeddedDatabaseBusy(dataDir, holder ?? { pid: 0, command: "?", since: "?" });
}

/** `./data/pg` → `./data/pg.lock`. */
export function lockPathOf(dataDir: string): string {
  return `${dataDir.replace(/[/\\]+$/, "")}.lock`;
}

function readHolder(path: string): LockHolder | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path, "utf8")) as Partial<LockHolder>;
    return typeof parsed.pid === "number"
      ? { pid: parsed.pid, command: String(parsed.command ?? "?"), since: String(parsed.since ?? "?") }
      : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function releaseIfOurs(path: string): void {
  if (readHolder(path)?.pid !== process.pid) return;
  try {
    unlinkSync(path);
  } catch {
    // gone already
  }
}

/** `start`, `import …`: what the process was started as, for the other process's message. */
function commandName(): string {
  const args = process.argv.slice(2).filter((a) => !a.startsWith("-"));
  return args.slice(0, 2).join(" ") || "node";
}
