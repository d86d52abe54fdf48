import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  describeGrant,
  grantKey,
  isGrantableDevicePath,
  JAIL_RESOURCES,
  type JailGrant,
  jailGrantsSchema,
  runsUnjailed,
  unionGrants,
} from "./jail-grant.ts";

const EVERY: JailGrant[] = [
  { resource: "network" },
  { resource: "netlink" },
  { resource: "device", path: "/dev/sda" },
  { resource: "block_devices" },
  { resource: "zfs" },
  { resource: "kernel_log" },
  { resource: "process_info" },
  { resource: "socket", service: "docker" },
  { resource: "unjailed", needs: "SG_IO on the disk", spec: "smartctl" },
];

describe("jail grants", () => {
  it("covers every resource once in the examples, and each round-trips through the schema", () => {
    assert.deepEqual(new Set(EVERY.map((g) => g.resource)), new Set(JAIL_RESOURCES));
    assert.deepEqual(jailGrantsSchema.parse(JSON.parse(JSON.stringify(EVERY))), EVERY);
    for (const grant of EVERY) assert.ok(describeGrant(grant).length > 0);
  });

  it("refuses what is not a grant", () => {
    for (const bad of [
      [{ resource: "everything" }],
      [{ resource: "device", path: "/dev/pts/0" }],
      [{ resource: "device", path: "/dev/../etc/shadow" }],
      [{ resource: "socket", service: "sshd" }],
      [{ resource: "network", extra: true }],
      [{ resource: "unjailed", needs: "", spec: "x" }],
    ]) {
      assert.equal(jailGrantsSchema.safeParse(bad).success, false, JSON.stringify(bad));
    }
  });

  it("never grants a terminal, input, watchdog or memory device", () => {
    for (const path of [
      "/dev/tty1",
      "/dev/pts/3",
      "/dev/input/event0",
      "/dev/hidraw0",
      "/dev/vcs1",
      "/dev/watchdog0",
      "/dev/mem",
      "/dev/kmsg",
      "/dev/console",
    ]) {
      assert.equal(isGrantableDevicePath(path), false, path);
    }
    for (const path of [
      "/dev/sda",
      "/dev/nvme0n1",
      "/dev/nvme0",
      "/dev/disk/by-id/ata-X_1",
      "/dev/mapper/pve-root",
      "/dev/loop3p1",
    ]) {
      assert.equal(isGrantableDevicePath(path), true, path);
    }
  });

  it("unions to each grant once in a stable order", () => {
    const a = unionGrants(
      [{ resource: "zfs" }, { resource: "device", path: "/dev/sdb" }],
      [{ resource: "zfs" }],
    );
    const b = unionGrants(
      [{ resource: "device", path: "/dev/sdb" }],
      [{ resource: "zfs" }, { resource: "zfs" }],
    );
    assert.deepEqual(a, b);
    assert.equal(a.length, 2);
    assert.notEqual(
      grantKey({ resource: "device", path: "/dev/sda" }),
      grantKey({ resource: "device", path: "/dev/sdb" }),
    );
    assert.equal(runsUnjailed(a), false);
    assert.equal(runsUnjailed([...a, EVERY[8] as JailGrant]), true);
  });
});
