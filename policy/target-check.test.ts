import assert from "node:assert/strict";
import { test } from "node:test";
import { loadClassifier } from "./classify.ts";
import type { TargetFacts } from "./target-check.ts";
import { checkTarget } from "./target-check.ts";

const classifier = await loadClassifier();

const hubris: TargetFacts = { slug: "host:hubris", type: "host", attributes: { proxmox: true, zfs: true } };
const strong: TargetFacts = { slug: "host:strong", type: "host", attributes: { proxmox: true } };
const nas: TargetFacts = { slug: "host:nas", type: "host", attributes: { proxmox: false, zfs: true } };
const zimaos: TargetFacts = {
  slug: "vm:zimaos",
  type: "vm",
  attributes: { docker: true },
  parentSlug: "host:hubris",
};
const gitea: TargetFacts = { slug: "lxc:gitea", type: "lxc", attributes: {}, parentSlug: "host:hubris" };
const apps: TargetFacts = {
  slug: "lxc:apps",
  type: "lxc",
  attributes: { docker: true },
  parentSlug: "host:hubris",
};
const local: TargetFacts = { slug: "local", type: "local", attributes: {} };
const known = [hubris, strong, nas, zimaos, gitea, apps];

function check(command: string, target: TargetFacts, candidates: readonly TargetFacts[] = known) {
  return checkTarget(classifier.classify(command, target.type), target, candidates);
}

test("qm on a VM is refused and names the Proxmox host that hosts it", () => {
  const result = check("qm list", zimaos);
  assert.equal(result.ok, false);
  if (!result.ok) {
    assert.match(result.reason, /`qm` is a Proxmox host command/);
    assert.equal(result.nextStep, "run it on host:hubris, which hosts vm:zimaos");
    assert.equal(result.suggestedTarget, "host:hubris");
  }
});

test("Proxmox tools run on Proxmox hosts only", () => {
  assert.deepEqual(check("pct list", hubris), { ok: true });
  assert.deepEqual(check("sudo pvesh get /nodes", strong), { ok: true });
  assert.equal(check("pct list", gitea).ok, false);
  assert.equal(check("pvecm status", nas).ok, false);
  assert.equal(check("vzdump 101", local).ok, false);
});

test("docker only where attributes say docker", () => {
  assert.deepEqual(check("docker compose logs --tail=50", apps), { ok: true });
  assert.deepEqual(check("docker ps", zimaos), { ok: true });
  const refused = check("docker ps", gitea);
  assert.equal(refused.ok, false);
  if (!refused.ok) {
    assert.match(refused.reason, /`docker` needs Docker/);
    assert.equal(refused.suggestedTarget, "lxc:apps", "a sibling with docker on the same host");
  }
});

test("commands inside pct exec / ssh / docker exec are checked where they run, not here", () => {
  assert.deepEqual(check("pct exec 104 -- docker compose ps", hubris), { ok: true });
  assert.deepEqual(check("ssh zimaos docker ps", gitea), { ok: true });
  assert.deepEqual(check("docker exec web zfs list", apps), { ok: true });
  assert.equal(check("cd /srv && sudo docker ps", gitea).ok, false, "wrappers are unwrapped");
  assert.equal(check("echo $(qm list)", gitea).ok, false, "substitutions run on the target");
});

test("block-device and ZFS tools are refused in containers and point at the owning host", () => {
  const lvs = check("lvs", gitea);
  assert.equal(lvs.ok, false);
  if (!lvs.ok) assert.equal(lvs.nextStep, "run it on host:hubris, which hosts lxc:gitea");
  assert.equal(check("zpool status", gitea).ok, false);
  assert.deepEqual(check("zpool status", nas), { ok: true });
  assert.deepEqual(check("smartctl -a /dev/sda", hubris), { ok: true });
});

test("without a capable known target the refusal says where to look", () => {
  const result = check("qm list", zimaos, []);
  assert.equal(result.ok, false);
  if (!result.ok) {
    assert.equal(result.suggestedTarget, null);
    assert.match(result.nextStep, /Proxmox host that owns this guest/);
  }
});

test("ordinary commands run anywhere", () => {
  for (const target of [hubris, zimaos, gitea, local]) {
    assert.deepEqual(check("systemctl status nginx && df -h", target), { ok: true });
  }
});
