import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { sql } from "kysely";
import { up } from "../../migrations/0340_guest_identity.ts";
import { createTestStore, type TestStore } from "../../test-support/store.ts";
import { upsertEntities } from "../entities.ts";

const guest = (slug: string, vmid: number, cluster: string, state?: "destroyed") => ({
  slug,
  type: "lxc",
  name: slug.slice(4),
  transport: "pct-exec" as const,
  ...(state ? { state } : {}),
  attributes: { "proxmox.vmid": vmid, "proxmox.cluster": cluster },
});

describe("one runnable guest per cluster and vmid (the database holds it)", () => {
  let store: TestStore;
  before(async () => {
    store = await createTestStore();
  });
  after(() => store?.dispose());

  test("a second runnable entity on the same vmid of the same cluster is refused", async () => {
    await upsertEntities(store.db, [guest("lxc:pihole", 102, "homelab")], { by: "test" });
    await assert.rejects(
      upsertEntities(store.db, [guest("lxc:adguard", 102, "homelab")], { by: "test" }),
      /entities_one_runnable_guest_per_vmid|duplicate key/,
    );
    // the same vmid in another cluster, or beside a destroyed one, is another guest
    await upsertEntities(
      store.db,
      [
        guest("lxc:other", 102, "lab2"),
        guest("lxc:old-dns", 105, "homelab", "destroyed"),
        guest("lxc:dns", 105, "homelab"),
      ],
      { by: "test" },
    );
    // marking the old one destroyed frees the vmid
    await upsertEntities(store.db, [{ ...guest("lxc:pihole", 102, "homelab"), state: "destroyed" }], {
      by: "test",
    });
    await upsertEntities(store.db, [guest("lxc:adguard", 102, "homelab")], { by: "test" });
  });

  test("the migration keeps the entity discovery wrote last and marks the doubles destroyed", async () => {
    await sql`DROP INDEX entities_one_runnable_guest_per_vmid`.execute(store.db);
    await upsertEntities(store.db, [guest("lxc:a", 300, "pve1"), guest("lxc:b", 300, "pve1")], {
      by: "test",
    });
    await sql`UPDATE entities SET updated_at = now() + interval '1 minute' WHERE slug = 'lxc:b'`.execute(
      store.db,
    );
    await up(store.db as never);
    const rows = await store.db
      .selectFrom("entities")
      .select(["slug", "state", "attributes"])
      .where("slug", "in", ["lxc:a", "lxc:b"])
      .orderBy("slug")
      .execute();
    assert.deepEqual(
      rows.map((r) => [r.slug, r.state, r.attributes["proxmox.superseded_by"] ?? null]),
      [
        ["lxc:a", "destroyed", "lxc:b"],
        ["lxc:b", "active", null],
      ],
    );
    await assert.rejects(upsertEntities(store.db, [guest("lxc:c", 300, "pve1")], { by: "test" }));
  });
});
