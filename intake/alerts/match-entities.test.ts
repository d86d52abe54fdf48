import assert from "node:assert/strict";
import { test } from "node:test";
import { type EntityIdentity, keysOf, matchAlertGroup, matchEntities } from "./match-entities.ts";

const entities: EntityIdentity[] = [
  {
    slug: "lxc:gitea",
    name: "gitea",
    attributes: { "ssh.host": "10.20.0.14", aliases: ["git", "code.home.arpa"] },
  },
  { slug: "host:pve1", name: "pve1", attributes: { "ssh.host": "pve1.home.arpa", ip: "192.168.1.10" } },
  { slug: "vm:nas", name: "NAS", attributes: { hostname: "nas.home.arpa", aliases: "storage, backup-box" } },
  { slug: "docker:grafana", name: "grafana", attributes: { container_name: "grafana-main" } },
];

test("keysOf strips schemes, ports, brackets and the domain of a host name", () => {
  assert.deepEqual(
    keysOf("https://Web1.lan:8443/x").sort(),
    ["https://web1.lan:8443/x", "web1", "web1.lan"].sort(),
  );
  assert.deepEqual(keysOf("10.0.0.5:9100").sort(), ["10.0.0.5", "10.0.0.5:9100"].sort());
  assert.ok(keysOf("[fe80::1]:9100").includes("fe80::1"));
  assert.deepEqual(keysOf("lxc:gitea"), ["lxc:gitea"]);
});

test("labels name entities by IP, host name, alias, container name and slug; order follows the label", () => {
  assert.deepEqual(
    matchEntities({ instance: "10.20.0.14:8080", container: "grafana-main" }, entities).slugs,
    ["lxc:gitea", "docker:grafana"],
  );
  assert.deepEqual(matchEntities({ instance: "pve1:9100" }, entities).slugs, ["host:pve1"]);
  assert.deepEqual(matchEntities({ host: "192.168.1.10" }, entities).slugs, ["host:pve1"]);
  assert.deepEqual(matchEntities({ instance: "https://code.home.arpa/api" }, entities).slugs, ["lxc:gitea"]);
  assert.deepEqual(matchEntities({ monitor: "backup-box" }, entities).slugs, ["vm:nas"]);
  assert.deepEqual(matchEntities({ instance: "nas" }, entities).slugs, ["vm:nas"]);
  assert.deepEqual(matchEntities({ name: "lxc:gitea" }, entities).slugs, ["lxc:gitea"]);
});

test("what matched nothing is reported; labels that name nothing are not guessed at", () => {
  const result = matchEntities({ instance: "10.9.9.9:9100", job: "node", alertname: "gitea" }, entities);
  assert.deepEqual(result.slugs, []);
  assert.deepEqual(result.unmatched, ["instance=10.9.9.9:9100", "job=node"]);
});

test("a group of alerts (keyed by alertname only) names every alert's entity, not the first one's", () => {
  const alerts = [
    { labels: { alertname: "DiskFull", instance: "10.20.0.14:9100" } },
    { labels: { alertname: "DiskFull", instance: "pve1:9100" } },
    { labels: { alertname: "DiskFull", instance: "nas.home.arpa:9100" } },
    { labels: { alertname: "DiskFull", instance: "10.9.9.9:9100" } },
  ];
  const common = { alertname: "DiskFull" };
  const first = matchEntities({ ...alerts[0]!.labels, ...common }, entities);
  assert.deepEqual(first.slugs, ["lxc:gitea"], "what one alert's labels name");
  const group = matchAlertGroup(common, alerts, entities);
  assert.deepEqual(group.slugs, ["lxc:gitea", "host:pve1", "vm:nas"]);
  assert.deepEqual(group.perAlert, [["lxc:gitea"], ["host:pve1"], ["vm:nas"], []]);
  assert.deepEqual(group.unmatched, ["instance=10.9.9.9:9100"]);
  // one alert, or none: as before
  assert.deepEqual(matchAlertGroup(common, [alerts[1]!], entities).slugs, ["host:pve1"]);
  assert.deepEqual(matchAlertGroup({ instance: "pve1" }, [], entities).slugs, ["host:pve1"]);
});
