import type { ToolSpec } from "../tool-spec.ts";

const APT_READ: ToolSpec = {
  flags: "aq",
  long: ["--upgradable", "--installed", "--all-versions", "--names-only", "--full"],
  anyOption: false,
};

/** Package managers' queries. */
export const PACKAGE_TOOLS: Record<string, ToolSpec> = {
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
};
