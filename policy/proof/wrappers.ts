import { type ElsewhereVia, elsewhereReason, runsElsewhere } from "../runs-elsewhere.ts";
import { checkToolArgs, wrapperOptions } from "./check-options.ts";
import type { Dialect, ProofContext, Verdict } from "./context.ts";
import { checkEnvironmentAssignment } from "./environment.ts";
import type { ProofWord } from "./proof-word.ts";
import { stdinNotShown, xargsInputReachesDevices } from "./stdin.ts";
import type { ToolSpec } from "./tool-spec.ts";

/**
 * Commands that run another command: proven when their own options are on their list and what
 * they run is proven (argv, or shell text parsed again by both parsers under the shell that will
 * read it). What they run on another host, in a guest or in a container is read for its risk and
 * then refused (`elsewhere`).
 */
export type WrapperCheck = (args: readonly ProofWord[], ctx: ProofContext) => Verdict;

/**
 * What runs elsewhere (another host, a guest, a container) runs outside every jail of oikos: the
 * jail here holds only the client, and the command goes on running there when the client is
 * stopped (outside attack of 2026-12, docs/jail.md). The inner command is still proven, so an
 * unproven one keeps its own reason (and a watchdog its reboot: destructive); a proven one is
 * refused all the same, naming where it runs and where to run it instead (policy/runs-elsewhere.ts):
 * the command asks, at the risk of its inner reading (config_mutation for a read-only one).
 * Its grants go to lists of their own that are dropped.
 */
export function elsewhere(
  ctx: ProofContext,
  via: ElsewhereVia,
  place: ProofWord | undefined,
  command: string,
  prove: (away: ProofContext) => Verdict,
): Verdict {
  const inner = prove({ ...ctx, grants: [], pieces: [] });
  if (inner) return inner;
  const found = runsElsewhere(via, place?.static ? place.value : null, command);
  ctx.elsewhere.push(found);
  return elsewhereReason(found);
}

/**
 * Where the command says it runs: the first operand (`valued` options skipped with their value),
 * or with `ofOption`, the value of the first of `valued` (`lxc-attach -n NAME`). Words the wrapper
 * check already accepted.
 */
function firstOperand(
  words: readonly ProofWord[],
  valued: readonly string[],
  ofOption: boolean,
): ProofWord | undefined {
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as ProofWord;
    const option = valued.find(
      (v) => word.value === v || word.value.startsWith(v.startsWith("--") ? `${v}=` : v),
    );
    if (option) {
      if (word.value !== option) {
        if (!ofOption) continue;
        const value = word.value.slice(option.length).replace(/^=/, "");
        return { ...word, value, raw: value };
      }
      if (ofOption) return words[i + 1];
      i++;
      continue;
    }
    if (!ofOption && !word.value.startsWith("-")) return word;
  }
  return undefined;
}

/** The inner command as written, for the refusal's words. */
const written = (words: readonly ProofWord[]) => words.map((word) => word.raw).join(" ");

/** `external`: the wrapper execs the words itself, so a shell builtin there is the program of that name. */
function inner(name: string, spec: ToolSpec, skip = 0, external = true, away?: ElsewhereVia): WrapperCheck {
  return (args, ctx) => {
    const at = wrapperOptions(name, spec, args);
    if (typeof at === "string") return at;
    const rest = args.slice(at + skip);
    if (args.slice(at, at + skip).some((word) => !word.static && word.mayBeOption)) {
      return `an argument of \`${name}\` is only known at run time`;
    }
    if (rest.length === 0) return `\`${name}\` without a command is not proven read-only`;
    if (!away) return ctx.prove.argv(rest, ctx, external);
    return elsewhere(ctx, away, args[at], written(rest), (there) => ctx.prove.argv(rest, there, external));
  };
}

function script(word: ProofWord | undefined, dialect: Dialect, origin: string, ctx: ProofContext): Verdict {
  if (!word) return `\`${origin}\` has no command text`;
  if (!word.static) return `\`${origin}\` runs text only known at run time`;
  return ctx.prove.script(word.value, dialect, ctx);
}

function shell(dialect: Dialect): WrapperCheck {
  return (args, ctx) => {
    const spec: ToolSpec = { flags: "euc", long: ["--noprofile", "--norc"] };
    const at = wrapperOptions("bash", spec, args);
    if (typeof at === "string") return at;
    const hasC = args.slice(0, at).some((arg) => arg.value.startsWith("-") && arg.value.includes("c"));
    if (!hasC) return "a shell without `-c` reads commands the proof cannot see";
    return script(args[at], dialect, "-c", ctx);
  };
}

/** `ssh [options] host command…`: the remote login shell reads the joined words. */
const SSH_O = new Set([
  "BatchMode",
  "ConnectTimeout",
  "ConnectionAttempts",
  "LogLevel",
  "User",
  "IdentityFile",
  "IdentitiesOnly",
  "ServerAliveInterval",
  "ServerAliveCountMax",
]);
const sshValue = (value: string) => {
  const match = /^([A-Za-z]+)\s*[= ]\s*(.*)$/.exec(value);
  if (!match) return false;
  const [, key = "", setting = ""] = match;
  if (key === "StrictHostKeyChecking") return setting === "yes";
  if (key === "UserKnownHostsFile") return setting === "/dev/null";
  return SSH_O.has(key);
};
// No `-p` and no `-o Port=`: ssh reaches the host's configured ssh port, not any listener.
const SSH_SPEC: ToolSpec = {
  flags: "46CTqnxvt",
  valued: "ilo",
  values: { "-o": sshValue },
};

function ssh(args: readonly ProofWord[], ctx: ProofContext): Verdict {
  const port = args.find(
    (arg) => arg.static && (/^-[46CTqnxvt]*p/.test(arg.value) || /^-oPort|^Port/i.test(arg.value)),
  );
  if (port)
    return "`ssh -p`/`-o Port` reaches whatever listens on that port; use a Host entry in the ssh config for a non-standard port, or ask";
  const at = wrapperOptions("ssh", SSH_SPEC, args);
  if (typeof at === "string") return at;
  const host = args[at];
  if (!host?.static) return "`ssh` without a fixed host";
  // `ssh://[user@]host[:port]` names a port as `-p` does
  if (host.value.includes("://"))
    return "`ssh ssh://host:port` reaches whatever listens on that port; use a Host entry in the ssh config for a non-standard port, or ask";
  const rest = args.slice(at + 1);
  if (rest.length === 0) return "`ssh` without a command opens a session the proof cannot see";
  if (rest.some((word) => !word.static)) return "the remote command holds text only known at run time";
  // ssh forwards its standard input to the remote command unless `-n` closes it.
  const closed = args.slice(0, at).some((arg) => /^-[A-Za-z0-9]*n/.test(arg.value));
  const input = closed ? null : stdinNotShown(ctx, "`ssh`");
  if (input) return input;
  const text = rest.map((word) => word.value).join(" ");
  // the place is the host (a `user@` in front names the login, not where it runs)
  const place = { ...host, value: host.value.replace(/^[^@]*@/, "") };
  return elsewhere(ctx, "ssh", place, text, (there) =>
    ctx.prove.script(text, "unknown", { ...there, stdin: [] }),
  );
}

/**
 * `su` authenticates through PAM even to run a read-only command: without a terminal the attempt
 * fails, and the failure is recorded (`/var/log/btmp`, faillock counters that can lock the
 * account); `su -` also runs the target user's login scripts. Never read-only.
 */
function su(): Verdict {
  return "`su` authenticates through PAM: a failed attempt is recorded (btmp, faillock) and can lock the account; use `sudo -n -u USER command`";
}

function env(args: readonly ProofWord[], ctx: ProofContext): Verdict {
  const at = wrapperOptions("env", { flags: "i0", valued: "u", long: ["--ignore-environment"] }, args);
  if (typeof at === "string") return at;
  let i = at;
  for (; i < args.length; i++) {
    const arg = args[i] as ProofWord;
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(arg.value);
    if (!match) break;
    const verdict = checkEnvironmentAssignment(match[1] as string, arg.static ? (match[2] as string) : null);
    if (verdict) return verdict;
  }
  const rest = args.slice(i);
  return rest.length === 0 ? null : ctx.prove.argv(rest, ctx, true);
}

/** `xargs` appends input words the proof cannot see: the inner command must take any option. */
function xargs(args: readonly ProofWord[], ctx: ProofContext): Verdict {
  const spec: ToolSpec = {
    flags: "0rtx",
    valued: "dnLPsI",
    long: ["--null", "--no-run-if-empty", "--verbose"],
  };
  const at = wrapperOptions("xargs", spec, args);
  if (typeof at === "string") return at;
  const replace = args.slice(0, at).find((arg) => arg.value.startsWith("-I"));
  const replaceString = replace
    ? replace.value.slice(2) || args[args.indexOf(replace) + 1]?.value
    : undefined;
  const rest = args.slice(at);
  const fedDevices = xargsInputReachesDevices(ctx);
  if (fedDevices) return fedDevices;
  if (rest.length === 0) {
    ctx.named.add("echo");
    return null;
  }
  const unknown: ProofWord = {
    value: "",
    raw: "<input>",
    static: false,
    mayBeOption: true,
    node: rest[0]!.node,
  };
  const filled = rest.map((word) =>
    replaceString && word.value.includes(replaceString) ? { ...unknown, raw: word.raw } : word,
  );
  if (filled[0] && !filled[0].static) return "the command xargs runs is filled in from its input";
  // GNU xargs gives the commands it runs /dev/null for input.
  return ctx.prove.argv(replaceString ? filled : [...filled, unknown], { ...ctx, stdin: [] }, true);
}

function containerExec(name: "docker exec" | "docker compose exec", spec: ToolSpec): WrapperCheck {
  return inner(name, spec, 1, true, name);
}

/** `pct exec 101 -- cmd …`: the guest id, then `--`, then argv. */
export function execAfterDashes(
  args: readonly ProofWord[],
  ctx: ProofContext,
  what: "pct exec" | "qm guest exec",
): Verdict {
  const id = args[0];
  if (!id?.static || !/^[0-9]+$/.test(id.value)) return `\`${what}\` needs a literal guest id`;
  const dashes = args[1];
  if (dashes?.value !== "--") return `\`${what}\` is proven only in the form \`${what} ID -- command\``;
  const rest = args.slice(2);
  if (rest.length === 0) return `\`${what}\` without a command`;
  return elsewhere(ctx, what, id, written(rest), (there) => ctx.prove.argv(rest, there, true));
}

export const WRAPPERS: ReadonlyMap<string, WrapperCheck> = new Map<string, WrapperCheck>([
  ["sudo", inner("sudo", { flags: "nHSk", valued: "ugh", long: ["--non-interactive"] })],
  ["doas", inner("doas", { flags: "n", valued: "u" })],
  ["pkexec", inner("pkexec", { longValued: ["--user"] })],
  ["timeout", inner("timeout", { flags: "v", valued: "sk", long: ["--preserve-status", "--foreground"] }, 1)],
  ["nice", inner("nice", { valued: "n" })],
  ["ionice", inner("ionice", { flags: "t", valued: "cn" })],
  ["time", inner("time", { flags: "p" }, 0, false)],
  [
    "command",
    (args, ctx) =>
      args[0]?.value === "-v" || args[0]?.value === "-V"
        ? null
        : inner("command", { flags: "p" }, 0, false)(args, ctx),
  ],
  ["builtin", (args, ctx) => ctx.prove.argv(args, ctx)],
  ["runuser", inner("runuser", { valued: "ug" })],
  ["env", env],
  ["xargs", xargs],
  ["bash", shell("bash")],
  ["sh", shell("posix")],
  ["dash", shell("posix")],
  ["ssh", ssh],
  ["su", su],
  [
    "watch",
    (args, ctx) => {
      const at = wrapperOptions(
        "watch",
        { flags: "tebgcpx", valued: "nd", long: ["--no-title", "--color"] },
        args,
      );
      if (typeof at === "string") return at;
      if (args.slice(0, at).some((arg) => arg.value.includes("x")))
        return ctx.prove.argv(args.slice(at), ctx, true);
      const rest = args.slice(at);
      if (rest.some((word) => !word.static)) return "`watch` runs text only known at run time";
      ctx.named.add("sh");
      return ctx.prove.script(rest.map((word) => word.value).join(" "), "posix", ctx);
    },
  ],
  [
    "lxc-attach",
    (args, ctx) => {
      const at = wrapperOptions("lxc-attach", { valued: "n", longValued: ["--name"] }, args);
      if (typeof at === "string") return at;
      if (args[at - 1]?.value !== "--")
        return "`lxc-attach` is proven only as `lxc-attach -n NAME -- command`";
      const place = firstOperand(args.slice(0, at - 1), ["-n", "--name"], true);
      const rest = args.slice(at);
      return elsewhere(ctx, "lxc-attach", place, written(rest), (there) => ctx.prove.argv(rest, there, true));
    },
  ],
]);

/**
 * Docker, compose and kubectl exec are subcommands; their tools table calls these. Not `-d`
 * (`--detach`): the command then runs on in the container after the run has ended, which nothing
 * stops.
 */
export const DOCKER_EXEC = containerExec("docker exec", {
  flags: "it",
  valued: "uw",
  long: ["--interactive", "--tty"],
  longValued: ["--user", "--workdir"],
});
export const COMPOSE_EXEC = containerExec("docker compose exec", {
  flags: "T",
  valued: "uw",
  longValued: ["--user", "--workdir", "--index"],
});

export function kubectlExec(args: readonly ProofWord[], ctx: ProofContext): Verdict {
  const dashes = args.findIndex((arg) => arg.static && arg.value === "--");
  if (dashes < 0) return "`kubectl exec` is proven only with `-- command`";
  const verdict = checkToolArgs(
    "kubectl exec",
    { flags: "it", valued: "cn", longValued: ["--container", "--namespace"], maxPositionals: 1 },
    args.slice(0, dashes),
    ctx,
  );
  if (verdict) return verdict;
  const rest = args.slice(dashes + 1);
  const pod = firstOperand(args.slice(0, dashes), ["-c", "-n", "--container", "--namespace"], false);
  return elsewhere(ctx, "kubectl exec", pod, written(rest), (there) => ctx.prove.argv(rest, there, true));
}
