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
const SYSTEMCTL_PASSIVE = new Set([
  "--now",
  "--no-block",
  "-q",
  "--quiet",
  "--no-pager",
  "--no-ask-password",
]);

function unitPart(ruleId: string, command: string, action: string, unit: string): PlannedPart {
  const q = shellQuote(unit);
  return {
    ruleId,
    kind: "service",
    command,
    files: [],
    probes: [
      { command: `systemctl is-active ${q}`, accepts: "any" },
      { command: `systemctl is-enabled ${q}`, accepts: "any" },
      { command: `systemctl list-dependencies --reverse --plain --no-pager ${q}`, accepts: "any" },
    ],
    render(results) {
      const [active, enabled, reverse] = results as [ProbeResult, ProbeResult, ProbeResult];
      const dependents = reverse.stdout
        .split("\n")
        .map((line) => line.trim())
        .filter((line, i) => line !== "" && i > 0);
      const text = [
        `${unit}: ${active.stdout.trim() || "unknown"} (${enabled.stdout.trim() || "unknown"}) — ${action}`,
        dependents.length > 0
          ? `depends on it (${dependents.length}): ${dependents.join(", ")}`
          : "nothing depends on it",
      ].join("\n");
      return { status: "ok", text, effect: text, expectations: [] };
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
      // An option (`--host x`, `--user`) changes where or on what the action runs.
      const odd = options.find((arg) => !SYSTEMCTL_PASSIVE.has(arg.value));
      if (odd || at > 0)
        return unavailable(`systemctl option \`${odd?.value ?? words[0]}\` is not previewed`);
      action = words[0] as string;
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
    return { parts: units.map((unit) => unitPart(this.id, statement.text, action, unit)) };
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
    ["systemctl --host other restart nginx", "unavailable"],
    ["systemctl restart $SVC", "unavailable"],
  ],
};

export const SERVICE_RULES: readonly PreviewRule[] = [systemctl];
