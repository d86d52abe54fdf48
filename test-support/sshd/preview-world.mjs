// A fake host world for plan-preview lab tests: apt-get, dpkg-query, docker (compose, inspect, rm),
// systemctl, pct, qm and zfs over one JSON file ($OIKOS_PREVIEW_WORLD). Read-only verbs only read
// it; mutating verbs change it, so a test sees exactly whether anything changed.
import { readFileSync, writeFileSync } from "node:fs";

const file = process.env.OIKOS_PREVIEW_WORLD;
const [tool, ...args] = process.argv.slice(2);
const world = JSON.parse(readFileSync(file, "utf8"));
const out = (text) => process.stdout.write(text);
const fail = (text, code = 1) => {
  process.stderr.write(`${text}\n`);
  process.exit(code);
};
const save = () => writeFileSync(file, JSON.stringify(world, null, 1));
// Words that are not options nor an option's value (`--format '{{…}}'`, `--filter x`).
const VALUED = new Set(["--format", "--filter", "-o"]);
const plain = args.filter((a, i) => !a.startsWith("-") && !VALUED.has(args[i - 1] ?? ""));

function aptGet() {
  const simulate = args.includes("-s");
  const [sub, ...names] = plain;
  const installed = world.dpkg;
  const actions = [];
  if (sub === "update") {
    if (simulate) return;
    world.aptUpdated = (world.aptUpdated ?? 0) + 1;
    return save();
  }
  if (sub === "upgrade" || sub === "dist-upgrade") {
    for (const [name, version] of Object.entries(installed)) {
      const next = world.aptCandidates[name];
      if (next && next !== version) actions.push(["Inst", name, version, next]);
    }
  } else if (sub === "install") {
    for (const name of names) {
      const next = world.aptCandidates[name];
      if (!next) fail(`E: Unable to locate package ${name}`, 100);
      if (installed[name] !== next) actions.push(["Inst", name, installed[name], next]);
    }
  } else if (sub === "remove" || sub === "purge") {
    for (const name of names) if (installed[name]) actions.push(["Remv", name, installed[name]]);
  } else fail(`fake apt-get: ${sub}`, 100);
  if (simulate) {
    out("NOTE: This is only a simulation!\n");
    for (const [verb, name, old, next] of actions) {
      out(
        verb === "Inst"
          ? `Inst ${name}${old ? ` [${old}]` : ""} (${next} fake:stable [amd64])\n`
          : `Remv ${name} [${old}]\n`,
      );
    }
    return;
  }
  for (const [verb, name, , next] of actions) {
    if (verb === "Inst") installed[name] = next;
    else delete installed[name];
  }
  save();
}

function dpkgQuery() {
  let missing = false;
  for (const name of plain.filter((a) => a !== "--")) {
    const version = world.dpkg[name];
    if (version) out(`${name}\t${version}\tii \n`);
    else {
      process.stderr.write(`dpkg-query: no packages found matching ${name}\n`);
      missing = true;
    }
  }
  process.exit(missing ? 1 : 0);
}

function docker() {
  const c = world.compose;
  if (args[0] === "compose") {
    if (args.includes("config") && args.includes("--format"))
      return out(`${JSON.stringify({ services: c.services })}\n`);
    if (args.includes("config") && args.includes("--hash")) {
      return out(
        Object.entries(c.hashes)
          .map(([s, h]) => `${s} ${h}\n`)
          .join(""),
      );
    }
    if (args.includes("ps")) return out(c.containers.map((row) => `${JSON.stringify(row)}\n`).join(""));
    if (args.includes("up") || args.includes("pull")) {
      world.composeRuns = (world.composeRuns ?? 0) + 1;
      return save();
    }
    fail(`fake docker compose: ${args.join(" ")}`, 2);
  }
  const names = plain.slice(args[0] === "container" || args[0] === "image" ? 2 : 1);
  const inspect = (table, line) => {
    let missing = false;
    for (const name of names) {
      if (table[name]) out(`${line(name, table[name])}\n`);
      else {
        process.stderr.write(`Error: No such object: ${name}\n`);
        missing = true;
      }
    }
    process.exit(missing ? 1 : 0);
  };
  if (args[0] === "container" && args[1] === "inspect") {
    return inspect(
      world.containers,
      (n, x) => `/${n} ${x.image} ${x.state}${x.mounts ? ` ${x.mounts}` : ""}`,
    );
  }
  if (args[0] === "image" && args[1] === "inspect") {
    return inspect(world.images, (n, x) => `${x.id} ${n} ${x.size}`);
  }
  if (args[0] === "ps") {
    const ancestor = (args.find((a) => a.startsWith("ancestor=")) ?? "").slice("ancestor=".length);
    for (const [name, x] of Object.entries(world.containers))
      if (x.image === ancestor) out(`${name} ${x.state}\n`);
    return;
  }
  if (args[0] === "rm" || (args[0] === "container" && args[1] === "rm")) {
    for (const name of names) delete world.containers[name];
    return save();
  }
  if (args[0] === "rmi" || (args[0] === "image" && args[1] === "rm")) {
    for (const name of names) delete world.images[name];
    return save();
  }
  fail(`fake docker: ${args.join(" ")}`, 2);
}

function systemctl() {
  const [verb, unit] = plain;
  const u = world.units[unit];
  if (verb === "is-active") {
    out(`${u ? u.active : "inactive"}\n`);
    process.exit(u?.active === "active" ? 0 : 3);
  }
  if (verb === "is-enabled") {
    if (!u) fail(`Failed to get unit file state for ${unit}: No such file or directory`, 1);
    out(`${u.enabled}\n`);
    process.exit(u.enabled === "enabled" ? 0 : 1);
  }
  if (verb === "list-dependencies") {
    out(`${unit}\n`);
    for (const dep of u?.reverse ?? []) out(`  ${dep}\n`);
    return;
  }
  if (!u) fail(`Failed to ${verb} ${unit}: Unit ${unit} not found.`, 5);
  u.active = verb === "stop" ? "inactive" : "active";
  u.restarts = (u.restarts ?? 0) + (verb === "restart" ? 1 : 0);
  save();
}

function guestTool(kind) {
  const [verb, vmid, ...rest] = args;
  const guest = world.guests[vmid];
  if (!guest || guest.type !== kind) fail(`Configuration file '${vmid}.conf' does not exist`, 2);
  if (verb === "config") {
    for (const [key, value] of Object.entries(guest.config)) out(`${key}: ${value}\n`);
    return;
  }
  if (verb === "listsnapshot") {
    for (const s of guest.snapshots) out(`\`-> ${s} 2026-11-30 12:00:00 no-description\n`);
    return out("`-> current You are here!\n");
  }
  if (verb === "set") {
    for (let i = 0; i < rest.length; i += 2) {
      const key = rest[i].replace(/^--?/, "");
      if (key === "delete") for (const k of rest[i + 1].split(",")) delete guest.config[k];
      else guest.config[key] = rest[i + 1];
    }
    return save();
  }
  if (verb === "destroy") {
    delete world.guests[vmid];
    return save();
  }
  fail(`fake ${kind}: ${verb}`, 2);
}

function zfs() {
  const [verb] = args;
  const name = plain[plain.length - 1];
  const recursive = args.includes("-r");
  const depth1 = args.includes("-d");
  const all = Object.entries(world.zfs);
  if (verb === "list") {
    const snapshotsOnly = args.includes("snapshot");
    let rows = all.filter(
      ([n]) => n === name || (recursive && (n.startsWith(`${name}/`) || n.startsWith(`${name}@`))),
    );
    if (depth1)
      rows = all.filter(
        ([n]) =>
          n === name ||
          n.startsWith(`${name}@`) ||
          (n.startsWith(`${name}/`) && !n.slice(name.length + 1).includes("/")),
      );
    if (snapshotsOnly) rows = rows.filter(([n]) => n.includes("@"));
    if (rows.length === 0) fail(`cannot open '${name}': dataset does not exist`);
    for (const [n, x] of rows)
      out(`${n}\t${x.used}${args.join(" ").includes("clones") ? `\t${x.clones ?? "-"}` : ""}\n`);
    return;
  }
  if (verb === "get") {
    for (const [n, x] of all.filter(
      ([n]) => n === name || n.startsWith(`${name}/`) || n.startsWith(`${name}@`),
    )) {
      out(`${n}\t${x.clones ?? "-"}\n`);
    }
    return;
  }
  if (verb === "destroy") {
    for (const [n] of all)
      if (n === name || (recursive && (n.startsWith(`${name}/`) || n.startsWith(`${name}@`))))
        delete world.zfs[n];
    return save();
  }
  fail(`fake zfs: ${verb}`, 2);
}

const tools = {
  "apt-get": aptGet,
  "dpkg-query": dpkgQuery,
  docker,
  systemctl,
  pct: () => guestTool("lxc"),
  qm: () => guestTool("qemu"),
  zfs,
};
if (!tools[tool]) fail(`preview-world: unknown tool ${tool}`, 127);
tools[tool]();
