import assert from "node:assert/strict";
import { test } from "node:test";
import {
  grantsUnavailableOf,
  JAIL_ATTRIBUTE,
  JAIL_CHECKED_ATTRIBUTE,
  JAIL_GRANTS_ATTRIBUTE,
  JAIL_MODE_ATTRIBUTE,
  JAIL_RECHECK_MS,
  JAIL_TRANSIENT_ATTEMPTS,
  JAIL_UNJAILED_ATTRIBUTE,
  type JailFacts,
  jailAttribute,
  jailAvailabilityOf,
  jailBlockReason,
  jailBlocksAutoRun,
  jailFailureReason,
  jailFailureRetries,
  jailModeOf,
  jailPlanFor,
  jailStatusLine,
} from "./jail.ts";
import { isRoutingAttribute } from "./routing.ts";

const now = new Date("2026-12-01T12:00:00Z");
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
const unavailable = { state: "unavailable", reason: "unshare is missing (util-linux)" } as const;

test("the jail's entity attributes are the operator's: the model cannot switch it off or forge a detection", () => {
  for (const key of [
    JAIL_ATTRIBUTE,
    JAIL_MODE_ATTRIBUTE,
    JAIL_CHECKED_ATTRIBUTE,
    JAIL_UNJAILED_ATTRIBUTE,
    JAIL_GRANTS_ATTRIBUTE,
  ]) {
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

test("fail closed: a target known not to jail blocks auto-runs, unless the operator allowed them unjailed (auto only)", () => {
  const cases: [JailFacts | undefined, boolean][] = [
    [undefined, false],
    [{ mode: "required", availability: unavailable }, true],
    [{ mode: "auto", availability: unavailable }, true],
    [{ mode: "auto", availability: unavailable, unjailedAllowed: true }, false],
    [{ mode: "required", availability: unavailable, unjailedAllowed: true }, true],
    [{ mode: "required", availability: { state: "unknown" } }, false],
    [{ mode: "auto", availability: { state: "available" } }, false],
    [{ mode: "off", availability: unavailable }, false],
  ];
  for (const [jail, blocks] of cases) assert.equal(jailBlocksAutoRun(jail), blocks, JSON.stringify(jail));
});

test("a grant the target is known unable to make blocks the commands that need it, and says which", () => {
  const jail: JailFacts = {
    mode: "auto",
    availability: { state: "available" },
    grantsUnavailable: { kernel_log: "kernel.dmesg_restrict = 1" },
  };
  assert.equal(jailBlockReason(jail, []), null);
  assert.equal(jailBlockReason(jail, [{ resource: "netlink" }]), null);
  assert.equal(
    jailBlockReason(jail, [{ resource: "kernel_log" }]),
    "it cannot open the kernel log (read) there: kernel.dmesg_restrict = 1",
  );
  // a run its proof sends outside the jail by name does not need the jail at all
  assert.equal(jailBlockReason({ ...jail, availability: unavailable }, [unjailedDmesg]), null);
  assert.deepEqual(grantsUnavailableOf({ [JAIL_GRANTS_ATTRIBUTE]: { zfs: "no module", x: 1 } }), {
    zfs: "no module",
  });
  assert.deepEqual(grantsUnavailableOf({ [JAIL_GRANTS_ATTRIBUTE]: "zfs" }), {});
});

const unjailedDmesg = {
  resource: "unjailed",
  needs: "the kernel log (kernel.dmesg_restrict)",
  spec: "dmesg",
} as const;

test("the plan: read-only auto-runs are jailed with their grants or not at all; everything approved runs as approved", () => {
  const available = { state: "available" } as const;
  const plan = (risk: "read_only" | "config_mutation" | "destructive", approved: boolean, jail?: JailFacts) =>
    jailPlanFor({ risk, approved, jail }).plan;
  assert.equal(plan("read_only", false, { mode: "auto", availability: available }), "require");
  assert.equal(plan("read_only", false, { mode: "auto", availability: { state: "unknown" } }), "require");
  assert.equal(plan("read_only", false, { mode: "required", availability: available }), "require");
  assert.equal(
    plan("read_only", false, { mode: "auto", availability: unavailable }),
    "require",
    "never a silent fallback",
  );
  assert.equal(plan("read_only", false, { mode: "off", availability: available }), "off");
  assert.equal(plan("read_only", true, { mode: "required", availability: unavailable }), "off");
  assert.equal(plan("config_mutation", false, { mode: "required", availability: available }), "off");
  assert.equal(plan("destructive", true, { mode: "auto", availability: available }), "off");
  assert.equal(plan("read_only", false), "off");
  const allowed = jailPlanFor({
    risk: "read_only",
    approved: false,
    jail: { mode: "auto", availability: unavailable, unjailedAllowed: true },
  });
  assert.deepEqual(allowed, {
    plan: "off",
    note: "this target cannot jail (unshare is missing (util-linux)); the operator allowed read-only commands to run unjailed on it",
    grants: [],
  });
  const granted = jailPlanFor({
    risk: "read_only",
    approved: false,
    jail: { mode: "auto", availability: available },
    grants: [{ resource: "zfs" }, { resource: "device", path: "/dev/sda" }, { resource: "zfs" }],
  });
  assert.deepEqual(granted, {
    plan: "require",
    note: null,
    grants: [{ resource: "device", path: "/dev/sda" }, { resource: "zfs" }],
  });
  const byName = jailPlanFor({
    risk: "read_only",
    approved: false,
    jail: { mode: "auto", availability: available },
    grants: [unjailedDmesg],
  });
  assert.equal(byName.plan, "off");
  assert.equal(byName.note, "unjailed: needs the kernel log (kernel.dmesg_restrict) (proven by spec dmesg)");
  const changes = jailPlanFor({
    risk: "config_mutation",
    approved: true,
    jail: { mode: "auto", availability: available },
    grants: [{ resource: "zfs" }],
  });
  assert.deepEqual(changes.grants, [], "grants are for read-only runs only");
});

test("a failed jail start: transient failures are tried again a bounded number of times, the others never", () => {
  for (let attempt = 1; attempt < JAIL_TRANSIENT_ATTEMPTS; attempt++)
    assert.ok(jailFailureRetries("transient", attempt));
  assert.ok(!jailFailureRetries("transient", JAIL_TRANSIENT_ATTEMPTS));
  assert.ok(!jailFailureRetries("unavailable", 1));
  assert.ok(!jailFailureRetries("grant", 1));
  assert.match(
    jailFailureReason("host:a", { kind: "unavailable", reason: "no user namespaces" }),
    /^the read-only jail cannot start on host:a \(no user namespaces\), so the command did not run: .*jail\.unjailed_read_only=allowed/,
  );
  assert.match(
    jailFailureReason("host:a", { kind: "transient", reason: "fork failed" }),
    /try again in a moment$/,
  );
  assert.match(
    jailFailureReason("host:a", { kind: "grant", resource: "zfs", reason: "no module" }),
    /cannot open zfs for this command on host:a \(no module\).*operator is asked to approve it/,
  );
});

test("the jail of a target in words: works, not checked, cannot (with the operator's choice), allowed, off", () => {
  const checked = { "jail.checked_at": ago(60_000) };
  assert.equal(jailStatusLine("host:a", { jail: "available" }, now), "Read-only jail: works here");
  assert.equal(
    jailStatusLine("host:a", { jail: "available", "jail.engine": "unshare" }, now),
    "Read-only jail: works here (engine unshare)",
  );
  assert.match(jailStatusLine("host:a", {}, now), /^Read-only jail: not checked yet/);
  assert.equal(
    jailStatusLine("host:a", { jail: "unavailable: no userns", ...checked }, now),
    "Read-only jail: cannot run here (no userns); read-only commands ask for approval — to let them run unjailed: `!oikos routing host:a jail.unjailed_read_only=allowed`",
  );
  assert.match(
    jailStatusLine(
      "host:a",
      { jail: "unavailable: no userns", ...checked, [JAIL_UNJAILED_ATTRIBUTE]: "allowed" },
      now,
      "oikos routing",
    ),
    /the operator allowed read-only commands unjailed \(revoke: `oikos routing host:a jail.unjailed_read_only=`\)$/,
  );
  assert.match(
    jailStatusLine(
      "host:a",
      { jail: "available", [JAIL_GRANTS_ATTRIBUTE]: { kernel_log: "dmesg_restrict" } },
      now,
    ),
    /works here; cannot open kernel_log \(dmesg_restrict\) here$/,
  );
  assert.match(jailStatusLine("host:a", { "jail.mode": "off" }, now), /off for this target/);
});
