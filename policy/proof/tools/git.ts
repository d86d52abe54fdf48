import type { Verdict } from "../context.ts";
import type { ProofWord } from "../proof-word.ts";
import type { ToolSpec } from "../tool-spec.ts";
import { gitSafeRead } from "./git-safe-read.ts";

/**
 * `git remote show NAME` contacts the remote through the transport the repository's config names
 * (`ext::` runs any program, `core.sshCommand` too), and a URL in its place contacts any host:
 * proven only with `-n` (what the config says, no contact) and a remote name, never a URL or path.
 */
function remoteShowOffline(args: readonly ProofWord[]): Verdict {
  const names = args.filter((arg) => !arg.value.startsWith("-"));
  const where = names.find((arg) => !arg.static || /[:/\\]|^\./.test(arg.value));
  if (where)
    return `\`git remote show ${where.raw}\` names a URL or path, which git would contact; name a configured remote and add \`-n\``;
  // Without a name it lists the remotes, as `git remote` does: no contact.
  if (names.length > 0 && !args.some((arg) => arg.static && /^-[a-z]*n/.test(arg.value)))
    return "`git remote show` contacts the remote through the transport its configuration names (which can run a program); add `-n` to show the configuration without contacting it";
  return null;
}

/** Package queries, git history, SQL clients (SQL judged by its statements), rclone listings. */

const GIT_LOG = {
  flags: "pnuzs0123456789",
  valued: "nSG",
  long: [
    "--oneline",
    "--graph",
    "--decorate",
    "--all",
    "--stat",
    "--shortstat",
    "--name-only",
    "--name-status",
    "--abbrev-commit",
    "--no-merges",
    "--merges",
    "--first-parent",
    "--follow",
    "--reverse",
    "--patch",
    "--no-patch",
    "--no-color",
    "--no-ext-diff",
    "--no-textconv",
    "--cached",
    "--staged",
    "--numstat",
    "--summary",
    "--raw",
    "--full-history",
    "--date-order",
    "--topo-order",
    "--left-right",
    "--cherry-pick",
    "--source",
    "--no-show-signature",
    "--no-decorate",
    "--ignore-all-space",
    "--word-diff",
    "--exit-code",
    "--quiet",
    "--ignore-space-change",
  ],
  longValued: [
    "--format",
    "--pretty",
    "--since",
    "--until",
    "--after",
    "--before",
    "--author",
    "--committer",
    "--grep",
    "--max-count",
    "--skip",
    "--date",
    "--decorate",
    "--diff-filter",
    "--stat",
    "--abbrev",
    "--unified",
    "--word-diff",
    "--color",
  ],
} satisfies ToolSpec;

const GIT_SUBCOMMANDS: Record<string, ToolSpec> = {
  status: {
    flags: "sbuvz",
    long: [
      "--short",
      "--branch",
      "--porcelain",
      "--long",
      "--ignored",
      "--show-stash",
      "--no-renames",
      "--verbose",
    ],
    longValued: ["--porcelain", "--untracked-files", "--ignore-submodules"],
  },
  log: GIT_LOG,
  diff: GIT_LOG,
  show: GIT_LOG,
  shortlog: { flags: "nsec", long: ["--summary", "--numbered", "--email"] },
  branch: {
    flags: "arv",
    long: ["--all", "--remotes", "--verbose", "--list", "--show-current", "--no-color"],
    longValued: ["--contains", "--merged", "--no-merged", "--format", "--sort"],
    maxPositionals: 0,
  },
  tag: {
    flags: "ln",
    long: ["--list"],
    longValued: ["--contains", "--sort", "--format"],
    check: (args) =>
      args.some((a) => !a.value.startsWith("-")) &&
      !args.some((a) => a.value === "-l" || a.value === "--list")
        ? "`git tag NAME` creates a tag"
        : null,
  },
  remote: {
    flags: "v",
    long: ["--verbose"],
    bareOk: true,
    sub: { "get-url": {}, show: { flags: "n", check: remoteShowOffline } },
  },
  "rev-parse": {
    long: [
      "--abbrev-ref",
      "--short",
      "--show-toplevel",
      "--git-dir",
      "--is-inside-work-tree",
      "--verify",
      "--symbolic-full-name",
    ],
    longValued: ["--short"],
  },
  describe: {
    long: ["--tags", "--always", "--long", "--dirty", "--all"],
    longValued: ["--abbrev", "--match"],
  },
  blame: { flags: "wseltf", valued: "L", long: ["--porcelain", "--line-porcelain"] },
  "ls-files": {
    flags: "cdmoiskz",
    long: ["--cached", "--deleted", "--modified", "--others", "--stage", "--exclude-standard"],
  },
  "ls-tree": { flags: "rdtz", long: ["--name-only", "--full-tree", "-l"] },
  "cat-file": { flags: "ptse", long: ["--batch-check"] },
  config: {
    flags: "l",
    long: [
      "--list",
      "--get",
      "--get-all",
      "--get-regexp",
      "--show-origin",
      "--global",
      "--system",
      "--local",
      "--name-only",
    ],
    check: (args) =>
      args.some((a) => ["-l", "--list", "--get", "--get-all", "--get-regexp"].includes(a.value))
        ? null
        : "`git config NAME VALUE` writes configuration",
  },
  reflog: { bareOk: true, ...GIT_LOG, sub: { show: GIT_LOG } },
  stash: { sub: { list: GIT_LOG, show: GIT_LOG } },
  worktree: { sub: { list: { long: ["--porcelain"] } } },
  submodule: { sub: { status: { long: ["--recursive"] } } },
  "count-objects": { flags: "vH" },
  grep: {
    flags: "nilcvwEFPhHIz0123456789",
    valued: "eABC",
    long: [
      "--cached",
      "--untracked",
      "--no-index",
      "--line-number",
      "--ignore-case",
      "--count",
      "--files-with-matches",
      "--word-regexp",
      "--extended-regexp",
      "--fixed-strings",
      "--perl-regexp",
    ],
    longValued: ["--max-depth"],
  },
  version: {},
  clean: {
    flags: "ndxXq",
    valued: "e",
    long: ["--dry-run", "--quiet"],
    longValued: ["--exclude"],
    check: (args) =>
      args.some((a) => a.static && (/^-[a-zA-Z]*n/.test(a.value) || a.value === "--dry-run"))
        ? null
        : "`git clean` without -n deletes files",
  },
};

/** git's reads, spelled so the repository's configuration runs nothing (git-safe-read.ts). */
const git: ToolSpec = { custom: gitSafeRead(GIT_SUBCOMMANDS) };

/** git's read-only subcommands (no pager, no external diff, no config that runs programs). */
export const GIT_TOOLS: Record<string, ToolSpec> = {
  git,
};
