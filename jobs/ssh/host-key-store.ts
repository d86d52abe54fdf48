import { createHash } from "node:crypto";

/**
 * Where remembered SSH host keys live, keyed by `host:port` (see target.ts `hostPort`). Fingerprints
 * are `SHA256:<base64 without padding>`, the form `ssh-keygen -l` prints. The database adapter
 * implements the same port.
 */
export interface HostKeyStore {
  get(hostPort: string): Promise<string | null>;
  remember(hostPort: string, fingerprint: string): Promise<void>;
  /** Optional: every fingerprint accepted for the host (a known_hosts file may list several key types). */
  getAll?(hostPort: string): Promise<readonly string[]>;
}

/** Host keys remembered for the life of the process (trust-on-first-use per process). */
export class InMemoryHostKeyStore implements HostKeyStore {
  readonly #keys = new Map<string, string>();

  async get(hostPort: string): Promise<string | null> {
    return this.#keys.get(hostPort) ?? null;
  }

  async remember(hostPort: string, fingerprint: string): Promise<void> {
    this.#keys.set(hostPort, fingerprint);
  }

  /** Forget a host's key, e.g. after an operator confirmed a legitimate key change. */
  forget(hostPort: string): void {
    this.#keys.delete(hostPort);
  }
}

/** SHA256 fingerprint of a host key blob as sent on the wire (same bytes as base64 in known_hosts). */
export function fingerprintOf(keyBlob: Buffer): string {
  return `SHA256:${createHash("sha256").update(keyBlob).digest("base64").replace(/=+$/, "")}`;
}

/** Every fingerprint the store accepts for a host, whichever of its methods it implements. */
export async function acceptedFingerprints(
  store: HostKeyStore,
  hostPort: string,
): Promise<readonly string[]> {
  if (store.getAll !== undefined) return store.getAll(hostPort);
  const one = await store.get(hostPort);
  return one === null ? [] : [one];
}
