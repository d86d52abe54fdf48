import type { Arg, CommandView, RuleContext } from "../command-view.ts";
import { afterOptions, finding, hasOption, optionValue } from "../command-view.ts";
import type { Finding } from "../risk.ts";
import { quoteSegment } from "../risk.ts";
import {
  COMPOSE_DESTROY,
  COMPOSE_READ,
  COMPOSE_VALUE_OPTIONS,
  COMPOSE_WRITE,
  DOCKER_DESTROY,
  DOCKER_READ,
  DOCKER_WRITE,
  EXEC_VALUE_OPTIONS,
  RUN_VALUE_OPTIONS,
} from "./docker-tables.ts";
import type { CommandRule } from "./rule.ts";
import { matchSubcommand } from "./rule.ts";

/** Docker, docker compose (v2 plugin and v1), podman. */

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
  if (key === "compose config") {
    // `docker compose config -o file` writes the resolved file.
    const output = optionValue(restAfterKey, ["-o", "--output"]);
    if (output) return [ctx.writeTo(output, q)];
  }
  if (key === "save" || key === "image save" || key === "export" || key === "container export") {
    const output = optionValue(restAfterKey, ["-o", "--output"]);
    if (output) return [ctx.writeTo(output, q)];
  }
  return [];
}

const dockerRule: CommandRule = {
  names: ["docker", "podman", "nerdctl"],
  what: "manages containers",
  risk: "config_mutation",
  whenBare: "read_only",
  bareFlags: ["-v"],
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
    ["docker compose config -o /tmp/resolved.yml", "config_mutation"],
    ["docker --version", "read_only"],
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

export const DOCKER_RULES: CommandRule[] = [dockerRule, composeV1Rule];
