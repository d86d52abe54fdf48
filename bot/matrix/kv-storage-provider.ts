import type { IFilterInfo, IStorageProvider } from "matrix-bot-sdk";
import type { Db } from "../../store/db.ts";
import { getKv, putKv } from "../../store/kv.ts";

/**
 * matrix-bot-sdk's storage provider, kept in Postgres (table kv) instead of a JSON file, so the
 * sync token survives restarts and moves with the database. Our sync loop (not the SDK's, which
 * saves the token before handling the events) writes the token only after a batch is handled.
 */
export class KvStorageProvider implements IStorageProvider {
  readonly #db: Db;
  readonly #prefix: string;

  constructor(db: Db, account: string) {
    this.#db = db;
    this.#prefix = `matrix:${account}:`;
  }

  async setSyncToken(token: string | null): Promise<void> {
    await this.storeValue("sync_token", token ?? "");
  }

  async getSyncToken(): Promise<string | null> {
    return (await this.readValue("sync_token")) || null;
  }

  async setFilter(filter: IFilterInfo): Promise<void> {
    await this.storeValue("filter", JSON.stringify(filter));
  }

  async getFilter(): Promise<IFilterInfo> {
    const raw = await this.readValue("filter");
    return raw ? (JSON.parse(raw) as IFilterInfo) : (undefined as unknown as IFilterInfo);
  }

  async storeValue(key: string, value: string): Promise<void> {
    await putKv(this.#db, this.#prefix + key, value);
  }

  async readValue(key: string): Promise<string | null> {
    const value = await getKv(this.#db, this.#prefix + key);
    return typeof value === "string" ? value : null;
  }
}
