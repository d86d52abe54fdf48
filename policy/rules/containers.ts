import type { Arg, CommandView, RuleContext } from "../command-view.ts";
import { afterOptions, finding, hasOption } from "../command-view.ts";
import type { Finding } from "../risk.ts";
import { quoteSegment } from "../risk.ts";
import type { CommandRule } from "./rule.ts";
import { matchSubcommand } from "./rule.ts";

/** Docker, docker compose, podman, kubectl, helm, LXD/Incus, libvirt. */

const COMPOSE_READ = [
  "logs",
  "ps",
  "top",
  "config",
  "convert",
  "images",
  "port",
  "ls",
  "version",
  "events",
  "stats",
  "help",
];
const COMPOSE_WRITE = [
  "up",
  "down",
  "start",
  "stop",
  "restart",
  "pull",
  "build",
  "create",
  "pause",
  "unpause",
  "kill",
  "cp",
  "push",
  "scale",
  "watch",
  "run",
  "exec",
  "attach",
  "wait",
  "commit",
  "publish",
];
const COMPOSE_DESTROY = ["rm"];

const DOCKER_READ = [
  "ps",
  "images",
  "inspect",
  "logs",
  "version",
  "info",
  "stats",
  "top",
  "port",
  "events",
  "diff",
  "history",
  "search",
  "container ls",
  "container list",
  "container ps",
  "container inspect",
  "container logs",
  "container top",
  "container port",
  "container stats",
  "container diff",
  "image ls",
  "image list",
  "image inspect",
  "image history",
  "network ls",
  "network list",
  "network inspect",
  "volume ls",
  "volume list",
  "volume inspect",
  "system df",
  "system info",
  "system events",
  "context ls",
  "context show",
  "context inspect",
  "node ls",
  "node inspect",
  "node ps",
  "service ls",
  "service ps",
  "service logs",
  "service inspect",
  "stack ls",
  "stack ps",
  "stack services",
  "buildx ls",
  "buildx version",
  "buildx inspect",
  "manifest inspect",
  "plugin ls",
  "secret ls",
  "config ls",
  "trust inspect",
  "compose",
  "exec",
  "container exec",
  "help",
];
const DOCKER_WRITE = [
  "run",
  "start",
  "stop",
  "restart",
  "pull",
  "push",
  "build",
  "create",
  "cp",
  "kill",
  "pause",
  "unpause",
  "rename",
  "update",
  "tag",
  "login",
  "logout",
  "commit",
  "save",
  "load",
  "import",
  "export",
  "attach",
  "wait",
  "container run",
  "container start",
  "container stop",
  "container restart",
  "container create",
  "container kill",
  "container update",
  "container rename",
  "container cp",
  "image pull",
  "image push",
  "image build",
  "image tag",
  "image load",
  "image save",
  "image import",
  "network create",
  "network connect",
  "network disconnect",
  "volume create",
  "context use",
  "context create",
  "service create",
  "service update",
  "service scale",
  "service rollback",
  "stack deploy",
  "swarm init",
  "swarm join",
  "node update",
  "buildx build",
  "buildx create",
  "builder build",
  "plugin install",
  "plugin enable",
  "plugin disable",
  "secret create",
  "config create",
];
const DOCKER_DESTROY = [
  "rm",
  "rmi",
  "container rm",
  "container prune",
  "image rm",
  "image prune",
  "volume rm",
  "volume prune",
  "network rm",
  "network prune",
  "system prune",
  "builder prune",
  "buildx prune",
  "service rm",
  "stack rm",
  "swarm leave",
  "node rm",
  "secret rm",
  "config rm",
  "plugin rm",
  "context rm",
];

const EXEC_VALUE_OPTIONS = [
  "-e",
  "--env",
  "--env-file",
  "-u",
  "--user",
  "-w",
  "--workdir",
  "--detach-keys",
  "--index",
];
const RUN_VALUE_OPTIONS = [
  ...EXEC_VALUE_OPTIONS,
  "-v",
  "--volume",
  "-p",
  "--publish",
  "--name",
  "--entrypoint",
  "-l",
  "--label",
  "--network",
  "--net",
  "-m",
  "--memory",
  "--cpus",
  "--restart",
  "--mount",
  "--device",
  "--cap-add",
  "--cap-drop",
  "-h",
  "--hostname",
  "--platform",
  "--pull",
  "--add-host",
  "--dns",
  "--log-driver",
  "--log-opt",
  "--security-opt",
  "--tmpfs",
  "--ulimit",
  "--gpus",
  "--pid",
  "--ipc",
  "--ip",
  "--shm-size",
  "--stop-signal",
  "--health-cmd",
  "--cidfile",
  "--label-file",
  "--runtime",
  "--userns",
  "--uts",
  "--cgroupns",
];
const COMPOSE_VALUE_OPTIONS = [
  "-f",
  "--file",
  "-p",
  "--project-name",
  "--project-directory",
  "--env-file",
  "--profile",
  "--ansi",
  "--parallel",
  "--progress",
];

function composeParts(view: CommandView): { key: string | null; restAfterKey: Arg[] } {
  const isV1 = view.name === "docker-compose" || view.name === "podman-compose";
  const rule = isV1 ? composeV1Rule : dockerRule;
  const key = matchSubcommand(rule, view);
  if (!key) return { key: null, restAfterKey: [] };
  const words = key.split(" ");
  let seen = 0;
  for (let i = 0; i < view.args.length; i++) {
    const value = (view.args[i] as Arg).value;
    if (value.startsWith("-")) {
      if (
        [
          ...COMPOSE_VALUE_OPTIONS,
          "-H",
          "--host",
          "--context",
          "-c",
          "--config",
          "-l",
          "--log-level",
        ].includes(value)
      )
        i++;
      continue;
    }
    if (value === words[seen]) seen++;
    if (seen === words.length)
      return { key: isV1 ? `compose ${key}` : key, restAfterKey: view.args.slice(i + 1) };
  }
  return { key, restAfterKey: [] };
}

function dockerRefine(view: CommandView, ctx: RuleContext): Finding[] {
  const q = quoteSegment(view.text);
  const { key, restAfterKey } = composeParts(view);
  if (!key) return [];
  if (key === "exec" || key === "container exec" || key === "compose exec") {
    const inner = afterOptions(restAfterKey, EXEC_VALUE_OPTIONS, 1);
    if (inner.length === 0)
      return [finding("config_mutation", `${q} names no command to run in the container`)];
    return ctx.classifyArgv(inner, true);
  }
  if (key === "run" || key === "container run" || key === "compose run") {
    const inner = afterOptions(restAfterKey, RUN_VALUE_OPTIONS, 1);
    return inner.length > 0 ? ctx.classifyArgv(inner, true) : [];
  }
  if (key === "compose down" && hasOption(restAfterKey, ["-v", "--volumes", "--rmi"])) {
    return [finding("destructive", `${q} also deletes volumes or images (destructive)`)];
  }
  if (key === "compose" && restAfterKey.length === 0) return [];
  return [];
}

const dockerRule: CommandRule = {
  names: ["docker", "podman", "nerdctl"],
  what: "manages containers",
  risk: "config_mutation",
  whenBare: "read_only",
  valueOptions: [
    "-H",
    "--host",
    "--context",
    "-c",
    "--config",
    "-l",
    "--log-level",
    ...COMPOSE_VALUE_OPTIONS,
  ],
  subcommands: {
    readOnly: [...DOCKER_READ, ...COMPOSE_READ.map((sub) => `compose ${sub}`), "compose exec"],
    mutating: [
      ...DOCKER_WRITE,
      ...COMPOSE_WRITE.filter((sub) => sub !== "exec").map((sub) => `compose ${sub}`),
    ],
    destructive: [...DOCKER_DESTROY, ...COMPOSE_DESTROY.map((sub) => `compose ${sub}`)],
  },
  refine: dockerRefine,
  examples: [
    ["docker ps -a", "read_only"],
    ["docker compose logs --tail=50", "read_only"],
    ["docker compose -f /opt/app/compose.yml ps", "read_only"],
    ["docker compose top", "read_only"],
    ["docker compose config", "read_only"],
    ["docker compose up -d", "config_mutation"],
    ["docker compose down", "config_mutation"],
    ["docker compose down -v", "destructive"],
    ["docker logs -f --tail 100 web", "read_only"],
    ["docker restart web", "config_mutation"],
    ["docker rm -f web", "destructive"],
    ["docker system prune -af", "destructive"],
    ["docker volume rm data", "destructive"],
    ["docker exec web cat /etc/hosts", "read_only"],
    ["docker exec -it -u root web rm -rf /data", "destructive"],
    ["docker compose exec db psql -U app -c 'drop table users'", "destructive"],
    ["docker run --rm alpine ls /", "config_mutation"],
    ["docker run --rm -v /:/host alpine rm -rf /host/etc", "destructive"],
    ["docker frobnicate", "config_mutation"],
  ],
};

const composeV1Rule: CommandRule = {
  names: ["docker-compose", "podman-compose"],
  what: "manages a compose project",
  risk: "config_mutation",
  whenBare: "read_only",
  valueOptions: COMPOSE_VALUE_OPTIONS,
  subcommands: {
    readOnly: [...COMPOSE_READ, "exec"],
    mutating: COMPOSE_WRITE.filter((sub) => sub !== "exec"),
    destructive: COMPOSE_DESTROY,
  },
  refine: dockerRefine,
  examples: [
    ["docker-compose logs web", "read_only"],
    ["docker-compose up -d", "config_mutation"],
    ["docker-compose down --volumes", "destructive"],
    ["docker-compose exec web ls", "read_only"],
  ],
};

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
  dockerRule,
  composeV1Rule,
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
    examples: [
      ["lxc list", "read_only"],
      ["lxc delete web --force", "destructive"],
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
      destructive: ["undefine", "vol-delete", "pool-delete", "snapshot-delete", "snapshot-revert"],
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

export { hasOption };
