// A simulated Proxmox VE toolbox for lab hosts: `pvesh`, `pct`, `qm` and `zfs` over one cluster state
// file that every node of the simulated cluster shares. Usage (the shims proxmox-lab.ts writes):
//   OIKOS_PVE_ROOT=<dir> OIKOS_PVE_NODE=<node> node fake-pve.mjs <tool> [args…]
// State: <root>/cluster.json (see proxmox-lab.ts ClusterState). Each guest's filesystem is the
// directory <root>/guests/<vmid>: `pct exec` / `qm guest exec` run the command there with
// OIKOS_LAB_STATE pointing at it (so the eval fake tools keep the guest's world inside the guest),
// a snapshot copies it and a rollback puts the copy back. Every call is logged to <root>/calls.jsonl.
// Output follows `pvesh get … --output-format json` (bare JSON arrays/objects, as pvesh prints them).
// Built from the PVE documentation and the pve-manager / pve-container / qemu-server / pve-storage
// sources, not from what oikos expects:
//  - membership: with no `cluster`, or on a node marked `member: false`, a node is standalone and sees
//    only itself (/cluster/status lists just the node, /cluster/resources only its guests and
//    storage); `pvecm create <name>` makes the node the first member of a new cluster, `pvecm add
//    <member>` joins another node to it (refused while the joining node holds guests, as PVE does);
//  - a guest's `lock` (vzdump sets `backup` while it runs) refuses snapshot, rollback, delsnapshot,
//    start, stop with "CT is locked (backup)" / "VM is locked (backup)" (AbstractConfig::check_lock);
//  - on ZFS storage a rollback to any snapshot but the most recent is refused ("can't rollback, 'x'
//    is not most recent snapshot on '<volid>'", ZFSPoolPlugin::volume_rollback_is_possible); other
//    storages keep the newer snapshots;
//  - a guest's `userland` (a lab fixture, not PVE config) says what runs inside: `gnu` (default: the
//    lab host's programs), `busybox` (Alpine-like: busybox applets only, no bash), `windows` (the guest
//    agent starts Windows programs: cmd.exe, powershell.exe, timeout.exe — no sh, no env), `none`;
//  - `qm guest exec` / `qm guest cmd` need `agent: 1` in the config ("No QEMU guest agent configured").
import { spawnSync } from "node:child_process";
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";

const root = process.env.OIKOS_PVE_ROOT ?? ".";
const here = process.env.OIKOS_PVE_NODE ?? "pve";
const stateFile = join(root, "cluster.json");
const [tool = "", ...args] = process.argv.slice(2);
appendFileSync(join(root, "calls.jsonl"), `${JSON.stringify({ node: here, tool, args, at: Date.now() })}\n`);

const load = () => JSON.parse(readFileSync(stateFile, "utf8"));
const save = (state) => {
  const tmp = `${stateFile}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(state, null, 1));
  renameSync(tmp, stateFile);
};
const fail = (message, code = 2) => {
  process.stderr.write(`${message}\n`);
  process.exit(code);
};
const print = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);
const guestDir = (vmid) => join(root, "guests", String(vmid));
const snapDir = (vmid, name) => join(root, "snapshots", String(vmid), name);
const now = () => Math.floor(Date.now() / 1000);

/** Whether `node` belongs to the cluster (a node with `member: false` is still standalone). */
const isMember = (state, node) => Boolean(state.cluster) && state.nodes[node]?.member !== false;
/** The nodes this node sees: every member when it is one, else only itself (standalone). */
const visibleNodes = (state) =>
  isMember(state, here) ? Object.keys(state.nodes).filter((n) => isMember(state, n)) : [here];
const guestType = (kind) => (kind === "lxc" ? "CT" : "VM");

/** Named option values (`--description text`, `--start 1`) and the positional words. */
function options(words) {
  const named = {};
  const positional = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (word.startsWith("--")) {
      const next = words[i + 1];
      if (next === undefined || next.startsWith("--")) named[word.slice(2)] = "1";
      else {
        named[word.slice(2)] = next;
        i++;
      }
    } else positional.push(word);
  }
  return { named, positional };
}

/** The guest on this node, as pct/qm see it (they only know the node's own guests). */
function localGuest(state, kind, vmid) {
  const guest = state.guests[String(vmid)];
  if (!guest || guest.type !== kind || guest.node !== here) {
    const dir = kind === "lxc" ? "lxc" : "qemu-server";
    fail(`Configuration file 'nodes/${here}/${dir}/${vmid}.conf' does not exist`);
  }
  return guest;
}

function storageOf(state, name) {
  return state.storage[name];
}

function resources(state) {
  const items = [];
  const visible = visibleNodes(state);
  for (const [node, info] of Object.entries(state.nodes)) {
    if (!visible.includes(node)) continue;
    items.push({
      id: `node/${node}`,
      type: "node",
      node,
      status: info.status ?? "online",
      level: "",
      maxcpu: 4,
      maxmem: 17179869184,
      uptime: 86400,
      cpu: 0.02,
    });
    for (const [storage, s] of Object.entries(state.storage)) {
      if (s.nodes && !s.nodes.includes(node)) continue;
      items.push({
        id: `storage/${node}/${storage}`,
        type: "storage",
        node,
        storage,
        plugintype: s.type,
        content: s.content,
        shared: s.shared ? 1 : 0,
        status: "available",
        disk: 1073741824,
        maxdisk: 107374182400,
      });
    }
  }
  for (const [vmid, guest] of Object.entries(state.guests))
    if (visible.includes(guest.node)) items.push(guestResource(vmid, guest));
  return items;
}

function clusterStatus(state) {
  const visible = visibleNodes(state);
  const nodes = Object.entries(state.nodes)
    .filter(([name]) => visible.includes(name))
    .map(([name, info], index) => ({
      type: "node",
      id: `node/${name}`,
      name,
      nodeid: index + 1,
      ip: info.ip ?? "127.0.0.1",
      local: name === here ? 1 : 0,
      online: info.status === "offline" ? 0 : 1,
      level: "",
    }));
  if (!isMember(state, here)) return nodes.filter((n) => n.local === 1);
  return [
    { type: "cluster", id: "cluster", name: state.cluster, nodes: nodes.length, quorate: 1, version: 3 },
    ...nodes,
  ];
}

function guestResource(vmid, guest) {
  const item = {
    id: `${guest.type}/${vmid}`,
    type: guest.type,
    vmid: Number(vmid),
    name: guest.name,
    node: guest.node,
    status: guest.status,
    template: 0,
    maxdisk: 8589934592,
    maxmem: 1073741824,
    uptime: guest.status === "running" ? 3600 : 0,
  };
  if (guest.tags) item.tags = guest.tags;
  if (guest.lock) item.lock = guest.lock;
  return item;
}

function snapshotList(guest) {
  const list = (guest.snapshots ?? []).map((s) => ({
    name: s.name,
    description: s.description ?? "",
    snaptime: s.snaptime,
    ...(s.parent ? { parent: s.parent } : {}),
  }));
  const parent = guest.parent ?? guest.snapshots?.at(-1)?.name;
  list.push({
    name: "current",
    description: "You are here!",
    ...(parent ? { parent } : {}),
    ...(guest.type === "qemu" ? { running: guest.status === "running" ? 1 : 0 } : {}),
  });
  return list;
}

function pvesh(words) {
  const { positional, named } = options(words);
  const [verb, path] = positional;
  if (verb !== "get" || !path) fail("fake pvesh: only `pvesh get <path>`");
  if (named["output-format"] !== "json") fail("fake pvesh: pass --output-format json");
  const state = load();
  if (path === "/cluster/resources") return print(resources(state));
  if (path === "/cluster/status") return print(clusterStatus(state));
  const parts = path.split("/").filter(Boolean);
  if (parts[0] !== "nodes" || !state.nodes[parts[1]] || !visibleNodes(state).includes(parts[1]))
    fail(
      `hostname lookup '${parts[1]}' failed - failed to get address info for: ${parts[1]}: Name or service not known`,
      255,
    );
  const node = parts[1];
  if (state.nodes[node].status === "offline")
    fail(`500 Can't connect to ${node}:8006 (No route to host)`, 255);
  if (parts.length === 3 && (parts[2] === "lxc" || parts[2] === "qemu")) {
    const guests = Object.entries(state.guests).filter(([, g]) => g.node === node && g.type === parts[2]);
    return print(
      guests.map(([vmid, g]) => {
        const { id: _id, node: _node, template: _t, ...rest } = guestResource(vmid, g);
        // the lxc list reports vmid as a string (as PVE does), qemu as a number
        return parts[2] === "lxc" ? { ...rest, vmid: String(vmid) } : rest;
      }),
    );
  }
  if (parts.length === 3 && parts[2] === "storage") {
    return print(
      Object.entries(state.storage)
        .filter(([, s]) => !s.nodes || s.nodes.includes(node))
        .map(([storage, s]) => ({
          storage,
          type: s.type,
          content: s.content,
          shared: s.shared ? 1 : 0,
          active: 1,
          enabled: 1,
          total: 107374182400,
          used: 1073741824,
          avail: 106300440576,
        })),
    );
  }
  if (parts.length >= 5 && (parts[2] === "lxc" || parts[2] === "qemu")) {
    const guest = state.guests[parts[3]];
    const dir = parts[2] === "lxc" ? "lxc" : "qemu-server";
    if (!guest || guest.node !== node || guest.type !== parts[2])
      fail(`Configuration file 'nodes/${node}/${dir}/${parts[3]}.conf' does not exist`);
    if (parts[4] === "config")
      return print({
        ...guest.config,
        ...(guest.lock ? { lock: guest.lock } : {}),
        digest: "0123456789abcdef",
      });
    if (parts[4] === "snapshot") return print(snapshotList(guest));
    if (parts[4] === "status" && parts[5] === "current")
      return print({ ...guestResource(parts[3], guest), ha: { managed: 0 } });
  }
  fail(`No '${path}' handler`);
}

function guestTool(kind, words) {
  const [verb, vmid, ...rest] = words;
  const label = kind === "lxc" ? "CT" : "VM";
  if (verb === "exec" || (kind === "qemu" && verb === "guest")) return guestExec(kind, words);
  const state = load();
  const guest = localGuest(state, kind, vmid);
  const { positional, named } = options(rest);
  const storageRefusal = () => {
    for (const disk of disksOf(guest)) {
      const storage = storageOf(state, disk.storage);
      const qcow2 = disk.volume.endsWith(".qcow2");
      if (!storage || !(["zfspool", "lvmthin", "rbd", "btrfs", "zfs"].includes(storage.type) || qcow2)) {
        return `snapshot feature is not available`;
      }
    }
    return null;
  };
  // AbstractConfig::check_lock: a locked guest refuses every change of its state
  const locking = ["snapshot", "rollback", "delsnapshot", "start", "stop", "shutdown", "set", "destroy"];
  if (guest.lock && locking.includes(verb)) fail(`${guestType(kind)} is locked (${guest.lock})`, 255);
  switch (verb) {
    case "status":
      process.stdout.write(`status: ${guest.status}\n`);
      return;
    case "config":
      for (const [key, value] of Object.entries(guest.config)) process.stdout.write(`${key}: ${value}\n`);
      return;
    case "start":
    case "stop":
    case "shutdown":
      guest.status = verb === "start" ? "running" : "stopped";
      save(state);
      return;
    case "set": {
      // `pct set <vmid> --hostname <name>`, `qm set <vmid> --name <name>`, any other key: the config
      for (const [key, value] of Object.entries(named)) guest.config[key] = value;
      const rename = kind === "lxc" ? named.hostname : named.name;
      if (rename) guest.name = rename;
      save(state);
      return;
    }
    case "destroy":
      if (guest.status === "running") fail(`${guestType(kind)} ${vmid} is running - unable to destroy`, 255);
      delete state.guests[String(vmid)];
      rmSync(guestDir(vmid), { recursive: true, force: true });
      save(state);
      return;
    case "listsnapshot":
      for (const s of guest.snapshots ?? [])
        process.stdout.write(
          `\`-> ${s.name} ${new Date(s.snaptime * 1000).toISOString()} ${s.description ?? ""}\n`,
        );
      process.stdout.write("`-> current You are here!\n");
      return;
    case "snapshot": {
      const [name] = positional;
      if (!name)
        fail(
          `400 not enough arguments\n${kind === "lxc" ? "pct" : "qm"} snapshot <vmid> <snapname> [OPTIONS]`,
        );
      if ((guest.snapshots ?? []).some((s) => s.name === name))
        fail(`snapshot name '${name}' already used`, 255);
      if ((state.failSnapshot ?? []).includes(Number(vmid)))
        fail(`snapshot create failed: starting cleanup\nzfs error: out of space`, 255);
      const refusal = storageRefusal();
      if (refusal) fail(refusal, 255);
      rmSync(snapDir(vmid, name), { recursive: true, force: true });
      mkdirSync(snapDir(vmid, name), { recursive: true });
      if (existsSync(guestDir(vmid))) cpSync(guestDir(vmid), snapDir(vmid, name), { recursive: true });
      const parent = guest.parent ?? guest.snapshots?.at(-1)?.name;
      guest.parent = name;
      guest.snapshots = [
        ...(guest.snapshots ?? []),
        { name, description: named.description ?? "", snaptime: now(), ...(parent ? { parent } : {}) },
      ];
      save(state);
      process.stdout.write(
        kind === "qemu" ? `snapshotting 'drive-scsi0' (${disksOf(guest)[0]?.volume ?? ""})\n` : "",
      );
      return;
    }
    case "rollback": {
      const [name] = positional;
      const snapshots = guest.snapshots ?? [];
      const at = snapshots.findIndex((s) => s.name === name);
      if (at < 0) fail(`snapshot '${name}' does not exist`, 255);
      // ZFSPoolPlugin::volume_rollback_is_possible: only the most recent snapshot of a ZFS volume
      const newer = snapshots.slice(at + 1);
      for (const disk of disksOf(guest)) {
        const storage = storageOf(state, disk.storage);
        if (newer.length > 0 && storage && ["zfspool", "zfs"].includes(storage.type))
          fail(
            `can't rollback, '${name}' is not most recent snapshot on '${disk.storage}:${disk.volume}'`,
            255,
          );
      }
      rmSync(guestDir(vmid), { recursive: true, force: true });
      mkdirSync(guestDir(vmid), { recursive: true });
      cpSync(snapDir(vmid, name), guestDir(vmid), { recursive: true });
      guest.parent = name; // newer snapshots stay (LVM-thin, Ceph, qcow2 keep the tree)
      guest.status = named.start === "1" ? "running" : "stopped";
      guest.rollbacks = (guest.rollbacks ?? 0) + 1;
      save(state);
      return;
    }
    case "delsnapshot": {
      const [name] = positional;
      if (!(guest.snapshots ?? []).some((s) => s.name === name))
        fail(`snapshot '${name}' does not exist`, 255);
      guest.snapshots = guest.snapshots.filter((s) => s.name !== name);
      if (guest.parent === name) guest.parent = guest.snapshots.at(-1)?.name;
      rmSync(snapDir(vmid, name), { recursive: true, force: true });
      save(state);
      return;
    }
    default:
      fail(`fake ${kind === "lxc" ? "pct" : "qm"}: unknown command '${verb}' for ${label} ${vmid}`);
  }
}

/** The guest's disks from its config: `<storage>:<volume>[,options]` on rootfs/mpN or scsiN/virtioN/… */
function disksOf(guest) {
  const disks = [];
  for (const [key, value] of Object.entries(guest.config ?? {})) {
    if (!/^(rootfs|mp\d+|scsi\d+|virtio\d+|sata\d+|ide\d+|efidisk\d+|tpmstate\d+)$/.test(key)) continue;
    const spec = String(value);
    if (/media=cdrom/.test(spec) || spec.startsWith("none")) continue;
    const volumeId = spec.split(",")[0];
    const colon = volumeId.indexOf(":");
    if (colon <= 0) continue;
    disks.push({ storage: volumeId.slice(0, colon), volume: volumeId.slice(colon + 1) });
  }
  return disks;
}

/**
 * `pct exec <vmid> -- <program> <args…>`, `qm guest exec <vmid> [--timeout <s>] -- <program> <args…>`
 * and `qm guest cmd <vmid> <agent command>`: the program runs "inside" the guest (its directory), with
 * what its userland has.
 */
function guestExec(kind, words) {
  const state = load();
  const vmid = kind === "lxc" ? words[1] : words[2];
  const guest = localGuest(state, kind, vmid);
  if (guest.status !== "running") {
    fail(kind === "lxc" ? `CT ${vmid} not running` : `VM ${vmid} is not running`, 255);
  }
  if (kind === "qemu" && !agentEnabled(guest.config?.agent)) fail("No QEMU guest agent configured", 255);
  if (kind === "qemu" && words[1] === "cmd") return agentCommand(guest, words[3]);
  const dash = words.indexOf("--");
  const [program = "", ...args] = words.slice(dash + 1);
  mkdirSync(guestDir(vmid), { recursive: true });
  const userland = guest.userland ?? "gnu";
  if (userland === "windows") return windowsExec(kind, guest, vmid, program, args);
  const env = { ...process.env, OIKOS_LAB_STATE: guestDir(vmid) };
  if (userland === "busybox") env.PATH = busyboxPath(process.env.PATH ?? "");
  const found = userland !== "none" && (program.includes("/") || onPath(program, env.PATH ?? ""));
  if (!found) {
    if (kind === "lxc")
      fail(
        `lxc-attach: ${vmid}: ../src/lxc/attach.c: lxc_attach_run_command: 1841 No such file or directory - Failed to exec "${program}"`,
        255,
      );
    fail(
      `Agent error: Guest agent command failed, error was 'Failed to execute child process “${program}” (No such file or directory)'`,
      255,
    );
  }
  if (kind === "lxc") {
    const run = spawnSync(program, args, { cwd: guestDir(vmid), env, stdio: "inherit" });
    process.exit(run.status ?? 1);
  }
  const run = spawnSync(program, args, { cwd: guestDir(vmid), env, encoding: "utf8" });
  print({ exitcode: run.status ?? 1, exited: 1, "out-data": run.stdout ?? "", "err-data": run.stderr ?? "" });
}

/** `agent: [enabled=]<0|1>[,…]` (qm.conf). */
function agentEnabled(value) {
  if (value === undefined || value === null) return false;
  for (const part of String(value).split(",")) {
    const [key, setting] = part.includes("=") ? part.split("=") : ["enabled", part];
    if (key === "enabled") return setting === "1";
  }
  return false;
}

function onPath(program, path) {
  return path.split(":").some((dir) => dir && existsSync(join(dir, program)));
}

/** An Alpine-like PATH: busybox's applets (linked on first use) and the lab's toolbox, nothing with bash. */
function busyboxPath(path) {
  const dir = join(root, "userland", "busybox");
  if (!existsSync(join(dir, "sh"))) {
    mkdirSync(dir, { recursive: true });
    const busybox = ["/usr/bin/busybox", "/bin/busybox"].find((file) => existsSync(file));
    if (!busybox)
      fail("fake-pve: a busybox guest needs busybox on the lab host (apt-get install busybox)", 255);
    const applets = spawnSync(busybox, ["--list"], { encoding: "utf8" }).stdout.split("\n").filter(Boolean);
    for (const applet of applets) {
      try {
        symlinkSync(busybox, join(dir, applet));
      } catch {
        // another call linked it first
      }
    }
  }
  const rest = path.split(":").filter((entry) => entry && !existsSync(join(entry, "bash")));
  return [dir, ...rest].join(":");
}

/** `qm guest cmd <vmid> get-osinfo` (the agent's guest-get-osinfo, printed as qm prints it). */
function agentCommand(guest, command) {
  if (command !== "get-osinfo") fail(`fake qm: guest cmd ${command} is not simulated`, 255);
  const userland = guest.userland ?? "gnu";
  const info =
    userland === "windows"
      ? {
          id: "mswindows",
          "kernel-release": "22631",
          "kernel-version": "10.0",
          machine: "x86_64",
          name: "Microsoft Windows",
          "pretty-name": "Windows 11 Pro",
          variant: "client",
          "variant-id": "client",
          version: "Microsoft Windows 11",
          "version-id": "11",
        }
      : userland === "busybox"
        ? {
            id: "alpine",
            "kernel-release": "6.6.58-0-virt",
            machine: "x86_64",
            name: "Alpine Linux",
            "pretty-name": "Alpine Linux v3.20",
            "version-id": "3.20.3",
          }
        : {
            id: "debian",
            "kernel-release": "6.1.0-18-amd64",
            machine: "x86_64",
            name: "Debian GNU/Linux",
            "pretty-name": "Debian GNU/Linux 12 (bookworm)",
            version: "12 (bookworm)",
            "version-id": "12",
          };
  process.stdout.write(`${JSON.stringify(info, null, 2)}\n`);
}

/**
 * A Windows guest: the agent starts a Windows program (CreateProcess, no shell). cmd.exe /c knows a
 * few internal commands; timeout.exe is Windows' own (a pause, not a time limit); anything else —
 * sh, env, bash — does not exist.
 */
function windowsExec(kind, guest, vmid, program, args) {
  if (kind === "lxc") fail(`lxc-attach: ${vmid}: Failed to exec "${program}"`, 255);
  const exe = program
    .toLowerCase()
    .replace(/^.*[\\/]/, "")
    .replace(/\.exe$/, "");
  const result = (exitcode, out, err = "") =>
    print({ exitcode, exited: 1, ...(out ? { "out-data": out } : {}), ...(err ? { "err-data": err } : {}) });
  if (exe === "timeout")
    return result(
      1,
      "",
      `ERROR: Invalid syntax. Default option is not allowed more than '1' time(s).\r\nType "TIMEOUT /?" for usage.\r\n`,
    );
  if (exe !== "cmd")
    fail("Agent error: CreateProcessW() failed: The system cannot find the file specified. (error: 2)", 255);
  // cmd [/c|/k] [/s] [/q] [/d] [/a|/u] …: switches first, then /c and the command line
  let at = 0;
  while (at < args.length && /^\/[sqdau]$/i.test(String(args[at]))) at++;
  if (String(args[at]).toLowerCase() !== "/c")
    return result(0, "Microsoft Windows [Version 10.0.22631.4169]\r\n");
  const line = args
    .slice(at + 1)
    .join(" ")
    .trim();
  const [verb = "", ...rest] = line.split(/\s+/);
  switch (verb.toLowerCase()) {
    case "ver":
      return result(0, "\r\nMicrosoft Windows [Version 10.0.22631.4169]\r\n");
    case "hostname":
      return result(0, `${guest.name.toUpperCase()}\r\n`);
    case "whoami":
      return result(0, "nt authority\\system\r\n");
    case "echo":
      return result(0, `${rest.join(" ")}\r\n`);
    case "mkdir":
    case "md": {
      const dir = join(guestDir(vmid), rest.join(" ").replace(/^"|"$/g, ""));
      if (existsSync(dir))
        return result(1, "", `A subdirectory or file ${rest.join(" ")} already exists.\r\n`);
      mkdirSync(dir, { recursive: true });
      return result(0, "");
    }
    case "type": {
      const file = join(guestDir(vmid), rest.join(" ").replace(/^"|"$/g, ""));
      if (!existsSync(file)) return result(1, "", "The system cannot find the file specified.\r\n");
      return result(0, readFileSync(file, "utf8"));
    }
    default:
      return result(
        1,
        "",
        `'${verb}' is not recognized as an internal or external command,\r\noperable program or batch file.\r\n`,
      );
  }
}

/**
 * `zfs list|snapshot|rollback|destroy` over state.datasets: { "tank/data": { node, mountpoint?,
 * mounted?, snapshots: [{name, creation}] } }. A dataset with a mountpoint has real files there: a
 * snapshot copies the directory to <root>/zfs-snapshots/, a rollback puts the copy back (refused
 * while newer snapshots exist, unless -r destroys them, as ZFS does), a destroy removes it.
 */
function zfs(words) {
  const state = load();
  const datasets = state.datasets ?? {};
  const [verb, ...rest] = words;
  const flags = new Set();
  const values = {};
  const positional = [];
  for (let i = 0; i < rest.length; i++) {
    const word = rest[i];
    if (word === "-o" || word === "-t" || word === "-d") values[word.slice(1)] = rest[++i];
    else if (/^-[a-zA-Z]+$/.test(word)) for (const flag of word.slice(1)) flags.add(flag);
    else positional.push(word);
  }
  const local = (name) => {
    const d = datasets[name];
    if (!d || d.node !== here) fail(`cannot open '${name}': dataset does not exist`, 1);
    return d;
  };
  const copyOf = (name, snap) => join(root, "zfs-snapshots", `${name.replaceAll("/", "%")}@${snap}`);
  const splitSnapshot = (full) => {
    const [name, snap] = String(full ?? "").split("@");
    if (!snap) fail(`'${full}' is not a snapshot (dataset@name)`, 1);
    return [name, snap];
  };
  if (verb === "list") {
    const type = values.t ?? "filesystem";
    const columns = (values.o ?? "name").split(",");
    const names =
      positional.length > 0 ? positional : Object.keys(datasets).filter((n) => datasets[n].node === here);
    for (const name of names) {
      const d = local(name);
      const rows =
        type === "snapshot"
          ? d.snapshots.map((s) => ({
              name: `${name}@${s.name}`,
              creation: s.creation,
              mountpoint: "-",
              mounted: "-",
            }))
          : [
              {
                name,
                creation: 0,
                mountpoint: d.mountpoint ?? "none",
                mounted: d.mountpoint && d.mounted !== false ? "yes" : "no",
              },
            ];
      for (const row of rows)
        process.stdout.write(`${columns.map((c) => String(row[c] ?? "-")).join("\t")}\n`);
    }
    return;
  }
  if (verb === "snapshot") {
    const wanted = positional.map(splitSnapshot);
    for (const [name, snap] of wanted) {
      if (local(name).snapshots.some((s) => s.name === snap))
        fail(`cannot create snapshot '${name}@${snap}': dataset already exists`, 1);
    }
    if ((state.failZfsSnapshot ?? []).some((name) => wanted.some(([n]) => n === name)))
      fail("cannot create snapshots : out of space", 1);
    for (const [name, snap] of wanted) {
      const d = datasets[name];
      d.snapshots.push({ name: snap, creation: now() });
      if (d.mountpoint && existsSync(d.mountpoint))
        cpSync(d.mountpoint, copyOf(name, snap), { recursive: true });
    }
    save(state);
    return;
  }
  if (verb === "rollback") {
    const [name, snap] = splitSnapshot(positional[0]);
    const d = local(name);
    const at = d.snapshots.findIndex((s) => s.name === snap);
    if (at < 0) fail(`cannot open '${name}@${snap}': dataset does not exist`, 1);
    const newer = d.snapshots.slice(at + 1);
    if (newer.length > 0 && !flags.has("r")) {
      fail(
        `cannot rollback to '${name}@${snap}': more recent snapshots or bookmarks exist\nuse '-r' to force deletion of the following snapshots and bookmarks:\n${newer.map((s) => `${name}@${s.name}`).join("\n")}`,
        1,
      );
    }
    for (const s of newer) rmSync(copyOf(name, s.name), { recursive: true, force: true });
    d.snapshots = d.snapshots.slice(0, at + 1);
    if (d.mountpoint && existsSync(copyOf(name, snap))) {
      for (const entry of readdirSync(d.mountpoint))
        rmSync(join(d.mountpoint, entry), { recursive: true, force: true });
      cpSync(copyOf(name, snap), d.mountpoint, { recursive: true });
    }
    d.rollbacks = (d.rollbacks ?? 0) + 1;
    save(state);
    return;
  }
  if (verb === "destroy") {
    const [name, snap] = String(positional.at(-1) ?? "").split("@");
    if (!snap) fail("fake zfs: destroy takes a snapshot (dataset@name) only", 1);
    const d = local(name);
    if (!d.snapshots.some((s) => s.name === snap))
      fail(`could not find any snapshots to destroy; check snapshot names.`, 1);
    d.snapshots = d.snapshots.filter((s) => s.name !== snap);
    rmSync(copyOf(name, snap), { recursive: true, force: true });
    save(state);
    return;
  }
  fail(`fake zfs: unknown command '${verb}'`, 2);
}

/** `pvecm create <name>` and `pvecm add <member>` (pvecm(1)); both are run on the node they change. */
function pvecm(words) {
  const [verb, argument] = words;
  const state = load();
  if (verb === "create") {
    if (!argument) fail("400 not enough arguments\npvecm create <clustername> [OPTIONS]", 255);
    if (isMember(state, here)) fail("cluster config '/etc/pve/corosync.conf' already exists", 255);
    state.cluster = argument;
    for (const node of Object.keys(state.nodes)) state.nodes[node].member = node === here;
    save(state);
    process.stdout.write(
      "Corosync Cluster Engine Authentication key generator.\nGathering 2048 bits for key from /dev/urandom.\nWriting corosync key to /etc/corosync/authkey.\nWriting corosync config to /etc/pve/corosync.conf\nRestart corosync and cluster filesystem\n",
    );
    return;
  }
  if (verb === "add") {
    if (!argument || !isMember(state, argument))
      fail(`unable to connect to ${argument ?? "?"}: not a cluster member`, 255);
    if (isMember(state, here))
      fail(
        "detected the following error(s):\n* this host already contains a cluster configuration\nCheck if node may join a cluster failed!",
        255,
      );
    if (Object.values(state.guests).some((g) => g.node === here))
      fail(
        "detected the following error(s):\n* this host already contains virtual guests\nCheck if node may join a cluster failed!",
        255,
      );
    state.nodes[here].member = true;
    save(state);
    process.stdout.write(
      `Establishing API connection with host '${argument}'\nLogin succeeded.\nRequest addition of this node\nJoin request OK, finishing setup locally\nsuccessfully added node '${here}' to cluster.\n`,
    );
    return;
  }
  fail(`fake pvecm: '${verb}' is not simulated`, 255);
}

/** `vzdump <vmid>`: holds the guest's `backup` lock while it runs (state.vzdumpSeconds, default 1). */
function vzdump(words) {
  const vmid = words.find((word) => /^\d+$/.test(word));
  const state = load();
  const guest = state.guests[String(vmid)];
  if (!guest || guest.node !== here) fail(`unable to find VM '${vmid}'`, 255);
  if (guest.lock) fail(`${guestType(guest.type)} is locked (${guest.lock})`, 255);
  guest.lock = "backup";
  save(state);
  process.stdout.write(
    `INFO: starting new backup job: vzdump ${vmid}\nINFO: Starting Backup of VM ${vmid} (${guest.type})\n`,
  );
  spawnSync("sleep", [String(state.vzdumpSeconds ?? 1)]);
  const after = load();
  if (after.guests[String(vmid)]) delete after.guests[String(vmid)].lock;
  save(after);
  process.stdout.write(`INFO: Finished Backup of VM ${vmid}\nINFO: Backup job finished successfully\n`);
}

switch (tool) {
  case "pvecm":
    pvecm(args);
    break;
  case "vzdump":
    vzdump(args);
    break;
  case "pvesh":
    pvesh(args);
    break;
  case "pct":
    guestTool("lxc", args);
    break;
  case "qm":
    guestTool("qemu", args);
    break;
  case "zfs":
    zfs(args);
    break;
  default:
    fail(`fake-pve: unknown tool ${tool}`, 127);
}
