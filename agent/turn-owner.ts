import { randomUUID } from "node:crypto";
import { hostname } from "node:os";

/** This process among its predecessors with the same host and pid (a container restarts as pid 1). */
const INSTANCE = randomUUID().slice(0, 8);
const HOST = hostname();

/** A turn lease holder: `<host>:<pid>:<instance>:<turn>`, so a restarted process can tell its dead predecessors. */
export function newTurnOwner(): string {
  return `${HOST}:${process.pid}:${INSTANCE}:${randomUUID()}`;
}

/**
 * True when the holder is a process on this host that no longer runs (or an earlier process with
 * our pid): its lease need not be waited out. Holders on other hosts are judged by lease expiry.
 */
export function isDeadOwner(owner: string): boolean {
  const [host, pidText, instance] = owner.split(":");
  const pid = Number(pidText);
  if (host !== HOST || !Number.isInteger(pid) || pid <= 0 || !instance) return false;
  if (pid === process.pid) return instance !== INSTANCE;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}
