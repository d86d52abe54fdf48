import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import type { Kysely } from "kysely";
import { availableDialects, createTestStore } from "../../test-support/store.ts";
import type { Database } from "../schema.ts";
import { applyInventory } from "./apply-inventory.ts";
import { expandHostPattern } from "./inventory.ts";
import { readInventory } from "./read-inventory.ts";

const testdata = (name: string) =>
  fileURLToPath(new URL(`../../test-support/inventories/${name}`, import.meta.url));
const by = { by: "import" };

async function graphOf(db: Kysely<Database>) {
  const entities = await db
    .selectFrom("entities")
    .select(["slug", "type", "name", "state", "transport", "parent_slug", "attributes"])
    .orderBy("slug")
    .execute();
  const relationships = await db
    .selectFrom("relationships")
    .select(["source_slug", "type", "target_slug"])
    .orderBy("source_slug")
    .orderBy("target_slug")
    .execute();
  return { entities, relationships };
}

test("host patterns expand numeric and alphabetic ranges", () => {
  assert.deepEqual(expandHostPattern("web[1:3].lan"), ["web1.lan", "web2.lan", "web3.lan"]);
  assert.deepEqual(expandHostPattern("db[01:10:5]"), ["db01", "db06"]);
  assert.deepEqual(expandHostPattern("n-[a:c]"), ["n-a", "n-b", "n-c"]);
});

test("ssh_config: concrete aliases become hosts, first value wins across matching blocks", async () => {
  const inventory = await readInventory("ssh-config", testdata("ssh_config"));
  assert.deepEqual([...inventory.hosts.keys()].sort(), ["hubris", "pve", "strong"]);
  assert.deepEqual(inventory.hosts.get("strong"), {
    ansible_host: "192.168.1.11",
    ansible_port: 2222,
    ssh_identity_file: "~/.ssh/id_homelab",
    ansible_user: "admin",
  });
  assert.deepEqual(inventory.hosts.get("pve"), {
    ansible_host: "192.168.1.10",
    ansible_user: "root",
    ansible_port: 22,
  });
  assert.match(inventory.warnings.join("\n"), /Match block skipped/);
});

for (const { dialect, skip } of availableDialects()) {
  describe(`inventory import on ${dialect}`, { skip }, () => {
    test("an Ansible inventory imported twice yields the same graph; YAML and INI agree", async () => {
      const yamlStore = await createTestStore(dialect);
      const iniStore = await createTestStore(dialect);
      try {
        const yaml = await readInventory("ansible", testdata("homelab.yml"));
        const first = await applyInventory(yamlStore.db, yaml, by);
        assert.deepEqual(first.entities.failed, []);
        assert.deepEqual(first.relationships.failed, []);
        assert.equal(first.entities.created.length, 9); // 6 hosts + 3 groups
        assert.equal(first.relationships.created.length, 7); // 5 memberships + 2 child groups
        const afterFirst = await graphOf(yamlStore.db);

        const second = await applyInventory(
          yamlStore.db,
          await readInventory("ansible", testdata("homelab.yml")),
          by,
        );
        assert.deepEqual(second.entities.created, []);
        assert.deepEqual(second.entities.updated, []);
        assert.equal(second.entities.unchanged.length, 9);
        assert.deepEqual(second.relationships.created, []);
        assert.equal(second.relationships.unchanged.length, 7);
        assert.deepEqual(await graphOf(yamlStore.db), afterFirst);

        await applyInventory(iniStore.db, await readInventory("ansible", testdata("homelab.ini")), by);
        const again = await applyInventory(
          iniStore.db,
          await readInventory("ansible", testdata("homelab.ini")),
          by,
        );
        assert.equal(again.entities.unchanged.length, 9);
        assert.deepEqual(await graphOf(iniStore.db), afterFirst);

        const bySlug = new Map(afterFirst.entities.map((e) => [e.slug, e]));
        assert.deepEqual(bySlug.get("host:strong")?.attributes, {
          "ssh.host": "192.168.1.11",
          "ssh.port": 2222,
          "ssh.user": "root",
        });
        assert.equal(bySlug.get("host:nas")?.attributes["ssh.user"], "admin");
        assert.equal(bySlug.get("host:web1.lan")?.attributes["ssh.host"], "web1.lan");
        assert.deepEqual(bySlug.get("host:gitea")?.attributes, {
          "ansible.role": "git",
          "ssh.host": "192.168.1.30",
          "ssh.user": "admin",
        });
        assert.equal(bySlug.get("group:proxmox")?.attributes["ansible.cluster_name"], "homelab");
        assert.ok(
          afterFirst.relationships.some(
            (r) =>
              r.source_slug === "group:web" && r.type === "member-of" && r.target_slug === "group:production",
          ),
        );
        assert.ok(
          afterFirst.relationships.some(
            (r) => r.source_slug === "host:gitea" && r.target_slug === "group:web",
          ),
        );
      } finally {
        await yamlStore.dispose();
        await iniStore.dispose();
      }
    });

    test("ssh_config import upserts hosts with their connection attributes", async () => {
      const store = await createTestStore(dialect);
      try {
        const result = await applyInventory(
          store.db,
          await readInventory("ssh-config", testdata("ssh_config")),
          by,
        );
        assert.deepEqual(result.entities.created.sort(), ["host:hubris", "host:pve", "host:strong"]);
        const again = await applyInventory(
          store.db,
          await readInventory("ssh-config", testdata("ssh_config")),
          by,
        );
        assert.equal(again.entities.unchanged.length, 3);
      } finally {
        await store.dispose();
      }
    });
  });
}
