import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { availableDialects, createTestStore, type TestStore } from "../test-support/store.ts";
import { DbHostKeyStore } from "./known-hosts.ts";

for (const { dialect, skip } of availableDialects()) {
  describe(`database host-key store on ${dialect}`, { skip }, () => {
    let store: TestStore;
    before(async () => {
      store = await createTestStore(dialect);
    });
    after(() => store.dispose());

    test("the first key remembered wins across store instances until an operator forgets it", async () => {
      const first = new DbHostKeyStore(store.db);
      assert.equal(await first.get("10.0.0.2:22"), null);
      await first.remember("10.0.0.2:22", "SHA256:first");
      const second = new DbHostKeyStore(store.db); // another worker process
      await second.remember("10.0.0.2:22", "SHA256:changed");
      assert.equal(await second.get("10.0.0.2:22"), "SHA256:first");
      assert.equal(await second.get("10.0.0.3:22"), null);
      assert.equal(await second.forget("10.0.0.2:22"), true);
      await second.remember("10.0.0.2:22", "SHA256:changed");
      assert.equal(await first.get("10.0.0.2:22"), "SHA256:changed");
    });
  });
}
