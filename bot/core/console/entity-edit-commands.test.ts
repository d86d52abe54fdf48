import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { findEntity, upsertEntities } from "../../../store/entities.ts";
import { auditEntries } from "../../../test-support/bot/audit-entries.ts";
import {
  type ConsolePlatforms,
  PLATFORMS,
  startConsolePlatforms,
} from "../../../test-support/bot/console-platforms.ts";

// Admins add, change the state of, retire and delete entities from chat; operators cannot; every
// write is in the audit log with who did it. No model is configured.
describe("entity edits from chat", () => {
  let c: ConsolePlatforms;
  const db = () => c.h.store.db;

  before(async () => {
    c = await startConsolePlatforms();
    await upsertEntities(db(), [{ slug: "host:pve1", type: "host", name: "pve1" }], { by: "import" });
  });
  after(async () => c.close());

  test("`entity add` by an admin: type from the slug, fields and facts, routing said, audited", async () => {
    const admin = c.user("matrix", "admin");
    const answer = await c.ask(
      "matrix",
      "admin",
      'entity add lxc:grafana name="Grafana board" parent=host:pve1 transport=pct-exec vmid=112 port=3000',
    );
    assert.match(
      answer,
      /Added `lxc:grafana` \(lxc, active\); routing set: parent, transport, vmid\. Audited as yours\./,
    );
    const entity = await findEntity(db(), "lxc:grafana");
    assert.equal(entity?.name, "Grafana board");
    assert.equal(entity?.parent_slug, "host:pve1");
    assert.equal(entity?.transport, "pct-exec");
    assert.deepEqual(entity?.attributes, { vmid: "112", port: "3000" });
    const audit = await auditEntries(c.h, { action: "entities.upsert", actor: admin });
    assert.deepEqual(audit[0]?.details, { created: ["lxc:grafana"], updated: [] });
    assert.match(await c.ask("slack", "admin", "entity add lxc:grafana"), /exists already/);
    assert.match(
      await c.ask("shell", "admin", "entity add lxc:vault root_password=hunter2"),
      /root_password look like secrets/,
    );
    assert.equal(await findEntity(db(), "lxc:vault"), undefined);
    assert.match(
      await c.ask("shell", "admin", "entity add lxc:x parent=host:nowhere"),
      /Not added: parent host:nowhere does not exist/,
    );
    assert.match(await c.ask("matrix", "admin", "entity add Grafana"), /an entity slug looks like type:name/);
  });

  test("`entity state` and `entity retire`: audited transitions, a state is required", async () => {
    assert.match(
      await c.ask("slack", "admin", "entity state lxc:grafana stopped"),
      /`lxc:grafana`: active → stopped\. Audited as yours\./,
    );
    assert.match(await c.ask("slack", "admin", "entity state lxc:grafana"), /state is missing/);
    assert.match(
      await c.ask("slack", "admin", "entity state lxc:grafana asleep"),
      /state: use one of: active, stopped, destroyed, unknown/,
    );
    assert.match(
      await c.ask("shell", "admin", "entity retire lxc:grafana"),
      /stopped → destroyed \(retired: nothing runs on it any more\)/,
    );
    assert.match(await c.ask("shell", "admin", "entity retire lxc:grafana"), /is destroyed already/);
    const audit = await auditEntries(c.h, { action: "entity.set_state" });
    assert.deepEqual(
      audit.map((a) => [a.actor, a.subject, a.details]),
      [
        [c.user("slack", "admin"), "lxc:grafana", { from: "active", to: "stopped" }],
        [c.user("shell", "admin"), "lxc:grafana", { from: "stopped", to: "destroyed" }],
      ],
    );
  });

  test("`entity delete`: only a retired entity without children; the audit row keeps a copy", async () => {
    assert.match(await c.ask("matrix", "admin", "entity delete host:pve1"), /is active: retire it first/);
    assert.match(
      await c.ask("matrix", "admin", "entity delete lxc:grafana"),
      /Deleted `lxc:grafana` with 0 relationship\(s\)/,
    );
    assert.equal(await findEntity(db(), "lxc:grafana"), undefined);
    const [row] = await auditEntries(c.h, { action: "entity.delete" });
    assert.equal((row?.details as { entity?: { name: string } } | undefined)?.entity?.name, "Grafana board");
  });

  for (const platform of PLATFORMS)
    test(`${platform}: an operator who is not an admin cannot add or retire entities`, async () => {
      const added = await c.ask(platform, "operator", `entity add lxc:by-${platform}`);
      assert.match(added, /is for admins/);
      assert.match(await c.ask(platform, "operator", "entity retire host:pve1"), /is for admins/);
      assert.equal(await findEntity(db(), `lxc:by-${platform}`), undefined);
      assert.equal((await findEntity(db(), "host:pve1"))?.state, "active");
    });
});
