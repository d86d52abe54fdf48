import type { CommandView, RuleContext } from "../command-view.ts";
import { afterOptions, finding, hasOption } from "../command-view.ts";
import type { Finding } from "../risk.ts";
import { quoteSegment } from "../risk.ts";
import type { CommandRule } from "./rule.ts";
import { matchSubcommand } from "./rule.ts";

/** Proxmox VE host tools. */

function argsAfter(view: CommandView, words: number): CommandView["args"] {
  let seen = 0;
  for (let i = 0; i < view.args.length; i++) {
    const value = view.args[i]?.value ?? "";
    if (value.startsWith("-")) continue;
    seen++;
    if (seen === words) return view.args.slice(i + 1);
  }
  return [];
}

/** `pct exec 101 -- cmd`, `qm guest exec 100 -- cmd`: classify what runs inside the guest. */
/** Disk and mount-point keys of a guest's configuration: `--delete` on one detaches it. */
const GUEST_DISK_KEY = /^(scsi|virtio|sata|ide|efidisk|tpmstate|unused|mp|rootfs)[0-9]*$/;

function guestExecRefine(view: CommandView, ctx: RuleContext): Finding[] {
  const key = PCT_QM_RULES.map((rule) =>
    rule.names.includes(view.name) ? matchSubcommand(rule, view) : null,
  ).find(Boolean);
  if (key === "set") {
    const at = view.args.findIndex((arg) => arg.value === "--delete" || arg.value.startsWith("--delete="));
    const value =
      at < 0
        ? ""
        : view.args[at]?.value.includes("=")
          ? (view.args[at]?.value.slice(9) ?? "")
          : (view.args[at + 1]?.value ?? "");
    const disk = value.split(/[,;\s]+/).find((name) => GUEST_DISK_KEY.test(name));
    if (disk)
      return [
        finding(
          "destructive",
          `${quoteSegment(view.text)} detaches \`${disk}\` from the guest, which can leave it unbootable (destructive)`,
        ),
      ];
  }
  if (key === "guest cmd") {
    const agentCommand = argsAfter(view, 3)[0]?.value ?? "";
    if (/^(get-\S+|network-get-interfaces|info|ping|fsfreeze-status)$/.test(agentCommand)) return [];
    return [
      finding(
        "config_mutation",
        `${quoteSegment(view.text)}: guest agent command \`${agentCommand}\` changes the guest (config_mutation)`,
      ),
    ];
  }
  if (key !== "exec" && key !== "guest exec") {
    if (view.name === "pct" && key === "restore" && hasOption(view.args, ["--force"])) {
      return [
        finding("destructive", `${quoteSegment(view.text)} overwrites an existing container (destructive)`),
      ];
    }
    return [];
  }
  const rest = afterOptions(argsAfter(view, key.split(" ").length), ["--timeout", "--pass-stdin"], 1);
  if (rest.length === 0)
    return [finding("config_mutation", `${quoteSegment(view.text)} names no command to run`)];
  return ctx.classifyArgv(rest, true);
}

/** Subcommands `qm` (VMs) and `pct` (containers) share. */
const GUEST_MUTATING = [
  "start",
  "shutdown",
  "reboot",
  "suspend",
  "resume",
  "set",
  "create",
  "clone",
  "migrate",
  "snapshot",
  "resize",
  "template",
  "unlock",
  "rescan",
  "remote-migrate",
];
/** `stop` and `reset` pull the power: unsynced data inside the guest is lost (`shutdown` is clean). */
const GUEST_DESTRUCTIVE = ["destroy", "delsnapshot", "rollback", "stop"];

const PCT_QM_RULES: CommandRule[] = [
  {
    names: ["qm"],
    what: "manages Proxmox VMs",
    risk: "config_mutation",
    whenBare: "read_only",
    subcommands: {
      readOnly: [
        "list",
        "config",
        "status",
        "pending",
        "showcmd",
        "listsnapshot",
        "cloudinit dump",
        "guest exec-status",
        "guest cmd",
        "help",
        "guest exec",
      ],
      mutating: [
        ...GUEST_MUTATING,
        "move-disk",
        "disk move",
        "disk resize",
        "disk import",
        "importdisk",
        "importovf",
        "terminal",
        "monitor",
        "sendkey",
        "disk rescan",
        "guest passwd",
        "cleanup",
        "mtunnel",
        "cloudinit update",
        "vncproxy",
        "wait",
      ],
      destructive: [...GUEST_DESTRUCTIVE, "reset", "unlink", "disk unlink"],
    },
    refine: guestExecRefine,
    examples: [
      ["qm list", "read_only"],
      ["qm config 100", "read_only"],
      ["qm start 100", "config_mutation"],
      ["qm set 100 --memory 4096", "config_mutation"],
      ["qm set 100 --delete scsi1", "destructive"],
      ["qm set 100 --delete net1", "config_mutation"],
      ["qm destroy 100 --purge", "destructive"],
      ["qm rollback 100 pre-upgrade", "destructive"],
      ["qm guest exec 100 -- cat /etc/hostname", "read_only"],
      ["qm guest cmd 100 network-get-interfaces", "read_only"],
      ["qm guest cmd 100 fsfreeze-freeze", "config_mutation"],
      ["qm guest exec 100 -- rm -rf /data", "destructive"],
    ],
  },
  {
    names: ["pct"],
    what: "manages Proxmox containers",
    risk: "config_mutation",
    whenBare: "read_only",
    subcommands: {
      readOnly: ["list", "config", "status", "pending", "listsnapshot", "df", "cpusets", "help", "exec"],
      mutating: [
        ...GUEST_MUTATING,
        "move-volume",
        "move_volume",
        "mount",
        "unmount",
        "push",
        "pull",
        "restore",
        "enter",
        "console",
        "fsck",
        "fstrim",
      ],
      destructive: GUEST_DESTRUCTIVE,
    },
    refine: guestExecRefine,
    examples: [
      ["pct list", "read_only"],
      ["pct config 101", "read_only"],
      ["pct exec 101 -- docker compose logs --tail=50", "read_only"],
      ["pct exec 101 -- bash -c 'rm -rf /srv'", "destructive"],
      ["pct reboot 101", "config_mutation"],
      ["pct destroy 101", "destructive"],
      ["pct restore 101 backup.tar.zst --force", "destructive"],
    ],
  },
];

export const PROXMOX_RULES: CommandRule[] = [
  ...PCT_QM_RULES,
  {
    names: ["pvesh"],
    what: "calls the Proxmox API",
    risk: "config_mutation",
    subcommands: {
      readOnly: ["get", "ls", "usage", "help"],
      mutating: ["set", "create", "post", "put"],
      destructive: ["delete"],
    },
    examples: [
      ["pvesh get /nodes --output-format json", "read_only"],
      ["pvesh set /nodes/pve/qemu/100/config --memory 2048", "config_mutation"],
      ["pvesh delete /nodes/pve/qemu/100", "destructive"],
    ],
  },
  {
    names: ["pvecm"],
    what: "manages the Proxmox cluster",
    risk: "config_mutation",
    subcommands: {
      readOnly: ["status", "nodes", "help"],
      mutating: ["add", "addnode", "expected", "updatecerts", "create", "qdevice setup", "mtunnel"],
      destructive: ["delnode", "qdevice remove"],
    },
    examples: [
      ["pvecm status", "read_only"],
      ["pvecm expected 1", "config_mutation"],
      ["pvecm delnode pve2", "destructive"],
    ],
  },
  {
    names: ["vzdump"],
    what: "writes a backup (and may suspend the guest)",
    risk: "config_mutation",
    examples: [["vzdump 101 --storage local --mode snapshot", "config_mutation"]],
  },
  {
    names: ["qmrestore"],
    what: "restores a VM from backup",
    risk: "config_mutation",
    flags: { destructive: ["--force"] },
    examples: [
      ["qmrestore backup.vma.zst 120", "config_mutation"],
      ["qmrestore backup.vma.zst 100 --force", "destructive"],
    ],
  },
  {
    names: ["pvesm"],
    what: "manages Proxmox storage",
    risk: "config_mutation",
    subcommands: {
      readOnly: [
        "status",
        "list",
        "path",
        "help",
        "nfsscan",
        "cifsscan",
        "iscsiscan",
        "lvmscan",
        "lvmthinscan",
        "zfsscan",
        "scan",
        "extractconfig",
      ],
      mutating: ["add", "set", "alloc", "import", "export", "prune-backups"],
      destructive: ["free", "remove"],
    },
    examples: [
      ["pvesm status", "read_only"],
      ["pvesm free local-lvm:vm-100-disk-0", "destructive"],
    ],
  },
  {
    names: ["pveam"],
    what: "manages container templates",
    risk: "config_mutation",
    subcommands: {
      readOnly: ["list", "available", "help"],
      mutating: ["update", "download"],
      destructive: ["remove"],
    },
    examples: [
      ["pveam available --section system", "read_only"],
      ["pveam update", "config_mutation"],
    ],
  },
  {
    names: ["ha-manager"],
    what: "manages Proxmox HA resources",
    risk: "config_mutation",
    subcommands: {
      readOnly: ["status", "config", "groupconfig", "help"],
      mutating: ["add", "set", "migrate", "relocate", "crm-command", "groupadd", "groupset"],
      destructive: ["remove", "groupremove"],
    },
    examples: [
      ["ha-manager status", "read_only"],
      ["ha-manager set vm:100 --state stopped", "config_mutation"],
    ],
  },
  {
    names: ["pveperf", "pvereport"],
    what: "reports on the node",
    risk: "read_only",
    examples: [["pveperf /var/lib/vz", "read_only"]],
  },
  {
    names: ["pvenode", "pveceph", "pve-firewall", "pvesr", "pveum", "pvesubscription"],
    what: "manages the Proxmox node",
    risk: "config_mutation",
    subcommands: {
      readOnly: [
        "status",
        "list",
        "config get",
        "cert info",
        "task list",
        "task log",
        "help",
        "user list",
        "group list",
        "role list",
        "acl list",
        "compile",
        "localnet",
        "get",
      ],
      destructive: ["pool destroy", "osd destroy", "mon destroy", "mds destroy", "fs destroy", "purge"],
    },
    flags: { readOnly: ["--help"] },
    examples: [
      ["pvenode task list", "read_only"],
      ["pveceph pool destroy rbd", "destructive"],
      ["pve-firewall status", "read_only"],
    ],
  },
];
