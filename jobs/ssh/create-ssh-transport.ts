import { type HostKeyStore, InMemoryHostKeyStore } from "./host-key-store.ts";
import { KnownHostsFileStore } from "./known-hosts-store.ts";
import { SshPool, type SshPoolOptions } from "./ssh-pool.ts";
import { TransportRouter } from "./transport-router.ts";

export interface SshTransportConfig {
  /** Private key file; unset means the ssh-agent at $SSH_AUTH_SOCK. (config `ssh.privateKeyPath`) */
  privateKeyPath?: string;
  /** Verify host keys strictly against this known_hosts file; unset means trust on first use. */
  knownHostsFile?: string;
  connectTimeoutMs?: number;
  /** Where first-use host keys are remembered (the database adapter); default in memory. */
  hostKeyStore?: HostKeyStore;
  /** Any other pool setting (limits, idle timeout, keepalive). */
  pool?: Omit<SshPoolOptions, "auth" | "hostKeys" | "trustOnFirstUse" | "readyTimeoutMs">;
}

/** The composition root's one call: a pool and the router on top of it, from the `ssh` config. */
export function createSshTransport(config: SshTransportConfig = {}): {
  pool: SshPool;
  router: TransportRouter;
} {
  const remembered = config.hostKeyStore ?? new InMemoryHostKeyStore();
  const strict = config.knownHostsFile !== undefined;
  const pool = new SshPool({
    ...config.pool,
    auth: config.privateKeyPath === undefined ? { agent: true } : { privateKeyPath: config.privateKeyPath },
    hostKeys: strict ? new KnownHostsFileStore(config.knownHostsFile!, { overlay: remembered }) : remembered,
    trustOnFirstUse: !strict,
    ...(config.connectTimeoutMs === undefined ? {} : { readyTimeoutMs: config.connectTimeoutMs }),
  });
  return { pool, router: new TransportRouter({ pool }) };
}
