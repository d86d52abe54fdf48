import type { Arg } from "../../command-view.ts";
import { isSecretKeyName } from "../../secrets/key-names.ts";
import type { PreviewRule, ProbeResult } from "../rule.ts";
import { firstUnusable, onlyStage, single, unavailable } from "../rule.ts";
import type { Statement } from "../statement.ts";

/**
 * Proxmox guests: `pct set` / `qm set` as each changed key's value now and requested;
 * `pct destroy` / `qm destroy` as the configuration, disks and snapshots that go with the guest.
 */

/** Config keys that hold a guest's disks (and their unused leftovers), LXC and QEMU. */
const DISK_KEY = /^(rootfs|mp\d+|scsi\d+|virtio\d+|sata\d+|ide\d+|efidisk\d+|tpmstate\d+|unused\d+)$/;

/** `pct config` / `qm config` output as key → value (the first section: the current config). */
export function parseGuestConfig(stdout: string): Map<string, string> {
  const config = new Map<string, string>();
  for (const line of stdout.split("\n")) {
    if (line.startsWith("[")) break;
    const colon = line.indexOf(": ");
    if (colon > 0) config.set(line.slice(0, colon), line.slice(colon + 2));
  }
  return config;
}

/** The requested changes of `pct/qm set <vmid> --key value … --delete a,b`. */
function requested(args: readonly { value: string }[]): Map<string, string | null> | string {
  const out = new Map<string, string | null>();
  for (let i = 0; i < args.length; i++) {
    const token = (args[i] as { value: string }).value;
    if (!token.startsWith("-")) return `\`${token}\` is not a --key value pair`;
    const key = token.replace(/^--?/, "");
    const next = args[i + 1]?.value;
    if (key === "skiplock") {
      if (next !== undefined && !next.startsWith("-")) i++;
      continue;
    }
    if (next === undefined) return `\`${token}\` has no value`;
    i++;
    if (key === "delete") for (const name of next.split(/[,; ]+/).filter(Boolean)) out.set(name, null);
    else if (key === "revert") return "`--revert` of pending changes is not previewed";
    else out.set(key, next);
  }
  return out;
}

interface GuestCall {
  tool: string;
  vmid: string;
  rest: Arg[];
  identity: "login" | "sudo";
}

/** `pct|qm <verb> <vmid> …`: null when it is another command, a string when it is not previewed. */
function guestCall(statement: Statement, verb: string): GuestCall | string | null {
  const stage = onlyStage(statement);
  if (!stage || (stage.name !== "pct" && stage.name !== "qm") || stage.argv[1]?.value !== verb) return null;
  const why = firstUnusable(stage.argv.slice(1));
  if (why) return why;
  const vmid = stage.argv[2]?.value ?? "";
  if (!/^\d+$/.test(vmid)) return "the guest id is not a number";
  return { tool: stage.name, vmid, rest: stage.argv.slice(3), identity: stage.sudo ? "sudo" : "login" };
}

const guestSet: PreviewRule = {
  id: "guest.set",
  kind: "guest",
  what: "`pct set` / `qm set`: each key's value now and the value requested",
  match(statement) {
    const call = guestCall(statement, "set");
    if (call === null) return null;
    if (typeof call === "string") return unavailable(call);
    const changes = requested(call.rest);
    if (typeof changes === "string") return unavailable(changes);
    const vmid = call.vmid;
    return single({
      ruleId: this.id,
      kind: "guest",
      command: statement.text,
      identity: call.identity,
      paths: [],
      files: [],
      probes: [{ command: `${call.tool} config ${vmid}`, accepts: "zero" }],
      render([config]) {
        const now = parseGuestConfig((config as ProbeResult).stdout);
        const lines = [...changes].map(([key, value]) => {
          const current = now.get(key) ?? "(unset)";
          const next = value ?? "(deleted)";
          if (current === next) return `${key}: ${isSecretKeyName(key) ? "(secret)" : current} (unchanged)`;
          // A secret's values are never shown, whatever the redactor recognises of their format.
          if (isSecretKeyName(key))
            return `${key}: ${now.has(key) ? "set" : "(unset)"} → ${value === null ? "(deleted)" : "set to a new value (not shown)"}`;
          return `${key}: ${current} → ${next}`;
        });
        const text = [`${call.tool} guest ${vmid}:`, ...lines].join("\n");
        const changed = lines.filter((line) => !line.endsWith("(unchanged)")).length;
        return {
          status: "ok",
          text,
          effect: text,
          expectations: [],
          summary: `${call.tool} guest ${vmid}: ${changed} setting(s) change`,
        };
      },
    });
  },
  examples: [
    ["pct set 101 --memory 2048 --cores 2", ["pct config 101"]],
    ["qm set 200 -delete net1 --onboot 1", ["qm config 200"]],
    ["qm set $ID --memory 1", "unavailable"],
    ["pct set 101 --revert memory", "unavailable"],
  ],
};

const guestDestroy: PreviewRule = {
  id: "guest.destroy",
  kind: "guest",
  what: "`pct destroy` / `qm destroy`: the configuration, disks and snapshots that go with the guest",
  match(statement) {
    const call = guestCall(statement, "destroy");
    if (call === null) return null;
    if (typeof call === "string") return unavailable(call);
    const vmid = call.vmid;
    const options = destroyOptions(call.rest);
    if (typeof options === "string") return unavailable(options);
    return single({
      ruleId: this.id,
      kind: "guest",
      command: statement.text,
      identity: call.identity,
      paths: [],
      files: [],
      probes: [
        { command: `${call.tool} config ${vmid}`, accepts: "zero" },
        { command: `${call.tool} listsnapshot ${vmid}`, accepts: "zero" },
      ],
      render(results) {
        const [config, snapshots] = results as [ProbeResult, ProbeResult];
        const now = parseGuestConfig(config.stdout);
        const disks = [...now].filter(([key, value]) => DISK_KEY.test(key) && !value.includes("media=cdrom"));
        const snaps = snapshots.stdout
          .split("\n")
          .map((line) => line.replace(/^[\s`|-]*->\s*/, "").trim())
          .filter((line) => line !== "" && !line.startsWith("current"));
        const text = [
          `${call.tool} guest ${vmid}${now.has("hostname") ? ` (${now.get("hostname")})` : now.has("name") ? ` (${now.get("name")})` : ""} is destroyed with:`,
          `disks (${disks.length}):`,
          ...disks.map(([key, value]) => `  ${key}: ${value}`),
          `snapshots (${snaps.length}):`,
          ...snaps.map((line) => `  ${line}`),
          ...(options.has("purge") ? ["--purge: also removed from backup jobs, replication and HA"] : []),
          ...(options.has("force") ? ["--force: destroyed even while it runs"] : []),
          ...(options.has("skiplock") ? ["--skiplock: destroyed even while locked"] : []),
          "configuration now:",
          ...[...now].filter(([key]) => key !== "digest").map(([key, value]) => `  ${key}: ${value}`),
        ].join("\n");
        const summary = `${call.tool} guest ${vmid} destroyed with ${disks.length} disk(s) and ${snaps.length} snapshot(s)`;
        return { status: "ok", text, effect: text, expectations: [], summary };
      },
    });
  },
  examples: [
    ["pct destroy 101 --purge", ["pct config 101", "pct listsnapshot 101"]],
    ["qm destroy 200 --destroy-unreferenced-disks 1", "unavailable"],
    ["pct destroy 101 --frobnicate", "unavailable"],
    ["qm destroy 200", ["qm config 200", "qm listsnapshot 200"]],
    ["qm destroy $(cat id)", "unavailable"],
  ],
};

/**
 * `pct|qm destroy` options by what they add (issue #37); `--destroy-unreferenced-disks 1` also deletes
 * disks the configuration does not name, which the preview cannot list: not previewed.
 */
function destroyOptions(rest: readonly Arg[]): Set<string> | string {
  const given = new Set<string>();
  for (let i = 0; i < rest.length; i++) {
    const word = (rest[i] as Arg).value;
    const token = word.replace(/^--?/, "");
    const [name, inline] = token.includes("=")
      ? [token.slice(0, token.indexOf("=")), token.slice(token.indexOf("=") + 1)]
      : [token, undefined];
    const next = rest[i + 1]?.value;
    const value = inline ?? (next !== undefined && !next.startsWith("-") ? next : undefined);
    if (inline === undefined && value !== undefined) i++;
    if (!["purge", "force", "skiplock", "destroy-unreferenced-disks"].includes(name)) {
      return `destroy option \`${word}\` is not previewed`;
    }
    const on = value === undefined || value === "1" || value === "true";
    if (name === "destroy-unreferenced-disks" && on) {
      return "--destroy-unreferenced-disks also deletes disks the configuration does not name, which oikos cannot list";
    }
    if (on) given.add(name);
  }
  return given;
}

export const GUEST_RULES: readonly PreviewRule[] = [guestSet, guestDestroy];
