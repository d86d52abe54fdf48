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

/** The `ssh` section of the config, as every process that opens SSH connections reads it. */
export interface SshSettings {
  privateKeyPath?: string | undefined;
  knownHostsFile?: string | undefined;
  connectTimeoutMs: number;
  maxConnections: number;
}

/** `createSshTransport` from the `ssh` config section, first-use host keys kept in `hostKeyStore`. */
export function configuredSshTransport(
  ssh: SshSettings,
  hostKeyStore: HostKeyStore,
): ReturnType<typeof createSshTransport> {
  return createSshTransport({
    ...(ssh.privateKeyPath ? { privateKeyPath: ssh.privateKeyPath } : {}),
    ...(ssh.knownHostsFile ? { knownHostsFile: ssh.knownHostsFile } : {}),
    connectTimeoutMs: ssh.connectTimeoutMs,
    pool: { maxConnections: ssh.maxConnections },
    hostKeyStore,
  });
}

/**
 * A runner whose transport opens on its first command: for a process that may never need SSH (the
 * chat process asks a node only when an operator asks to roll back). `close` ends it if it opened.
 */
export function lazySshRunner(open: () => ReturnType<typeof createSshTransport>): {
  runner: Pick<TransportRouter, "exec">;
  close(): Promise<void>;
} {
  let transport: ReturnType<typeof createSshTransport> | undefined;
  return {
    runner: {
      exec(target, command, options) {
        transport ??= open();
        return transport.router.exec(target, command, options);
      },
    },
    close: async () => {
      await transport?.pool.close();
    },
  };
}
