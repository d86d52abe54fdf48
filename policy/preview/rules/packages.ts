import type { PreviewRule, ProbeResult, Rendered } from "../rule.ts";
import { firstUnusable, onlyStage, shellQuote, single, unavailable } from "../rule.ts";
import type { PackageChange } from "../types.ts";

/** Package managers: the manager's own simulation lists what it would install, upgrade and remove. */

/** apt-get subcommands that change packages, and the apt-get subcommand simulating each (`apt` too). */
const APT_SUBCOMMANDS: Record<string, string> = {
  install: "install",
  reinstall: "reinstall",
  remove: "remove",
  purge: "purge",
  autoremove: "autoremove",
  upgrade: "upgrade",
  "dist-upgrade": "dist-upgrade",
  "full-upgrade": "dist-upgrade",
};
/** Set before apt-get in scripts; they only change prompts, never what is installed. */
const APT_QUIET_ENV = new Set([
  "DEBIAN_FRONTEND",
  "NEEDRESTART_MODE",
  "NEEDRESTART_SUSPEND",
  "APT_LISTCHANGES_FRONTEND",
]);
/** Options that only answer prompts or quieten output: left out of the simulation. */
const APT_ANSWERS = new Set(["-y", "--yes", "--assume-yes", "-q", "-qq", "--quiet"]);
/** Options that change what apt-get picks: kept. Any other option is not previewed. */
const APT_CHOICES = new Set([
  "--no-install-recommends",
  "--install-recommends",
  "--only-upgrade",
  "--auto-remove",
  "--autoremove",
  "--purge",
  "-f",
  "--fix-broken",
  "--no-upgrade",
]);

const apt: PreviewRule = {
  id: "packages.apt",
  kind: "packages",
  what: "apt-get / apt installs, upgrades and removals from `apt-get -s` (simulate)",
  match(statement) {
    const stage = onlyStage(statement);
    if (!stage || (stage.name !== "apt-get" && stage.name !== "apt")) return null;
    const args = stage.argv.slice(1);
    const why = firstUnusable(args);
    if (why) return unavailable(why);
    const sub = args.find((arg) => !arg.value.startsWith("-"));
    if (!sub) return null;
    const simulated = APT_SUBCOMMANDS[sub.value];
    if (!simulated) return null;
    if (stage.name === "apt" && sub.value === "upgrade") {
      return unavailable(
        "`apt upgrade` also installs new dependencies, which `apt-get -s upgrade` would not show",
      );
    }
    const env = stage.assignments.find((a) => !APT_QUIET_ENV.has(a.name));
    if (env) return unavailable(`\`${env.text}\` may change what apt-get does`);
    const options = args.filter((arg) => arg.value.startsWith("-"));
    const odd = options.find((arg) => !APT_ANSWERS.has(arg.value) && !APT_CHOICES.has(arg.value));
    if (odd) return unavailable(`apt-get option \`${odd.value}\` is not previewed`);
    const packages = args.filter((arg) => arg !== sub && !arg.value.startsWith("-"));
    const kept = options.filter((arg) => APT_CHOICES.has(arg.value));
    const words = [...kept.map((a) => a.value), simulated, ...packages.map((a) => shellQuote(a.value))];
    return single({
      ruleId: this.id,
      kind: "packages",
      command: statement.text,
      identity: stage.sudo ? "sudo" : "login",
      paths: [],
      files: [],
      probes: [{ command: `apt-get -s ${words.join(" ")}`, accepts: "zero" }],
      render: ([out]) => renderApt(out as ProbeResult),
    });
  },
  examples: [
    ["apt-get upgrade -y", ["apt-get -s upgrade"]],
    ["sudo DEBIAN_FRONTEND=noninteractive apt-get install -y nginx", ["apt-get -s install nginx"]],
    ["apt full-upgrade", ["apt-get -s dist-upgrade"]],
    ["apt-get purge --auto-remove 'libfoo*'", ["apt-get -s --auto-remove purge 'libfoo*'"]],
    ["apt upgrade", "unavailable"],
    ["apt-get install -o Dpkg::Options::=--force-confnew nginx", "unavailable"],
    ["apt-get install $PKG", "unavailable"],
  ],
};

/** `Inst name [old] (new …)`, `Remv name [old]`, `Purg name [old]` lines of apt-get -s. */
const APT_LINE = /^(Inst|Remv|Purg) (\S+)(?: \[([^\]]*)\])?(?: \((\S+)[^)]*\))?/;

export function parseAptSimulation(stdout: string): {
  install: PackageChange[];
  upgrade: PackageChange[];
  remove: string[];
} {
  const install: PackageChange[] = [];
  const upgrade: PackageChange[] = [];
  const remove: string[] = [];
  for (const line of stdout.split("\n")) {
    const match = APT_LINE.exec(line);
    if (!match) continue;
    const [, action, name, old, next] = match as unknown as [
      string,
      string,
      string,
      string | undefined,
      string | undefined,
    ];
    if (action === "Inst") (old ? upgrade : install).push({ name, version: next ?? null });
    else if (!remove.includes(name)) remove.push(name);
  }
  return { install, upgrade, remove };
}

function renderApt(out: ProbeResult): Rendered {
  const lists = parseAptSimulation(out.stdout);
  const line = (label: string, items: string[]) =>
    `${label} (${items.length})${items.length > 0 ? `: ${items.join(", ")}` : ""}`;
  const text = [
    line(
      "install",
      lists.install.map((p) => `${p.name} ${p.version ?? ""}`.trim()),
    ),
    line(
      "upgrade",
      lists.upgrade.map((p) => `${p.name} → ${p.version ?? "?"}`),
    ),
    line("remove", lists.remove),
  ].join("\n");
  return {
    status: "ok",
    text,
    effect: JSON.stringify(lists),
    expectations: [{ kind: "packages", manager: "apt", ...lists }],
    summary: `install ${lists.install.length}, upgrade ${lists.upgrade.length}, remove ${lists.remove.length}`,
  };
}

const dnf: PreviewRule = {
  id: "packages.dnf",
  kind: "packages",
  what: "dnf / yum changes: not previewed (their dry run, --assumeno, still writes its cache and logs)",
  match(statement) {
    const stage = onlyStage(statement);
    if (!stage || (stage.name !== "dnf" && stage.name !== "yum")) return null;
    return unavailable(
      `${stage.name} has no dry run that writes nothing (--assumeno refreshes its cache and writes its log), so it cannot run as a read-only preview`,
    );
  },
  examples: [
    ["dnf upgrade -y", "unavailable"],
    ["yum install httpd", "unavailable"],
  ],
};

export const PACKAGE_RULES: readonly PreviewRule[] = [apt, dnf];
