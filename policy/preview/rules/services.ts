import type { PlannedPart, PreviewRule, ProbeResult } from "../rule.ts";
import { firstUnusable, onlyStage, shellQuote, unavailable } from "../rule.ts";

/** Services: each unit's state now and what depends on it (`systemctl list-dependencies --reverse`). */

const SYSTEMCTL_ACTIONS = new Set([
  "start",
  "stop",
  "restart",
  "try-restart",
  "reload",
  "reload-or-restart",
  "try-reload-or-restart",
  "kill",
  "disable",
  "enable",
  "mask",
  "unmask",
]);
/** `--now` adds a start or stop to these (issue #37: an option's effect is part of the preview). */
const NOW_ADDS: Record<string, string> = {
  enable: "start",
  disable: "stop",
  mask: "stop",
  unmask: "",
};
const SYSTEMCTL_PASSIVE = new Set(["--no-block", "-q", "--quiet", "--no-pager", "--no-ask-password"]);

/** What systemctl is-active prints (systemctl(1)); anything else is not an answer. */
const ACTIVE_STATES = new Set([
  "active",
  "reloading",
  "inactive",
  "failed",
  "activating",
  "deactivating",
  "maintenance",
  "refreshing",
  "unknown",
]);

function unitPart(
  ruleId: string,
  command: string,
  action: string,
  unit: string,
  identity: "login" | "sudo",
): PlannedPart {
  const q = shellQuote(unit);
  return {
    ruleId,
    kind: "service",
    command,
    identity,
    paths: [],
    files: [],
    probes: [
      { command: `systemctl is-active ${q}`, accepts: "any" },
      { command: `systemctl is-enabled ${q}`, accepts: "any" },
      { command: `systemctl list-dependencies --reverse --plain --no-pager ${q}`, accepts: "any" },
    ],
    render(results) {
      const [active, enabled, reverse] = results as [ProbeResult, ProbeResult, ProbeResult];
      const state = active.stdout.trim();
      // A systemctl that cannot reach systemd prints nothing useful and "nothing depends on it"
      // would be a guess: not previewed.
      if (!ACTIVE_STATES.has(state) || reverse.exitCode !== 0 || enabled.stdout.trim() === "") {
        const why =
          [active, enabled, reverse].map((r) => r.stderr.trim()).find((e) => e !== "") ?? "no answer";
        return { status: "unavailable", reason: `systemctl could not tell the state of ${unit} (${why})` };
      }
      const dependents = reverse.stdout
        .split("\n")
        .map((line) => line.trim())
        .filter((line, i) => line !== "" && i > 0);
      const head = `${unit}: ${state} (${enabled.stdout.trim()}) — ${action}`;
      const text = [
        head,
        dependents.length > 0
          ? `depends on it (${dependents.length}): ${dependents.join(", ")}`
          : "nothing depends on it",
      ].join("\n");
      return {
        status: "ok",
        text,
        effect: text,
        expectations: [],
        summary: `${head}, ${dependents.length} depend on it`,
      };
    },
  };
}

const systemctl: PreviewRule = {
  id: "service.systemctl",
  kind: "service",
  what: "`systemctl restart/stop/…` and `service X restart`: each unit's state and its reverse dependencies",
  match(statement) {
    const stage = onlyStage(statement);
    if (!stage) return null;
    const args = stage.argv.slice(1);
    let action: string;
    let units: string[];
    if (stage.name === "systemctl") {
      const options = args.filter((arg) => arg.value.startsWith("-"));
      const words = args.filter((arg) => !arg.value.startsWith("-")).map((arg) => arg.value);
      const at = words.findIndex((word) => SYSTEMCTL_ACTIONS.has(word));
      if (at < 0) return null;
      const why = firstUnusable(args);
      if (why) return unavailable(why);
      // An option (`--host x`, `--user`, `--runtime`, `--force`) changes where, on what or how the
      // action runs; `--now` adds a start or stop, said with the action.
      const now = options.some((arg) => arg.value === "--now");
      const odd = options.find((arg) => arg.value !== "--now" && !SYSTEMCTL_PASSIVE.has(arg.value));
      if (odd || at > 0)
        return unavailable(`systemctl option \`${odd?.value ?? words[0]}\` is not previewed`);
      action = words[0] as string;
      const added = now ? NOW_ADDS[action] : undefined;
      if (added) action = `${action}, and ${added} it now (--now)`;
      units = words.slice(1);
    } else if (stage.name === "service") {
      const [name, verb] = args;
      if (!name || !verb || !SYSTEMCTL_ACTIONS.has(verb.value)) return null;
      const why = firstUnusable([name, verb]);
      if (why) return unavailable(why);
      action = verb.value;
      units = [name.value];
    } else return null;
    if (units.length === 0) return unavailable("names no unit");
    // systemctl matches a quoted pattern (`'docker*'`) against every loaded unit itself: the probes
    // would show one line for what may be many units.
    const pattern = units.find((unit) => /[*?[]/.test(unit));
    if (pattern) return unavailable(`\`${pattern}\` is a pattern systemctl matches against the loaded units`);
    const identity = stage.sudo ? "sudo" : "login";
    return { parts: units.map((unit) => unitPart(this.id, statement.text, action, unit, identity)) };
  },
  examples: [
    [
      "systemctl restart nginx",
      [
        "systemctl is-active nginx",
        "systemctl is-enabled nginx",
        "systemctl list-dependencies --reverse --plain --no-pager nginx",
      ],
    ],
    [
      "sudo service nfs-server stop",
      [
        "systemctl is-active nfs-server",
        "systemctl is-enabled nfs-server",
        "systemctl list-dependencies --reverse --plain --no-pager nfs-server",
      ],
    ],
    [
      "systemctl enable --now nginx",
      [
        "systemctl is-active nginx",
        "systemctl is-enabled nginx",
        "systemctl list-dependencies --reverse --plain --no-pager nginx",
      ],
    ],
    ["systemctl --host other restart nginx", "unavailable"],
    ["systemctl enable --runtime nginx", "unavailable"],
    ["systemctl restart $SVC", "unavailable"],
  ],
};

export const SERVICE_RULES: readonly PreviewRule[] = [systemctl];
