import assert from "node:assert/strict";
import { test } from "node:test";
import { sql } from "kysely";
import { createTestDatabase } from "../test-support/store.ts";
import { openStore } from "./connect.ts";

// A Postgres restart ends every connection (57P01 admin_shutdown), also one the pool has handed
// out: inside a transaction, between two queries. That used to be an unhandled 'error' event on
// the client, which ends the process. Here the server ends one such connection on purpose.
test("a pooled connection the server ends inside a transaction fails that transaction, not the process", {
  skip: process.env.DATABASE_URL ? false : "needs DATABASE_URL",
}, async () => {
  const database = await createTestDatabase();
  const lost: Error[] = [];
  const store = await openStore({
    kind: "postgres",
    url: database.url,
    poolSize: 3,
    onIdleError: (error) => lost.push(error),
  });
  try {
    const inTransaction = store.db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
      await sql`select pg_terminate_backend(${rows[0]!.pid})`.execute(store.db);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await sql`select 1`.execute(trx);
    });
    await assert.rejects(inTransaction, "the transaction on the lost connection fails");
    assert.ok(lost.length >= 1, "the loss is reported to the store's owner");
    const { rows } = await sql<{ one: number }>`select 1 as one`.execute(store.db);
    assert.equal(rows[0]!.one, 1, "the next query gets a working connection");
  } finally {
    await store.close();
    await database.dispose();
  }
});
