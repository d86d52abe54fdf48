import assert from "node:assert/strict";
import { test } from "node:test";
import { isRoutingAttribute, routingAttributesIn } from "./routing.ts";

test("routing attributes: where a command goes; facts about the target are not routing", () => {
  for (const key of [
    "ssh.host",
    "SSH.Port",
    "ssh.user",
    "ssh.proxy_jump",
    "vmid",
    "proxmox.vmid",
    "transport",
    "parent",
    "ansible_host",
    "jail",
    "jail.mode",
  ]) {
    assert.equal(isRoutingAttribute(key), true, key);
  }
  for (const key of ["observed.ip", "version", "dashboard.port", "proxmox.version", "sshd_version", "role"]) {
    assert.equal(isRoutingAttribute(key), false, key);
  }
  assert.deepEqual(routingAttributesIn(["version", "ssh.host", "vmid"]), ["ssh.host", "vmid"]);
});
