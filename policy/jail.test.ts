import assert from "node:assert/strict";
import { test } from "node:test";
import {
  JAIL_ATTRIBUTE,
  JAIL_CHECKED_ATTRIBUTE,
  JAIL_MODE_ATTRIBUTE,
  JAIL_RECHECK_MS,
  type JailFacts,
  jailAttribute,
  jailAvailabilityOf,
  jailBlocksAutoRun,
  jailModeOf,
  jailPlanFor,
} from "./jail.ts";
import { isRoutingAttribute } from "./routing.ts";

const now = new Date("2026-12-01T12:00:00Z");
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
const unavailable = { state: "unavailable", reason: "unshare is missing (util-linux)" } as const;

test("the jail's entity attributes are the operator's: the model cannot switch it off or forge a detection", () => {
  for (const key of [JAIL_ATTRIBUTE, JAIL_MODE_ATTRIBUTE, JAIL_CHECKED_ATTRIBUTE]) {
    assert.ok(isRoutingAttribute(key), `${key} is not operator-owned (policy/routing.ts)`);
  }
});

test("the entity's mode wins over the configured one when it is a mode at all", () => {
  assert.equal(jailModeOf("auto", { "jail.mode": "required" }), "required");
  assert.equal(jailModeOf("required", { "jail.mode": "off" }), "off");
  assert.equal(jailModeOf("off", {}), "off");
  assert.equal(jailModeOf("auto", { "jail.mode": "sometimes" }), "auto");
  assert.equal(jailModeOf("auto", { "jail.mode": true }), "auto");
});

test("detection is read back from the entity; a stale or undated 'unavailable' is tried again", () => {
  assert.deepEqual(jailAvailabilityOf({}, now), { state: "unknown" });
  assert.deepEqual(jailAvailabilityOf({ jail: "available" }, now), { state: "available" });
  const recorded = { jail: jailAttribute(unavailable), "jail.checked_at": ago(60_000) };
  assert.equal(recorded.jail, "unavailable: unshare is missing (util-linux)");
  assert.deepEqual(jailAvailabilityOf(recorded, now), unavailable);
  assert.deepEqual(jailAvailabilityOf({ ...recorded, "jail.checked_at": ago(JAIL_RECHECK_MS + 1) }, now), {
    state: "unknown",
  });
  assert.deepEqual(jailAvailabilityOf({ jail: recorded.jail }, now), { state: "unknown" });
  assert.deepEqual(jailAvailabilityOf({ jail: "maybe" }, now), { state: "unknown" });
});

test("only required + known unavailable blocks an auto-run", () => {
  const cases: [JailFacts | undefined, boolean][] = [
    [undefined, false],
    [{ mode: "required", availability: unavailable }, true],
    [{ mode: "required", availability: { state: "unknown" } }, false],
    [{ mode: "required", availability: { state: "available" } }, false],
    [{ mode: "auto", availability: unavailable }, false],
    [{ mode: "off", availability: unavailable }, false],
  ];
  for (const [jail, blocks] of cases) assert.equal(jailBlocksAutoRun(jail), blocks, JSON.stringify(jail));
});

test("the plan: read-only auto-runs are jailed, everything approved runs exactly as approved", () => {
  const available = { state: "available" } as const;
  const plan = (risk: "read_only" | "config_mutation" | "destructive", approved: boolean, jail?: JailFacts) =>
    jailPlanFor({ risk, approved, jail }).plan;
  assert.equal(plan("read_only", false, { mode: "auto", availability: available }), "prefer");
  assert.equal(plan("read_only", false, { mode: "auto", availability: { state: "unknown" } }), "prefer");
  assert.equal(plan("read_only", false, { mode: "required", availability: available }), "require");
  assert.equal(plan("read_only", false, { mode: "required", availability: { state: "unknown" } }), "require");
  assert.equal(plan("read_only", false, { mode: "auto", availability: unavailable }), "off");
  assert.equal(plan("read_only", false, { mode: "off", availability: available }), "off");
  assert.equal(plan("read_only", true, { mode: "required", availability: unavailable }), "off");
  assert.equal(plan("config_mutation", false, { mode: "required", availability: available }), "off");
  assert.equal(plan("destructive", true, { mode: "auto", availability: available }), "off");
  assert.equal(plan("read_only", false), "off");
  const why = jailPlanFor({
    risk: "read_only",
    approved: false,
    jail: { mode: "auto", availability: unavailable },
  });
  assert.equal(why.note, "this target cannot jail: unshare is missing (util-linux)");
});
