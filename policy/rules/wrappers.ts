import type { Arg, CommandView, RuleContext } from "../command-view.ts";
import { afterOptions, finding, hasOption, optionValue } from "../command-view.ts";
import type { Finding } from "../risk.ts";
import { quoteSegment } from "../risk.ts";
import type { CommandRule } from "./rule.ts";

/** Commands that run another command given as argv: the verdict is the inner command's. */

/** `bash -c '…'`, `bash script.sh`, `bash <<EOF`, `bash` alone. */
/** `-o ProxyCommand=…`, `-oLocalCommand=…`: run on this machine before or after the session. */
function flockRefine(view: CommandView, ctx: RuleContext): Finding[] {
  const command = optionValue(view.args, ["-c", "--command"]);
  if (command) return ctx.classifyScript(command.value, view.text, command.dynamic);
  return [];
}

function envInner(view: CommandView): Arg[] {
  const rest = afterOptions(view.args, ["-u", "--unset", "-C", "--chdir", "-S", "--split-string"]);
  let i = 0;
  while (i < rest.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test((rest[i] as Arg).value)) i++;
  return rest.slice(i);
}

function envRefine(view: CommandView, ctx: RuleContext): Finding[] {
  const split = optionValue(view.args, ["-S", "--split-string"]);
  if (split) return ctx.classifyScript(split.value, view.text, split.dynamic);
  const inner = envInner(view);
  const risky = view.args.find((arg) =>
    /^(LD_PRELOAD|LD_LIBRARY_PATH|PATH|BASH_ENV|ENV|IFS)=/.test(arg.value),
  );
  if (risky && inner.length > 0) {
    return [
      finding(
        "config_mutation",
        `${quoteSegment(view.text)}: \`${risky.raw}\` changes how the command is loaded`,
      ),
    ];
  }
  return [];
}

/** `xargs -I % sh -c %`: the replace string is the command or the whole script, so input decides what runs. */
function xargsPlaceholderRefine(view: CommandView): Finding[] {
  const replace =
    optionValue(view.args, ["-I"])?.value ??
    (hasOption(view.args, ["-i", "--replace"], false) ? "{}" : undefined);
  if (!replace) return [];
  const inner = afterOptions(view.args, ["-I", "-n", "-P", "-L", "-s", "-d", "-E", "-a"]);
  const head = inner[0]?.value ?? "";
  const scriptIsReplace = inner.some(
    (arg, i) => arg.value === replace && /^-[a-z]*c$/.test(inner[i - 1]?.value ?? ""),
  );
  if (head.includes(replace) || scriptIsReplace) {
    return [
      finding(
        "reject",
        `${quoteSegment(view.text)}: what runs is filled in from xargs input (\`${replace}\`) that oikos cannot see; run the commands directly`,
      ),
    ];
  }
  return [];
}

export const WRAPPER_RULES: CommandRule[] = [
  {
    names: ["sudo", "doas", "pkexec"],
    what: "opens a root shell",
    risk: "read_only",
    whenBare: "config_mutation",
    wrapper: true,
    flags: { readOnly: ["-l", "--list", "-v", "--validate", "-k", "-K", "-V", "--version"] },
    inner: (view) =>
      afterOptions(view.args, [
        "-u",
        "--user",
        "-g",
        "--group",
        "-C",
        "-D",
        "--chdir",
        "-h",
        "--host",
        "-p",
        "--prompt",
        "-r",
        "-t",
        "-T",
        "-U",
      ]),
    examples: [
      ["sudo ls /root", "read_only"],
      ["sudo -u postgres psql -c 'select 1'", "read_only"],
      ["sudo rm -rf /srv", "destructive"],
      ["sudo -i", "config_mutation"],
      ["sudo -l", "read_only"],
    ],
  },
  {
    names: ["env"],
    what: "prints the environment",
    risk: "read_only",
    wrapper: true,
    inner: envInner,
    refine: envRefine,
    examples: [
      ["env", "read_only"],
      ["env X=1 nice rm -rf /srv", "destructive"],
      ["env -i PATH=/bin ls", "config_mutation"],
      ["env -S 'ls -la'", "read_only"],
    ],
  },
  {
    names: ["nice", "nohup", "stdbuf", "setsid", "unbuffer", "builtin", "busybox", "coproc"],
    what: "runs nothing",
    risk: "read_only",
    wrapper: true,
    inner: (view) =>
      afterOptions(view.args, ["-n", "--adjustment", "-i", "-o", "-e", "--input", "--output", "--error"]),
    examples: [
      ["nice -n 19 du -sh /srv", "read_only"],
      ["nohup rm -rf /data &", "destructive"],
      ["stdbuf -oL tail -f /var/log/syslog", "read_only"],
    ],
  },
  {
    names: ["ionice"],
    what: "shows or sets I/O priority",
    risk: "read_only",
    wrapper: true,
    flags: { mutating: ["-p", "--pid"] },
    inner: (view) =>
      hasOption(view.args, ["-p", "--pid"])
        ? []
        : afterOptions(view.args, ["-c", "--class", "-n", "--classdata"]),
    examples: [
      ["ionice -c3 find / -name x", "read_only"],
      ["ionice -c3 -p 1234", "config_mutation"],
    ],
  },
  {
    names: ["timeout"],
    what: "runs nothing",
    risk: "read_only",
    wrapper: true,
    inner: (view) => afterOptions(view.args, ["-s", "--signal", "-k", "--kill-after"], 1),
    examples: [
      ["timeout 10 curl -s http://x", "read_only"],
      ["timeout -s KILL 5 zfs destroy tank/a", "destructive"],
    ],
  },
  {
    names: ["command"],
    what: "looks up a command",
    risk: "read_only",
    wrapper: true,
    inner: (view) => (hasOption(view.args, ["-v", "-V"]) ? [] : afterOptions(view.args)),
    examples: [
      ["command -v rm", "read_only"],
      ["command rm -f /etc/x", "destructive"],
    ],
  },
  {
    names: ["exec"],
    what: "changes the shell's file descriptors",
    risk: "read_only",
    wrapper: true,
    inner: (view) => afterOptions(view.args, ["-a"]),
    examples: [
      ["exec ls", "read_only"],
      ["exec reboot", "destructive"],
    ],
  },
  {
    names: ["time"],
    what: "times nothing",
    risk: "read_only",
    wrapper: true,
    inner: (view) => afterOptions(view.args, ["-f", "--format", "-o", "--output"]),
    examples: [["time ls -la", "read_only"]],
  },
  {
    names: ["xargs"],
    what: "echoes its input",
    risk: "read_only",
    wrapper: true,
    inner: (view) =>
      afterOptions(view.args, [
        "-I",
        "-n",
        "-P",
        "-L",
        "-s",
        "-d",
        "-E",
        "-a",
        "--max-args",
        "--max-procs",
        "--delimiter",
        "--arg-file",
        "--max-lines",
        "--max-chars",
        "--eof",
      ]),
    refine: xargsPlaceholderRefine,
    examples: [
      ["xargs rm", "destructive"],
      ["xargs -n1 echo", "read_only"],
      ["xargs -I{} sh -c 'zfs destroy {}'", "destructive"],
      ["xargs", "read_only"],
      ["xargs -I{} bash -c '{}'", "reject"],
      ["xargs -I{} {} --version", "reject"],
      ["xargs -I % sh -c %", "reject"],
      ["xargs -I % echo %", "read_only"],
    ],
  },
  {
    names: ["taskset"],
    what: "shows CPU affinity",
    risk: "read_only",
    wrapper: true,
    inner: (view) => (hasOption(view.args, ["-p", "--pid"]) ? [] : afterOptions(view.args, [], 1)),
    examples: [["taskset -c 0 md5sum big.iso", "read_only"]],
  },
  {
    names: ["nsenter"],
    what: "opens a shell in another namespace",
    risk: "read_only",
    whenBare: "config_mutation",
    wrapper: true,
    inner: (view) =>
      afterOptions(view.args, ["-t", "--target", "-S", "--setuid", "-G", "--setgid", "-w", "--wd"]),
    examples: [
      ["nsenter -t 1 -m -u -n -i ls /", "read_only"],
      ["nsenter -t 1 -m", "config_mutation"],
    ],
  },
  {
    names: ["chroot"],
    what: "opens a shell in another root",
    risk: "read_only",
    whenBare: "config_mutation",
    wrapper: true,
    inner: (view) => afterOptions(view.args, ["--userspec", "--groups"], 1),
    examples: [
      ["chroot /mnt/root cat /etc/os-release", "read_only"],
      ["chroot /mnt/root", "config_mutation"],
    ],
  },
  {
    names: ["systemd-run"],
    what: "starts a transient systemd unit",
    risk: "config_mutation",
    wrapper: true,
    inner: (view) =>
      afterOptions(view.args, [
        "-u",
        "--unit",
        "-p",
        "--property",
        "-M",
        "--machine",
        "--description",
        "--slice",
        "-E",
        "--setenv",
        "--on-calendar",
        "--on-active",
        "--uid",
        "--gid",
        "--working-directory",
      ]),
    examples: [
      ["systemd-run --unit=x ls", "config_mutation"],
      ["systemd-run rm -rf /srv", "destructive"],
    ],
  },
  {
    names: ["strace", "ltrace"],
    what: "traces a process",
    risk: "read_only",
    wrapper: true,
    flags: { mutating: ["-o", "--output"] },
    inner: (view) =>
      afterOptions(view.args, [
        "-p",
        "-o",
        "-e",
        "-s",
        "-u",
        "-E",
        "-a",
        "-I",
        "-O",
        "-S",
        "-P",
        "-X",
        "--attach",
        "--output",
      ]),
    examples: [
      ["strace -p 1234", "read_only"],
      ["strace -f chown -R nobody /srv/app", "config_mutation"],
    ],
  },
  {
    names: ["flock"],
    what: "takes a file lock",
    risk: "read_only",
    wrapper: true,
    inner: (view) =>
      optionValue(view.args, ["-c", "--command"])
        ? []
        : afterOptions(view.args, ["-w", "--timeout", "-E", "--conflict-exit-code", "-c", "--command"], 1),
    refine: flockRefine,
    examples: [
      ["flock /run/x.lock rsync -a a b", "config_mutation"],
      ["flock -n /run/x.lock -c 'rm -rf /tmp/x'", "destructive"],
    ],
  },
];
