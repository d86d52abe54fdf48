import type { CommandView, RuleContext } from "../command-view.ts";
import { afterOptions, finding, hasOption, optionValue, positionals } from "../command-view.ts";
import type { Finding } from "../risk.ts";
import { quoteSegment } from "../risk.ts";
import type { CommandRule } from "./rule.ts";

/**
 * Commands that run another command under a scheduling, memory, namespace or group setting
 * (chrt, cpulimit, numactl, unshare, systemd-nspawn, sg, script, expect): judged by what they run.
 */

const UNSHARE_VALUE_OPTIONS = [
  "--propagation",
  "--setgroups",
  "--map-user",
  "--map-group",
  "--map-users",
  "--map-groups",
  "-S",
  "--setuid",
  "-G",
  "--setgid",
  "-R",
  "--root",
  "-w",
  "--wd",
];

const NUMACTL_VALUE_OPTIONS = [
  "-i",
  "--interleave",
  "-N",
  "--cpunodebind",
  "-m",
  "--membind",
  "-C",
  "--physcpubind",
  "-p",
  "--preferred",
  "-P",
  "--preferred-many",
];

const NSPAWN_VALUE_OPTIONS = [
  "-D",
  "--directory",
  "-i",
  "--image",
  "-M",
  "--machine",
  "-u",
  "--user",
  "--bind",
  "--bind-ro",
  "-E",
  "--setenv",
  "--network-interface",
  "--network-bridge",
  "--network-zone",
  "-p",
  "--port",
  "--chdir",
  "--uuid",
  "-S",
  "--slice",
  "--property",
  "--tmpfs",
  "--overlay",
  "--overlay-ro",
];

/** `script -c 'cmd' [file]`: runs the command and records the session into `file` (default ./typescript). */
function scriptRefine(view: CommandView, ctx: RuleContext): Finding[] {
  const q = quoteSegment(view.text);
  const command = optionValue(view.args, ["-c", "--command"]);
  const findings: Finding[] = [];
  const file = positionals(view.args, [
    "-c",
    "--command",
    "-t",
    "--timing",
    "-E",
    "--echo",
    "-O",
    "-I",
    "-B",
  ]).find((arg) => arg !== command);
  if (file) findings.push(ctx.writeTo(file, q));
  else findings.push(finding("config_mutation", `${q} records the session into the file \`typescript\``));
  if (command) findings.push(...ctx.classifyScript(command.value, view.text, command.dynamic));
  else findings.push(finding("config_mutation", `${q} opens an interactive shell (config_mutation)`));
  return findings;
}

/** `sg group -c 'cmd'` or `sg group 'cmd'`: runs the command through /bin/sh with another group. */
function sgRefine(view: CommandView, ctx: RuleContext): Finding[] {
  const command = optionValue(view.args, ["-c"]) ?? positionals(view.args, ["-c"])[1];
  if (command) return ctx.classifyScript(command.value, view.text, command.dynamic);
  return [
    finding(
      "config_mutation",
      `${quoteSegment(view.text)} opens a shell with another group (config_mutation)`,
    ),
  ];
}

/** Expect is Tcl: what it runs are its `spawn …` and `exec …` commands, read here as shell commands. */
function expectRefine(view: CommandView, ctx: RuleContext): Finding[] {
  const q = quoteSegment(view.text);
  const code = optionValue(view.args, ["-c"]);
  const findings: Finding[] = [
    finding(
      "config_mutation",
      `${q} runs an expect (Tcl) program oikos cannot fully check (config_mutation)`,
    ),
  ];
  if (!code) return findings;
  for (const match of code.value.matchAll(/\b(?:spawn|exec)\s+([^;\n\]}]+)/g)) {
    findings.push(...ctx.classifyScript(match[1] ?? "", view.text, code.dynamic));
  }
  return findings;
}

export const PROCESS_WRAPPER_RULES: CommandRule[] = [
  {
    names: ["chrt"],
    what: "changes a process's scheduling policy",
    risk: "config_mutation",
    wrapper: true,
    inner: (view) => (hasOption(view.args, ["-p", "--pid"]) ? [] : afterOptions(view.args, [], 1)),
    examples: [
      ["chrt -f 50 rm -rf /srv/data", "destructive"],
      ["chrt -p 10 1234", "config_mutation"],
    ],
  },
  {
    names: ["cpulimit"],
    what: "limits the CPU use of a process",
    risk: "read_only",
    whenBare: "config_mutation",
    wrapper: true,
    inner: (view) =>
      hasOption(view.args, ["-p", "--pid", "-e", "--exe"])
        ? []
        : afterOptions(view.args, ["-l", "--limit", "-p", "--pid", "-e", "--exe", "-c", "--cpu"]),
    examples: [
      ["cpulimit -l 50 rm -rf /srv/data", "destructive"],
      ["cpulimit -l 50 -- tar czf /tmp/x.tgz /srv", "config_mutation"],
      ["cpulimit -p 1234 -l 20", "config_mutation"],
    ],
  },
  {
    names: ["numactl"],
    what: "shows NUMA policy",
    risk: "read_only",
    wrapper: true,
    inner: (view) => afterOptions(view.args, NUMACTL_VALUE_OPTIONS),
    examples: [
      ["numactl --hardware", "read_only"],
      ["numactl --interleave=all rm -rf /srv/data", "destructive"],
      ["numactl -N 0 ls /", "read_only"],
    ],
  },
  {
    names: ["unshare"],
    what: "opens a shell in new namespaces",
    risk: "read_only",
    whenBare: "config_mutation",
    wrapper: true,
    inner: (view) => afterOptions(view.args, UNSHARE_VALUE_OPTIONS),
    examples: [
      ["unshare -m rm -rf /srv/data", "destructive"],
      ["unshare -r", "config_mutation"],
      ["unshare -n ls /", "read_only"],
    ],
  },
  {
    names: ["systemd-nspawn"],
    what: "starts a container",
    risk: "config_mutation",
    wrapper: true,
    inner: (view) => afterOptions(view.args, NSPAWN_VALUE_OPTIONS),
    examples: [
      ["systemd-nspawn -D /srv/c rm -rf /x", "destructive"],
      ["systemd-nspawn -bD /srv/c", "config_mutation"],
    ],
  },
  {
    names: ["script"],
    what: "records a terminal session",
    risk: "read_only",
    wrapper: true,
    refine: scriptRefine,
    examples: [
      ["script -c 'rm -rf /srv/data' /tmp/log", "destructive"],
      ["script -qc 'ls /' /dev/null", "read_only"],
      ["script", "config_mutation"],
    ],
  },
  {
    names: ["sg"],
    what: "runs a command with another group",
    risk: "read_only",
    wrapper: true,
    refine: sgRefine,
    examples: [
      ["sg docker -c 'rm -rf /srv/data'", "destructive"],
      ["sg docker 'docker ps'", "read_only"],
      ["sg docker", "config_mutation"],
    ],
  },
  {
    names: ["expect"],
    what: "runs an expect program",
    risk: "config_mutation",
    wrapper: true,
    refine: expectRefine,
    examples: [
      ["expect -c 'spawn rm -rf /srv/data; expect eof'", "destructive"],
      ['expect -c \'spawn ssh host; expect "$ "; send "exit\\r"\'', "config_mutation"],
      ["expect login.exp", "config_mutation"],
    ],
  },
];
