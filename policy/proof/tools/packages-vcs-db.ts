import { checkSql } from "../mini/sql.ts";
import type { ProofWord } from "../proof-word.ts";
import type { ToolSpec } from "../tool-spec.ts";

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
    "--show-signature",
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

const git: ToolSpec = {
  valued: "C",
  long: ["--no-pager", "--no-optional-locks"],
  sub: {
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
    remote: { flags: "v", long: ["--verbose"], bareOk: true, sub: { "get-url": {}, show: { flags: "n" } } },
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
  },
};

function sqlOptions(optionsWithSql: readonly string[]) {
  return (args: readonly ProofWord[]) => {
    let found = 0;
    for (let i = 0; i < args.length; i++) {
      const arg = args[i] as ProofWord;
      const attached = optionsWithSql.find(
        (option) => option.length === 2 && arg.value.startsWith(option) && arg.value.length > 2,
      );
      if (!arg.static) continue;
      let sql: ProofWord | undefined;
      if (optionsWithSql.includes(arg.value)) sql = args[++i];
      else if (optionsWithSql.some((option) => arg.value.startsWith(`${option}=`)))
        sql = { ...arg, value: arg.value.slice(arg.value.indexOf("=") + 1) };
      else if (attached) sql = { ...arg, value: arg.value.slice(2) };
      if (!sql) continue;
      if (!sql.static) return "the SQL is only known at run time";
      const verdict = checkSql(sql.value);
      if (verdict) return verdict;
      found++;
    }
    if (found === 0 && !args.some((a) => a.static && ["-l", "--list"].includes(a.value))) {
      return "an SQL client without a query reads statements the proof cannot see";
    }
    return null;
  };
}

const APT_READ: ToolSpec = {
  flags: "aq",
  long: ["--upgradable", "--installed", "--all-versions", "--names-only", "--full"],
  anyOption: false,
};
const RCLONE_GLOBAL = {
  flags: "vqn",
  long: [
    "--dry-run",
    "--one-way",
    "--size-only",
    "--download",
    "--human-readable",
    "--recursive",
    "--fast-list",
    "--max-depth",
  ],
  longValued: [
    "--max-depth",
    "--include",
    "--exclude",
    "--min-size",
    "--max-size",
    "--checkers",
    "--transfers",
  ],
};

export const PACKAGE_VCS_DB_TOOLS: Record<string, ToolSpec> = {
  apt: {
    helpers: ["dpkg"],
    sub: {
      list: APT_READ,
      policy: APT_READ,
      show: APT_READ,
      search: APT_READ,
      depends: APT_READ,
      rdepends: APT_READ,
    },
  },
  "apt-cache": {
    helpers: ["dpkg"],
    sub: {
      policy: APT_READ,
      show: APT_READ,
      search: APT_READ,
      depends: APT_READ,
      rdepends: APT_READ,
      madison: APT_READ,
      showpkg: APT_READ,
      pkgnames: APT_READ,
    },
  },
  "apt-get": {
    helpers: ["dpkg"],
    custom: (args) => {
      const simulated = args.some(
        (a) =>
          a.static &&
          (/^-[qyV]*s[qyV]*$/.test(a.value) ||
            ["--simulate", "--just-print", "--dry-run", "--recon", "--no-act"].includes(a.value)),
      );
      if (!simulated) return "apt-get without -s changes packages";
      for (const arg of args) {
        if (!arg.static) return "apt-get with a run-time argument";
        if (
          arg.value.startsWith("-") &&
          !/^-[qyVs]+$/.test(arg.value) &&
          ![
            "--simulate",
            "--just-print",
            "--dry-run",
            "--recon",
            "--no-act",
            "--assume-yes",
            "--no-install-recommends",
            "--only-upgrade",
          ].includes(arg.value)
        ) {
          return `\`apt-get ${arg.value}\` is not an option proven read-only`;
        }
      }
      return null;
    },
  },
  dpkg: {
    helpers: ["dpkg-query"],
    flags: "lLsSp",
    long: [
      "--list",
      "--listfiles",
      "--status",
      "--search",
      "--get-selections",
      "--print-architecture",
      "--print-foreign-architectures",
      "--audit",
      "--verify",
    ],
  },
  "dpkg-query": {
    flags: "lLsSWf",
    valued: "f",
    long: ["--list", "--listfiles", "--status", "--search", "--show"],
    longValued: ["--showformat"],
  },
  git,
  psql: {
    flags: "tAqXlxwWe",
    valued: "UdhpcFR",
    long: [
      "--tuples-only",
      "--no-align",
      "--quiet",
      "--no-psqlrc",
      "--list",
      "--expanded",
      "--csv",
      "--no-password",
    ],
    longValued: ["--username", "--dbname", "--host", "--port", "--command", "--field-separator"],
    check: sqlOptions(["-c", "--command"]),
  },
  mysql: {
    flags: "NBstEvrp",
    valued: "euhPDp",
    long: ["--skip-column-names", "--batch", "--silent", "--table", "--vertical", "--raw"],
    longValued: ["--execute", "--user", "--host", "--port", "--database", "--password"],
    check: sqlOptions(["-e", "--execute"]),
  },
  rclone: {
    ...RCLONE_GLOBAL,
    sub: Object.fromEntries(
      [
        "lsl",
        "lsd",
        "ls",
        "lsf",
        "lsjson",
        "md5sum",
        "sha1sum",
        "size",
        "listremotes",
        "check",
        "cat",
        "tree",
        "about",
        "version",
      ].map((verb) => [verb, RCLONE_GLOBAL]),
    ),
  },
};

// rclone sync/copy/move only as --dry-run.
(PACKAGE_VCS_DB_TOOLS.rclone as ToolSpec & { sub: Record<string, ToolSpec> }).sub.sync = {
  ...RCLONE_GLOBAL,
  check: (args) =>
    args.some((a) => a.static && (a.value === "--dry-run" || a.value === "-n"))
      ? null
      : "rclone sync without --dry-run writes",
};
