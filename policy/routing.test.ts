import assert from "node:assert/strict";
import { test } from "node:test";
import { REFUSALS } from "./refusals.ts";
import {
  isRoutingAttribute,
  ROUTING_CHANGE_KEYS,
  routingAttributesIn,
  routingChangeKeySchema,
  routingKeyProblems,
} from "./routing.ts";

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

test("change_routing's keys: a closed set of routing keys, none of them a credential", () => {
  for (const key of ROUTING_CHANGE_KEYS) {
    assert.equal(isRoutingAttribute(key), true, `${key} routes`);
    assert.deepEqual(routingKeyProblems([key]), { credentials: [], notRouting: [] }, key);
    assert.equal(routingChangeKeySchema.safeParse(key).success, true);
  }
  // the jail's standing exception is offered by oikos and set by the operator, never asked for by the model
  assert.deepEqual(routingKeyProblems(["jail.unjailed_read_only"]).notRouting, ["jail.unjailed_read_only"]);
});

test("credentials are refused as credentials, whatever their prefix or spelling", () => {
  const credentials = [
    "ssh.password",
    "ssh.pass",
    "SSH.Passwd",
    "ssh.passphrase",
    "ssh.private_key",
    "ssh.key",
    "ssh.keys",
    "ssh.identity_file",
    "ssh.cert",
    "proxmox.token",
    "proxmox.api_token",
    "proxmox.apikey",
    "ansible_password",
    "ansible_ssh_pass",
    "ansible_become_password",
    "ansible_ssh_private_key_file",
    "client_secret",
    "credentials",
  ];
  for (const key of credentials) {
    assert.equal(routingChangeKeySchema.safeParse(key).success, false, key);
    assert.deepEqual(routingKeyProblems([key]), { credentials: [key], notRouting: [] }, key);
  }
  assert.deepEqual(routingKeyProblems(["ssh.host", "ssh.password", "note"]), {
    credentials: ["ssh.password"],
    notRouting: ["note"],
  });
});

test("the refusals name what can be changed and where credentials go", () => {
  for (const key of ROUTING_CHANGE_KEYS) {
    assert.ok(REFUSALS.routing_credentials.nextStep.includes(key), key);
    assert.ok(REFUSALS.routing_change_invalid.nextStep.includes(key), key);
  }
  assert.match(REFUSALS.routing_credentials.nextStep, /SSH key or agent/);
  assert.match(REFUSALS.routing_credentials.nextStep, /OIKOS_SSH_KEY/);
});
