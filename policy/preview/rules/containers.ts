import type { Arg } from "../../command-view.ts";
import type { PreviewRule, ProbeResult, Rendered } from "../rule.ts";
import { firstUnusable, onlyStage, shellQuote, single, unavailable } from "../rule.ts";
import type { Stage } from "../statement.ts";

/**
 * Containers. `docker compose pull/up`: the effective configuration's image and configuration hash
 * per service (`docker compose config`) against what the project's containers run now (their
 * compose labels), so a changed service is named. `docker rm` / `rmi`: what exists now.
 */

/** Compose's global options that pick the project; they are passed on to the read-only commands. */
const COMPOSE_GLOBALS = [
  "-f",
  "--file",
  "-p",
  "--project-name",
  "--project-directory",
  "--env-file",
  "--profile",
];

/**
 * Options of `up` / `pull` that change nothing the preview shows (how it waits, what it prints);
 * `true` when the option takes a separate value. Any other option (`--force-recreate`,
 * `--remove-orphans`, `-V`, `--build`, `--scale`, `--no-deps` …) changes which containers are
 * recreated, removed or built, which the per-service comparison would not show: not previewed.
 */
const COMPOSE_ACTION_PASSIVE = new Map<string, boolean>([
  ["-d", false],
  ["--detach", false],
  ["--wait", false],
  ["--wait-timeout", true],
  ["-t", true],
  ["--timeout", true],
  ["--quiet-pull", false],
  ["-q", false],
  ["--quiet", false],
  ["--no-color", false],
  ["--no-log-prefix", false],
  ["--timestamps", false],
  ["-y", false],
  ["--yes", false],
]);

interface ComposeCall {
  globals: string[];
  action: string;
  services: string[];
}

function readCompose(stage: Stage): ComposeCall | string | null {
  let args: readonly Arg[];
  if (stage.name === "docker-compose") args = stage.argv.slice(1);
  else if (stage.name === "docker" && stage.argv[1]?.value === "compose") args = stage.argv.slice(2);
  else return null;
  const why = firstUnusable(args);
  if (why) return why;
  const globals: string[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const token = (args[i] as Arg).value;
    if (!token.startsWith("-")) break;
    const flag = COMPOSE_GLOBALS.find((g) => token === g || token.startsWith(`${g}=`));
    if (!flag) return `compose option \`${token}\` is not previewed`;
    if (token === flag) {
      const value = args[++i];
      if (!value) return `\`${token}\` has no value`;
      globals.push(flag, shellQuote(value.value));
    } else globals.push(shellQuote(token));
  }
  const action = args[i]?.value;
  if (action !== "pull" && action !== "up") return null;
  const services: string[] = [];
  const rest = args.slice(i + 1);
  for (let at = 0; at < rest.length; at++) {
    const token = (rest[at] as Arg).value;
    if (!token.startsWith("-")) {
      services.push(token);
      continue;
    }
    const name = token.includes("=") ? token.slice(0, token.indexOf("=")) : token;
    const valued = COMPOSE_ACTION_PASSIVE.get(name);
    if (valued === undefined) return `compose ${action} option \`${token}\` is not previewed`;
    if (valued && name === token) at++;
  }
  return { globals, action, services };
}

const compose: PreviewRule = {
  id: "containers.compose",
  kind: "containers",
  what: "`docker compose pull/up`: per service the image and configuration the file names against the running containers",
  match(statement) {
    const stage = onlyStage(statement);
    if (!stage) return null;
    const call = readCompose(stage);
    if (call === null) return null;
    if (typeof call === "string") return unavailable(call);
    if (statement.writes.length > 0 || stage.assignments.length > 0) {
      return unavailable("compose with redirections or variables is not previewed");
    }
    // The same program as the command: a host may have only the standalone docker-compose.
    const program = stage.name === "docker-compose" ? ["docker-compose"] : ["docker", "compose"];
    const base = [...program, ...call.globals].join(" ");
    return single({
      ruleId: this.id,
      kind: "containers",
      command: statement.text,
      identity: stage.sudo ? "sudo" : "login",
      paths: [],
      files: [],
      probes: [
        { command: `${base} config --format json`, accepts: "zero" },
        { command: `${base} config --hash '*'`, accepts: "zero" },
        { command: `${base} ps -a --format json`, accepts: "zero" },
      ],
      render: (results) => renderCompose(call, results),
    });
  },
  examples: [
    [
      "docker compose pull",
      [
        "docker compose config --format json",
        "docker compose config --hash '*'",
        "docker compose ps -a --format json",
      ],
    ],
    [
      "docker compose -f /srv/app/compose.yml up -d web",
      [
        "docker compose -f /srv/app/compose.yml config --format json",
        "docker compose -f /srv/app/compose.yml config --hash '*'",
        "docker compose -f /srv/app/compose.yml ps -a --format json",
      ],
    ],
    [
      "docker-compose pull",
      [
        "docker-compose config --format json",
        "docker-compose config --hash '*'",
        "docker-compose ps -a --format json",
      ],
    ],
    ["docker-compose --compatibility up -d", "unavailable"],
    ["docker compose -f $FILE up -d", "unavailable"],
  ],
};

interface Running {
  image: string;
  state: string;
  hash: string | null;
}

/** `docker compose ps --format json`: one JSON object per line (v2.21+) or one array (older). */
function runningServices(stdout: string): Map<string, Running> | null {
  const out = new Map<string, Running>();
  const text = stdout.trim();
  if (text === "") return out;
  let rows: unknown[];
  try {
    rows = text.startsWith("[")
      ? (JSON.parse(text) as unknown[])
      : text.split("\n").map((line) => JSON.parse(line));
  } catch {
    return null;
  }
  for (const row of rows) {
    if (typeof row !== "object" || row === null) continue;
    const r = row as Record<string, unknown>;
    const labels = typeof r.Labels === "string" ? r.Labels : "";
    const hash = /(?:^|,)com\.docker\.compose\.config-hash=([0-9a-f]+)/.exec(labels)?.[1] ?? null;
    if (typeof r.Service === "string") {
      out.set(r.Service, { image: String(r.Image ?? ""), state: String(r.State ?? ""), hash });
    }
  }
  return out;
}

function renderCompose(call: ComposeCall, results: ProbeResult[]): Rendered {
  const [config, hashes, ps] = results as [ProbeResult, ProbeResult, ProbeResult];
  let services: Record<string, { image?: string; build?: unknown }>;
  try {
    services = (JSON.parse(config.stdout) as { services?: typeof services }).services ?? {};
  } catch {
    return { status: "unavailable", reason: "`docker compose config --format json` did not print JSON" };
  }
  const running = runningServices(ps.stdout);
  if (!running)
    return { status: "unavailable", reason: "`docker compose ps --format json` did not print JSON" };
  const wanted = new Map<string, string>();
  for (const line of hashes.stdout.split("\n")) {
    const [name, hash] = line.trim().split(/\s+/);
    if (name && hash) wanted.set(name, hash);
  }
  const names = Object.keys(services)
    .filter((name) => call.services.length === 0 || call.services.includes(name))
    .sort();
  const lines: string[] = [];
  for (const name of names) {
    const image = services[name]?.image ?? "(built from a Dockerfile)";
    const now = running.get(name);
    if (call.action === "pull") {
      lines.push(
        `${name}: pulls ${image}${now ? ` (the container runs ${now.image}, ${now.state})` : " (no container yet)"}`,
      );
      continue;
    }
    const change = !now
      ? "no container yet: created"
      : now.hash !== null && wanted.get(name) !== undefined && now.hash !== wanted.get(name)
        ? "configuration changed: recreated"
        : now.image !== image
          ? `image changes from ${now.image}: recreated`
          : now.state !== "running"
            ? `${now.state}: started`
            : "unchanged";
    lines.push(`${name}: ${image} — ${change}`);
  }
  if (call.action === "pull") {
    lines.push("Whether a registry has a newer image is only known when pulling.");
  }
  return {
    status: "ok",
    text: lines.join("\n") || "no services",
    effect: lines.join("\n"),
    expectations: [],
    summary: `${call.action}: ${lines.filter((line) => !line.endsWith("unchanged")).length} of ${names.length} service(s) change`,
  };
}

/** `docker rm`, `docker container rm`, `docker rmi`, `docker image rm`: what exists now. */
const dockerRemove: PreviewRule = {
  id: "containers.remove",
  kind: "containers",
  what: "`docker rm` / `rmi`: the containers or images as they are now, and what uses an image",
  match(statement) {
    const stage = onlyStage(statement);
    if (stage?.name !== "docker") return null;
    const words = stage.argv.slice(1).map((arg) => arg.value);
    const sub = words[0] === "container" || words[0] === "image" ? `${words[0]} ${words[1]}` : words[0];
    const containers = sub === "rm" || sub === "container rm";
    const images = sub === "rmi" || sub === "image rm";
    if (!containers && !images) return null;
    const rest = stage.argv.slice(sub?.includes(" ") ? 3 : 2);
    const why = firstUnusable(rest);
    if (why) return unavailable(why);
    // Every option is read for what it adds (issue #37), or the form is not previewed.
    const table = containers ? RM_OPTIONS : RMI_OPTIONS;
    const given = new Set<string>();
    for (const arg of rest.filter((a) => a.value.startsWith("-"))) {
      const letters = /^-[a-z]+$/.test(arg.value) ? [...arg.value.slice(1)].map((l) => `-${l}`) : [arg.value];
      for (const option of letters) {
        const known = table[option];
        if (known === undefined) return unavailable(`docker ${sub} option \`${arg.value}\` is not previewed`);
        given.add(known);
      }
    }
    const names = rest.filter((arg) => !arg.value.startsWith("-")).map((arg) => shellQuote(arg.value));
    if (names.length === 0) return unavailable("names no container or image");
    const probes = containers
      ? [
          {
            command: `docker container inspect --format '{{.Name}} {{.Config.Image}} {{.State.Status}}{{range .Mounts}} {{.Type}}:{{if .Name}}{{.Name}}{{else}}{{.Source}}{{end}}{{end}}' ${names.join(" ")}`,
            accepts: "zero" as const,
          },
        ]
      : [
          {
            command: `docker image inspect --format '{{.Id}} {{join .RepoTags ","}} {{.Size}}' ${names.join(" ")}`,
            accepts: "zero" as const,
          },
          ...names.map((name) => ({
            command: `docker ps -a --filter ancestor=${name} --format '{{.Names}} {{.State}}'`,
            accepts: "zero" as const,
          })),
        ];
    return single({
      ruleId: this.id,
      kind: "containers",
      command: statement.text,
      identity: stage.sudo ? "sudo" : "login",
      paths: [],
      files: [],
      probes,
      render(results) {
        const [inspect, ...users] = results as [ProbeResult, ...ProbeResult[]];
        const lines = [
          containers ? "containers removed (name image state mounts):" : "images removed (id tags size):",
          ...inspect.stdout
            .trim()
            .split("\n")
            .filter(Boolean)
            .map((l) => `  ${l}`),
        ];
        users.forEach((user, i) => {
          const using = user.stdout.trim();
          lines.push(`containers using ${names[i]}: ${using ? using.split("\n").join(", ") : "none"}`);
        });
        lines.push(...optionLines(containers, given, inspect.stdout));
        const text = lines.join("\n");
        const summary = `${containers ? "removes container(s)" : "removes image(s)"} ${names.join(", ")}${given.size > 0 ? ` (${[...given].join(", ")})` : ""}`;
        return { status: "ok", text, effect: text, expectations: [], summary };
      },
    });
  },
  examples: [
    [
      "docker rm -f web",
      [
        "docker container inspect --format '{{.Name}} {{.Config.Image}} {{.State.Status}}{{range .Mounts}} {{.Type}}:{{if .Name}}{{.Name}}{{else}}{{.Source}}{{end}}{{end}}' web",
      ],
    ],
    [
      "docker rmi nginx:1.25",
      [
        "docker image inspect --format '{{.Id}} {{join .RepoTags \",\"}} {{.Size}}' nginx:1.25",
        "docker ps -a --filter ancestor=nginx:1.25 --format '{{.Names}} {{.State}}'",
      ],
    ],
    [
      "docker rm -fv web",
      [
        "docker container inspect --format '{{.Name}} {{.Config.Image}} {{.State.Status}}{{range .Mounts}} {{.Type}}:{{if .Name}}{{.Name}}{{else}}{{.Source}}{{end}}{{end}}' web",
      ],
    ],
    ["docker rm $(docker ps -aq)", "unavailable"],
    ["docker rm --link web/db", "unavailable"],
  ],
};

/** docker rm's options, by what they add: `-f` kills a running container first, `-v` deletes its anonymous volumes. */
const RM_OPTIONS: Record<string, string> = {
  "-f": "force",
  "--force": "force",
  "-v": "volumes",
  "--volumes": "volumes",
};
/** docker rmi's: `-f` untags and removes an image containers still use; `--no-prune` keeps untagged parents. */
const RMI_OPTIONS: Record<string, string> = {
  "-f": "force",
  "--force": "force",
  "--no-prune": "no-prune",
};

function optionLines(containers: boolean, given: ReadonlySet<string>, inspected: string): string[] {
  const lines: string[] = [];
  if (containers) {
    const running = inspected.split("\n").filter((line) => / (running|restarting|paused) ?/.test(line));
    if (given.has("force"))
      lines.push(
        `-f: a running container is killed first${running.length > 0 ? ` (${running.length} running now)` : ""}`,
      );
    else if (running.length > 0)
      lines.push(`${running.length} container(s) run now: without -f docker refuses to remove them`);
    const volumes = [...inspected.matchAll(/ volume:(\S+)/g)].map((m) => m[1]);
    if (given.has("volumes"))
      lines.push(
        `-v: also deletes the anonymous volumes among: ${volumes.length > 0 ? volumes.join(", ") : "(none mounted)"}`,
      );
  } else {
    if (given.has("force"))
      lines.push("-f: removes the image even where stopped containers use it, and untags it from every name");
    lines.push(
      given.has("no-prune")
        ? "--no-prune: its untagged parent images are kept"
        : "its untagged parent images are deleted with it",
    );
  }
  return lines;
}

export const CONTAINER_RULES: readonly PreviewRule[] = [compose, dockerRemove];
