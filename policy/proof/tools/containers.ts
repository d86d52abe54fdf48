import type { JailGrant } from "../../jail-grant.ts";
import type { ProofWord } from "../proof-word.ts";
import type { ToolSpec } from "../tool-spec.ts";
import { COMPOSE_EXEC, DOCKER_EXEC, kubectlExec } from "../wrappers.ts";
import { hasFlag, unjailed } from "./grant-helpers.ts";

const DOCKER_SOCKET: JailGrant = { resource: "socket", service: "docker" };
const NETWORK: readonly JailGrant[] = [{ resource: "network" }];

/** The engine's socket; a `-H`/`--context` daemon may be anywhere (`tcp://`, `ssh://`): the network too. */
function dockerGrants(args: readonly ProofWord[]): readonly JailGrant[] {
  return hasFlag(args, "Hc", ["--host", "--context"]) ? [DOCKER_SOCKET, ...NETWORK] : [DOCKER_SOCKET];
}

/** Podman has no daemon to ask: it reads its storage and takes its lock files itself. */
const PODMAN_STORAGE = "podman storage locks";

/** Containers, Proxmox, storage. Only the inspecting subcommands, each with its own options. */

const FORMAT = ["--format", "--filter"];

const COMPOSE_GLOBAL: ToolSpec = {
  valued: "fp",
  longValued: [
    "--file",
    "--project-name",
    "--project-directory",
    "--env-file",
    "--profile",
    "--ansi",
    "--progress",
  ],
};

const compose: ToolSpec = {
  ...COMPOSE_GLOBAL,
  sub: {
    ps: {
      flags: "aq",
      long: ["--all", "--quiet", "--services"],
      longValued: ["--format", "--filter", "--status"],
      anyOption: true,
    },
    logs: {
      flags: "ft",
      valued: "n",
      long: ["--follow", "--timestamps", "--no-color", "--no-log-prefix"],
      longValued: ["--tail", "--since", "--until", "--index"],
      anyOption: true,
    },
    top: { anyOption: true },
    config: {
      flags: "q",
      long: ["--services", "--volumes", "--quiet", "--images", "--profiles", "--no-interpolate", "--hash"],
      longValued: ["--format"],
    },
    images: { flags: "q", long: ["--quiet"], longValued: ["--format"] },
    port: { longValued: ["--protocol", "--index"] },
    ls: { flags: "aq", long: ["--all", "--quiet"], longValued: ["--format", "--filter"] },
    version: { long: ["--short"], longValued: ["--format"] },
    events: { long: ["--json"] },
    exec: { custom: (args, ctx) => COMPOSE_EXEC(args, ctx) },
  },
};

const docker: ToolSpec = {
  grants: dockerGrants,
  // `-H`/`--host`/`--context` point the client at any daemon or socket (`tcp://`, `ssh://`,
  // `unix:///any/socket`): only the engine's own socket is granted, so they ask.
  refused: Object.fromEntries(
    ["-H", "--host", "-c", "--context"].map((option) => [
      option,
      `\`docker ${option}\` talks to a daemon the command chooses (any socket or host); run it without ${option} on the host whose engine you mean, or ask`,
    ]),
  ),
  // `-H ssh://host` (or a context with such an endpoint) reaches the daemon through ssh.
  helpers: ["ssh"],
  sub: {
    ps: {
      flags: "aqsnl",
      valued: "fn",
      long: ["--all", "--quiet", "--size", "--no-trunc", "--latest"],
      longValued: [...FORMAT, "--last"],
      anyOption: true,
    },
    images: {
      flags: "aq",
      valued: "f",
      long: ["--all", "--digests", "--no-trunc", "--quiet"],
      longValued: FORMAT,
      anyOption: true,
    },
    inspect: {
      flags: "s",
      valued: "f",
      long: ["--size"],
      longValued: ["--format", "--type"],
      anyOption: true,
    },
    logs: {
      flags: "ft",
      valued: "n",
      long: ["--follow", "--timestamps", "--details"],
      longValued: ["--tail", "--since", "--until"],
      anyOption: true,
    },
    stats: {
      flags: "a",
      long: ["--no-stream", "--no-trunc", "--all"],
      longValued: ["--format"],
      anyOption: true,
    },
    // No ps options after the container: dockerd runs the host's ps with them, outside the jail.
    top: { maxPositionals: 1 },
    port: { anyOption: true },
    version: { valued: "f", longValued: ["--format"] },
    info: { valued: "f", longValued: ["--format"] },
    network: {
      sub: {
        ls: { flags: "fq", long: ["--no-trunc", "--quiet"], longValued: FORMAT },
        inspect: { valued: "f", longValued: ["--format"], anyOption: true },
      },
    },
    volume: {
      sub: {
        ls: { flags: "q", valued: "f", long: ["--quiet"], longValued: FORMAT },
        inspect: { valued: "f", longValued: ["--format"], anyOption: true },
      },
    },
    image: {
      sub: {
        ls: { flags: "aq", long: ["--all", "--quiet", "--digests"], longValued: FORMAT },
        inspect: { valued: "f", longValued: ["--format"] },
        history: { flags: "qH", long: ["--no-trunc"], longValued: ["--format"] },
      },
    },
    container: {
      sub: {
        ls: { flags: "aqs", long: ["--all", "--quiet", "--size", "--no-trunc"], longValued: FORMAT },
        inspect: { valued: "f", longValued: ["--format"] },
        logs: {
          flags: "ft",
          valued: "n",
          long: ["--follow", "--timestamps"],
          longValued: ["--tail", "--since", "--until"],
        },
        top: {},
        port: {},
      },
    },
    system: {
      sub: {
        df: { flags: "v", long: ["--verbose"], longValued: ["--format"] },
        info: { valued: "f", longValued: ["--format"] },
      },
    },
    compose,
    exec: { custom: (args, ctx) => DOCKER_EXEC(args, ctx) },
  },
};

const KUBE_GLOBAL = {
  valued: "nlo",
  flags: "Aw",
  long: ["--all-namespaces", "--show-labels", "--watch", "--no-headers", "--wide"],
  longValued: ["--namespace", "--context", "--selector", "--output", "--field-selector", "--sort-by"],
};

const kubectl: ToolSpec = {
  ...KUBE_GLOBAL,
  sub: {
    get: { ...KUBE_GLOBAL, anyOption: false },
    describe: KUBE_GLOBAL,
    logs: {
      ...KUBE_GLOBAL,
      flags: "fpA",
      valued: "nlc",
      long: ["--follow", "--previous", "--timestamps", "--all-containers"],
      longValued: ["--tail", "--since", "--container", "--namespace", "--context", "--selector"],
    },
    top: {
      ...KUBE_GLOBAL,
      sub: { pod: KUBE_GLOBAL, pods: KUBE_GLOBAL, node: KUBE_GLOBAL, nodes: KUBE_GLOBAL },
    },
    version: { long: ["--client", "--short"], longValued: ["--output"] },
    "cluster-info": {},
    "api-resources": {},
    explain: {},
    config: { sub: { "get-contexts": {}, "current-context": {}, view: { long: ["--minify"] } } },
    exec: { custom: kubectlExec },
  },
};

/** Docker, Compose, Kubernetes and Helm: listing and inspecting only. */
export const CONTAINER_TOOLS: Record<string, ToolSpec> = {
  docker,
  "docker-compose": { ...compose, grants: [DOCKER_SOCKET] },
  // Outside the jail by name, so fixed words only (a word filled in at run time could be one of
  // podman's global options: `--url`/`--connection` talk to another host, `--root` another
  // storage) and one pass (no `logs -f`).
  podman: {
    grants: unjailed(PODMAN_STORAGE, "podman"),
    sub: {
      ps: {
        flags: "aqsn",
        long: ["--all", "--quiet", "--size", "--no-trunc", "--pod"],
        longValued: ["--format", "--filter"],
      },
      images: {
        flags: "aqn",
        long: ["--all", "--quiet", "--digests", "--no-trunc"],
        longValued: ["--format", "--filter"],
      },
      inspect: { valued: "f", longValued: ["--format", "--type"] },
      logs: {
        // -n is --names (no value)
        flags: "tn",
        long: ["--timestamps", "--names"],
        longValued: ["--tail", "--since", "--until"],
      },
      pod: { sub: { ps: { long: ["--no-trunc"], longValued: ["--format", "--filter"] } } },
      version: { longValued: ["--format"] },
      info: { longValued: ["--format"] },
    },
  },
  // network: every word goes to the API server, so none may be filled in at run time
  kubectl: { ...kubectl, network: true },
  helm: {
    network: true,
    sub: {
      list: {
        flags: "aA",
        valued: "n",
        long: ["--all-namespaces", "--all"],
        longValued: ["--namespace", "--output"],
      },
      status: { valued: "n" },
      history: { valued: "n" },
      version: {},
      get: { sub: { values: { valued: "n", flags: "a" }, manifest: { valued: "n" }, all: { valued: "n" } } },
      repo: { sub: { list: {} } },
    },
  },
};
