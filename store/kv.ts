import type { Executor } from "./audit.ts";

// The kv table: small values kept by key (a chat SDK's sync token and filter, markers).

/** Sets `key` to `value` (JSON-encoded, as the column holds it). */
export async function putKv(db: Executor, key: string, value: unknown, now = new Date()): Promise<void> {
  const json = JSON.stringify(value);
  await db
    .insertInto("kv")
    .values({ key, value: json, updated_at: now })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value: json, updated_at: now }))
    .execute();
}

/** The value stored at `key`, or undefined. */
export async function getKv(db: Executor, key: string): Promise<unknown> {
  const row = await db.selectFrom("kv").select("value").where("key", "=", key).executeTakeFirst();
  return row?.value;
}

/** Sets `key` only when it is absent: true when this call set it (a claim), false when it was taken. */
export async function claimKv(db: Executor, key: string, value: unknown): Promise<boolean> {
  const claimed = await db
    .insertInto("kv")
    .values({ key, value: JSON.stringify(value) })
    .onConflict((oc) => oc.column("key").doNothing())
    .returning("key")
    .executeTakeFirst();
  return claimed !== undefined;
}

export async function deleteKv(db: Executor, key: string): Promise<void> {
  await db.deleteFrom("kv").where("key", "=", key).execute();
}

/** One read that succeeds only while the database answers (the `/healthz` check). */
export async function pingDatabase(db: Executor): Promise<void> {
  await db.selectFrom("kv").select("key").limit(1).execute();
}
