import type { Arg, CommandView, RuleContext } from "../command-view.ts";
import { finding, hasOption, positionals } from "../command-view.ts";
import { SAFE_GIT_CONFIG } from "../proof/tools/git-safe-read.ts";
import type { Finding } from "../risk.ts";
import { quoteSegment } from "../risk.ts";
import type { CommandRule } from "./rule.ts";
import { matchSubcommand } from "./rule.ts";

/** git: read-only inspection vs history-changing and destructive subcommands. */

const GIT_PROGRAM_SETTING =
  /^(core\.(?:fsmonitor|sshcommand|pager|editor|hookspath|askpass)|alias\.[^=]+|[^=]*\.program|diff\.external|credential\.helper|sequence\.editor)=(.*)$/is;

/** `git -c core.fsmonitor=…`, `--output=…`: configuration that runs programs or writes files. */
function gitSideEffects(view: CommandView, ctx: RuleContext): Finding[] {
  const q = quoteSegment(view.text);
  const findings: Finding[] = [];
  for (let i = 0; i < view.args.length; i++) {
    const value = (view.args[i] as Arg).value;
    const safe =
      value === "-c" &&
      SAFE_GIT_CONFIG.test(view.args[i + 1]?.value ?? "") &&
      view.args[i + 1]?.dynamic === "none";
    if (!safe && (value === "-c" || value === "--config-env" || value.startsWith("--exec-path"))) {
      findings.push(
        finding(
          "config_mutation",
          `${q}: \`${value}\` overrides configuration that can run programs (config_mutation)`,
        ),
      );
      const setting = value === "-c" ? view.args[i + 1] : undefined;
      const program = setting ? GIT_PROGRAM_SETTING.exec(setting.value) : null;
      if (program && setting)
        findings.push(
          ...ctx.classifyScript((program[2] ?? "").replace(/^!/, ""), view.text, setting.dynamic),
        );
    }
    if (value === "--output" || value.startsWith("--output=")) {
      const target =
        value === "--output" ? view.args[i + 1] : { ...(view.args[i] as Arg), value: value.slice(9) };
      if (target) findings.push(ctx.writeTo(target, q));
    }
  }
  return findings;
}

function gitRefine(view: CommandView, ctx: RuleContext): Finding[] {
  return [...gitSideEffects(view, ctx), ...gitSubcommandRefine(view)];
}

function gitSubcommandRefine(view: CommandView): Finding[] {
  const q = quoteSegment(view.text);
  const key = matchSubcommand(gitRule, view);
  const args = view.args;
  const has = (flags: string[]) => hasOption(args, flags) !== undefined;
  const rest = positionals(args, ["-C", "-c", "--git-dir", "--work-tree"]).slice(1);
  switch (key) {
    case "branch":
      if (has(["-D", "--delete"]) || has(["-d"]))
        return [finding("destructive", `${q} deletes a branch (destructive)`)];
      if (rest.length > 0 || has(["-m", "-M", "-c", "-C", "--set-upstream-to", "-u"]))
        return [finding("config_mutation", `${q} creates or changes a branch (config_mutation)`)];
      return [];
    case "tag":
      if (has(["-d", "--delete"])) return [finding("destructive", `${q} deletes a tag (destructive)`)];
      if (rest.length > 0 && !has(["-l", "--list"]))
        return [finding("config_mutation", `${q} creates a tag (config_mutation)`)];
      return [];
    case "remote":
      if (rest.length > 0 && !["show", "get-url"].includes((rest[0] as Arg).value))
        return [finding("config_mutation", `${q} changes remotes (config_mutation)`)];
      return [];
    case "config":
      if (has(["--unset", "--unset-all", "--add", "--replace-all", "--rename-section", "--remove-section"]))
        return [finding("config_mutation", `${q} changes git configuration (config_mutation)`)];
      if (has(["-e", "--edit"]))
        return [finding("config_mutation", `${q} opens git configuration in an editor (config_mutation)`)];
      if (has(["--get", "--get-all", "--list", "-l", "--get-regexp", "--show-origin"]) || rest.length <= 1)
        return [];
      return [finding("config_mutation", `${q} changes git configuration (config_mutation)`)];
    case "stash":
      if (rest[0] && ["list", "show"].includes(rest[0].value)) return [];
      if (rest[0] && ["drop", "clear"].includes(rest[0].value))
        return [finding("destructive", `${q} throws away stashed changes (destructive)`)];
      return [finding("config_mutation", `${q} stashes changes (config_mutation)`)];
    case "reset":
      return has(["--hard"]) ? [finding("destructive", `${q} discards local changes (destructive)`)] : [];
    case "push":
      return has(["-f", "--force", "--force-with-lease", "--delete", "-d", "--mirror"])
        ? [finding("destructive", `${q} overwrites or deletes remote history (destructive)`)]
        : [];
    case "clean":
      return has(["-n", "--dry-run"])
        ? []
        : [finding("destructive", `${q} deletes untracked files (destructive)`)];
    case "checkout":
      return args.some((arg) => arg.value === "--" || arg.value === ".") || has(["-f", "--force"])
        ? [finding("destructive", `${q} discards local changes (destructive)`)]
        : [];
    default:
      return [];
  }
}

const gitRule: CommandRule = {
  names: ["git"],
  dynamicArgsUnsafe: true,
  what: "works with a repository",
  risk: "config_mutation",
  valueOptions: ["-C", "-c", "--git-dir", "--work-tree", "--namespace"],
  subcommands: {
    readOnly: [
      "clean",
      "status",
      "log",
      "diff",
      "show",
      "branch",
      "tag",
      "remote",
      "config",
      "rev-parse",
      "ls-files",
      "ls-remote",
      "ls-tree",
      "blame",
      "describe",
      "shortlog",
      "reflog",
      "grep",
      "cat-file",
      "rev-list",
      "help",
      "version",
      "whatchanged",
      "count-objects",
      "fsck",
      "verify-commit",
      "check-ignore",
      "name-rev",
      "merge-base",
      "show-ref",
      "var",
      "for-each-ref",
      "worktree list",
      "submodule status",
      "stash",
      "lfs ls-files",
      "lfs status",
    ],
    mutating: [
      "pull",
      "fetch",
      "commit",
      "checkout",
      "switch",
      "merge",
      "rebase",
      "add",
      "mv",
      "cherry-pick",
      "revert",
      "init",
      "clone",
      "submodule update",
      "submodule init",
      "worktree add",
      "am",
      "apply",
      "gc",
      "notes",
      "bisect",
      "reset",
      "push",
    ],
    destructive: [
      "restore",
      "rm",
      "filter-branch",
      "filter-repo",
      "update-ref",
      "prune",
      "worktree remove",
      "reflog expire",
      "reflog delete",
    ],
  },
  refine: gitRefine,
  // The proof takes a read only in the spelling that switches off what the repository's
  // configuration can run (policy/proof/tools/git-safe-read.ts).
  examples: [
    ["git --no-optional-locks -c core.fsmonitor=false status", "read_only"],
    ["git status", "config_mutation"],
    ["git log --no-show-signature --oneline -20", "read_only"],
    ["git log --oneline -20", "config_mutation"],
    ["git -C /opt/app -c core.fsmonitor=false diff --no-textconv --no-ext-diff HEAD~1", "read_only"],
    ["git -c core.fsmonitor=false clean -n", "read_only"],
    ["git clean -n", "config_mutation"],
    ["git branch -a", "read_only"],
    ["git config --get remote.origin.url", "read_only"],
    ["git config --unset user.name", "config_mutation"],
    ["git config --global --unset-all core.pager", "config_mutation"],
    ["git pull --ff-only", "config_mutation"],
    ["git reset --hard origin/main", "destructive"],
    ["git clean -fdx", "destructive"],
    ["git push --force origin main", "destructive"],
    ["git branch -D old", "destructive"],
    ["git -c core.fsmonitor='rm -rf /srv' status", "destructive"],
    ["git -c color.ui=never log --no-show-signature", "read_only"],
    ["git -c core.fsmonitor=/tmp/x status", "config_mutation"],
    ["git log --output=/etc/passwd", "destructive"],
  ],
};

export const GIT_RULES: CommandRule[] = [gitRule];
