import type { CommandView, RuleContext } from "../command-view.ts";
import { afterOptions, finding, positionals } from "../command-view.ts";
import type { Finding } from "../risk.ts";
import { quoteSegment } from "../risk.ts";
import type { CommandRule } from "./rule.ts";
import { matchSubcommand } from "./rule.ts";

/** Kubernetes, Helm, LXD/Incus, libvirt and LXC tools. */

function kubectlRefine(view: CommandView, ctx: RuleContext): Finding[] {
  if (matchSubcommand(kubectlRule, view) !== "exec") return [];
  const dash = view.args.findIndex((arg) => arg.value === "--");
  const inner = dash >= 0 ? view.args.slice(dash + 1) : [];
  if (inner.length === 0)
    return [
      finding("config_mutation", `${quoteSegment(view.text)} opens a shell in a pod (config_mutation)`),
    ];
  return ctx.classifyArgv(inner, true);
}

const kubectlRule: CommandRule = {
  names: ["kubectl", "oc"],
  what: "manages Kubernetes",
  risk: "config_mutation",
  valueOptions: [
    "-n",
    "--namespace",
    "--context",
    "--kubeconfig",
    "-c",
    "--container",
    "-l",
    "--selector",
    "-o",
    "--output",
    "-f",
    "--filename",
  ],
  subcommands: {
    readOnly: [
      "get",
      "describe",
      "logs",
      "top",
      "explain",
      "version",
      "api-resources",
      "api-versions",
      "cluster-info",
      "config view",
      "config get-contexts",
      "config current-context",
      "auth can-i",
      "diff",
      "events",
      "rollout status",
      "rollout history",
      "exec",
      "wait",
    ],
    mutating: [
      "apply",
      "create",
      "edit",
      "patch",
      "label",
      "annotate",
      "scale",
      "rollout restart",
      "rollout undo",
      "rollout pause",
      "rollout resume",
      "set",
      "cordon",
      "uncordon",
      "cp",
      "port-forward",
      "expose",
      "run",
      "autoscale",
      "taint",
      "config use-context",
      "config set-context",
      "replace",
      "attach",
      "debug",
    ],
    destructive: ["delete", "drain"],
  },
  refine: kubectlRefine,
  examples: [
    ["kubectl get pods -A", "read_only"],
    ["kubectl -n web logs deploy/app", "read_only"],
    ["kubectl rollout restart deploy/app", "config_mutation"],
    ["kubectl delete ns staging", "destructive"],
    ["kubectl exec -it pod/x -- rm -rf /data", "destructive"],
    ["kubectl exec pod/x -- cat /etc/hosts", "read_only"],
  ],
};

export const CONTAINER_RULES: CommandRule[] = [
  kubectlRule,
  {
    names: ["helm"],
    what: "manages Helm releases",
    risk: "config_mutation",
    subcommands: {
      readOnly: [
        "list",
        "ls",
        "status",
        "get",
        "show",
        "history",
        "version",
        "search",
        "repo list",
        "template",
        "lint",
        "env",
      ],
      destructive: ["uninstall", "delete", "del"],
    },
    examples: [
      ["helm list -A", "read_only"],
      ["helm upgrade app chart", "config_mutation"],
      ["helm uninstall app", "destructive"],
    ],
  },
  {
    names: ["lxc", "incus"],
    what: "manages LXD/Incus instances",
    risk: "config_mutation",
    subcommands: {
      readOnly: [
        "list",
        "ls",
        "info",
        "config show",
        "config get",
        "image list",
        "storage list",
        "network list",
        "version",
        "remote list",
        "profile list",
        "profile show",
      ],
      destructive: ["delete", "rm", "image delete", "storage delete"],
    },
    refine: (view, ctx) => {
      // `lxc exec web -- cmd`: the inner command runs in the instance.
      const exec = view.args.findIndex((arg) => arg.value === "exec");
      const dash = view.args.findIndex((arg) => arg.value === "--");
      if (exec < 0 || positionals(view.args)[0]?.value !== "exec") return [];
      const inner = dash > exec ? view.args.slice(dash + 1) : afterOptions(view.args.slice(exec + 1), [], 1);
      if (inner.length === 0)
        return [finding("config_mutation", `${quoteSegment(view.text)} opens a shell in the instance`)];
      return ctx.classifyArgv(inner, true);
    },
    examples: [
      ["lxc list", "read_only"],
      ["lxc delete web --force", "destructive"],
      ["lxc exec web -- rm -rf /srv/data", "destructive"],
      ["incus exec web -- cat /etc/hostname", "config_mutation"],
    ],
  },
  {
    names: ["virsh"],
    what: "manages libvirt domains",
    risk: "config_mutation",
    subcommands: {
      readOnly: [
        "list",
        "dominfo",
        "dumpxml",
        "domstate",
        "domblklist",
        "domiflist",
        "nodeinfo",
        "capabilities",
        "version",
        "net-list",
        "pool-list",
        "vol-list",
        "snapshot-list",
        "domifaddr",
      ],
      destructive: [
        "undefine",
        "vol-delete",
        "pool-delete",
        "snapshot-delete",
        "snapshot-revert",
        "destroy",
        "reset",
      ],
    },
    examples: [
      ["virsh list --all", "read_only"],
      ["virsh undefine vm1 --remove-all-storage", "destructive"],
      ["virsh start vm1", "config_mutation"],
    ],
  },
  {
    names: ["lxc-ls", "lxc-info", "lxc-checkconfig"],
    what: "reports on LXC containers",
    risk: "read_only",
    examples: [["lxc-ls -f", "read_only"]],
  },
  {
    names: ["lxc-attach"],
    what: "opens a shell in an LXC container",
    risk: "read_only",
    whenBare: "config_mutation",
    wrapper: true,
    innerElsewhere: true,
    inner: (view) => {
      const dash = view.args.findIndex((arg) => arg.value === "--");
      return dash >= 0 ? view.args.slice(dash + 1) : [];
    },
    examples: [
      ["lxc-attach -n web -- cat /etc/hostname", "read_only"],
      ["lxc-attach -n web", "config_mutation"],
    ],
  },
  {
    names: ["lxc-destroy"],
    what: "destroys an LXC container",
    risk: "destructive",
    examples: [["lxc-destroy -n web", "destructive"]],
  },
];
