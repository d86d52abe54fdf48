import assert from "node:assert/strict";
import { test } from "node:test";
import { checkEntityType, type EntityTypeSpec, typeOfSlug } from "./entity-types.ts";

const TYPES: EntityTypeSpec[] = [
  { name: "host", description: "a machine", runnable: true, proposable: true },
  { name: "service", description: "a service", runnable: false, proposable: true },
  { name: "group", description: "an inventory group", runnable: false, proposable: false },
  { name: "task", description: "one oikos task", runnable: false, proposable: false },
];

test("a known type passes for every use; a proposal only of a proposable type", () => {
  assert.deepEqual(checkEntityType(TYPES, "service", "propose"), { ok: true, spec: TYPES[1] });
  assert.equal(checkEntityType(TYPES, "group", "write").ok, true);
  const task = checkEntityType(TYPES, "task", "propose");
  assert.equal(task.ok, false);
  if (!task.ok) {
    assert.equal(task.code, "type_not_proposable");
    assert.deepEqual(task.known, ["host", "service"]);
    assert.match(task.nextStep, /Propose only what you observed/);
  }
});

test("an unknown type names the closest known ones, all accepted ones and the next step", () => {
  const check = checkEntityType(TYPES, "servce", "propose");
  assert.equal(check.ok, false);
  if (check.ok) return;
  assert.equal(check.code, "unknown_entity_type");
  assert.match(check.reason, /Did you mean service\?/);
  assert.match(check.reason, /Known types: host, service\./);
  assert.match(check.nextStep, /slug's prefix is its type/);
  const write = checkEntityType(TYPES, "zzzzzz", "write");
  assert.equal(write.ok, false);
  if (!write.ok) {
    assert.doesNotMatch(write.reason, /Did you mean/);
    assert.deepEqual(write.known, ["host", "service", "group", "task"]);
    assert.match(write.nextStep, /migration/);
  }
});

test("a slug names its type by its prefix", () => {
  assert.equal(typeOfSlug("service:nextcloud"), "service");
  assert.equal(typeOfSlug("container:nextcloud-app-1"), "container");
  assert.equal(typeOfSlug("nextcloud"), null);
  assert.equal(typeOfSlug(":x"), null);
});
