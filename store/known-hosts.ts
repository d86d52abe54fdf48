import type { Executor } from "./audit.ts";

/**
 * SSH host keys learned by trust-on-first-use, kept in the database so every worker process and
 * every restart agrees on them. Implements jobs/ssh/host-key-store.ts `HostKeyStore` structurally
 * (store/ imports nothing above it). The first key remembered for a host wins: a changed key is
 * never silently replaced, the pool refuses the connection and says so.
 */
export class DbHostKeyStore {
  readonly #db: Executor;

  constructor(db: Executor) {
    this.#db = db;
  }

  async get(hostPort: string): Promise<string | null> {
    const row = await this.#db
      .selectFrom("known_hosts")
      .select("fingerprint")
      .where("host_port", "=", hostPort)
      .executeTakeFirst();
    return row?.fingerprint ?? null;
  }

  async remember(hostPort: string, fingerprint: string): Promise<void> {
    await this.#db
      .insertInto("known_hosts")
      .values({ host_port: hostPort, fingerprint })
      .onConflict((oc) => oc.column("host_port").doNothing())
      .execute();
  }

  /** An operator confirmed a legitimate key change (host reinstalled): forget the old key. */
  async forget(hostPort: string): Promise<boolean> {
    const result = await this.#db
      .deleteFrom("known_hosts")
      .where("host_port", "=", hostPort)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
