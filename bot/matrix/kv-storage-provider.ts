import type { Kysely } from "kysely";
import type { IFilterInfo, IStorageProvider } from "matrix-bot-sdk";
import type { Database } from "../../store/schema.ts";

/**
 * matrix-bot-sdk's storage provider, kept in Postgres (table kv) instead of a JSON file, so the
 * sync token survives restarts and moves with the database. Our sync loop (not the SDK's, which
 * saves the token before handling the events) writes the token only after a batch is handled.
 */
export class KvStorageProvider implements IStorageProvider {
  readonly #db: Kysely<Database>;
  readonly #prefix: string;

  constructor(db: Kysely<Database>, account: string) {
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
    const now = new Date();
    await this.#db
      .insertInto("kv")
      .values({ key: this.#prefix + key, value: JSON.stringify(value), updated_at: now })
      .onConflict((oc) => oc.column("key").doUpdateSet({ value: JSON.stringify(value), updated_at: now }))
      .execute();
  }

  async readValue(key: string): Promise<string | null> {
    const row = await this.#db
      .selectFrom("kv")
      .select("value")
      .where("key", "=", this.#prefix + key)
      .executeTakeFirst();
    return typeof row?.value === "string" ? row.value : null;
  }
}
