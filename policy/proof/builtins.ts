import { checkToolArgs } from "./check-options.ts";
import type { ProofContext, Verdict } from "./context.ts";
import { absolutePath, mayReboot } from "./devices.ts";
import { checkScratchVariable } from "./environment.ts";
import type { ProofWord } from "./proof-word.ts";
import type { ToolSpec } from "./tool-spec.ts";

/**
 * The closed set of bash builtins a read-only command may use, each with its arguments checked.
 * Left out on purpose: `eval`-likes and code loaders (`source`, `.`, `exec`, `enable`, `fc`,
 * `compgen`, `complete`, `mapfile -C`), builtins that change what later words mean (`hash -p`,
 * `alias`, `shopt -s expand_aliases`, `set -x` with `PS4`, `export`, `declare -i`, `let`,
 * `printf -v`, `getopts`), `trap` handlers, `kill`, `history -w`, `ulimit`/`umask` changes.
 */
export type BuiltinCheck = (args: readonly ProofWord[], ctx: ProofContext) => Verdict;

const anyArgs: BuiltinCheck = () => null;

const staticOnly =
  (pattern: RegExp, what: string): BuiltinCheck =>
  (args) => {
    for (const arg of args) {
      if (!arg.static || !pattern.test(arg.value)) return `\`${arg.raw}\` ${what}`;
    }
    return null;
  };

const withSpec =
  (name: string, spec: ToolSpec): BuiltinCheck =>
  (args, ctx) =>
    checkToolArgs(name, spec, args, ctx);

const SHELL_OPTIONS = new Set(["errexit", "nounset", "pipefail", "noglob", "noclobber"]);
const SHOPT_OPTIONS = new Set([
  "nullglob",
  "failglob",
  "dotglob",
  "globstar",
  "nocaseglob",
  "nocasematch",
  "extglob",
  "lastpipe",
]);

function setCheck(args: readonly ProofWord[]): Verdict {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as ProofWord;
    if (!arg.static) return "`set` with a run-time argument is not proven";
    if (/^[-+][eufCo]+$/.test(arg.value)) {
      if (arg.value.includes("o")) {
        const name = args[++i];
        if (!name?.static || !SHELL_OPTIONS.has(name.value)) {
          return `\`set -o ${name?.raw ?? ""}\` is not an option proven harmless (xtrace runs PS4)`;
        }
      }
      continue;
    }
    return `\`set ${arg.raw}\` changes the shell beyond the proven options (-e, -u, -f, -C, -o pipefail)`;
  }
  return null;
}

function shoptCheck(args: readonly ProofWord[]): Verdict {
  // Flags bundle (`-os` is `-o -s`), and `-o` names `set` options: read every flag first.
  const flags = new Set<string>();
  const names: ProofWord[] = [];
  for (const arg of args) {
    if (!arg.static) return "`shopt` with a run-time argument is not proven";
    if (/^-[pqsuo]+$/.test(arg.value)) for (const flag of arg.value.slice(1)) flags.add(flag);
    else if (arg.value.startsWith("-")) return `\`shopt ${arg.value}\` is not an option proven harmless`;
    else names.push(arg);
  }
  if (!flags.has("s") && !flags.has("u")) return null;
  const proven = flags.has("o") ? SHELL_OPTIONS : SHOPT_OPTIONS;
  for (const name of names) {
    if (!proven.has(name.value))
      return `\`shopt ${flags.has("o") ? "-o " : ""}-s ${name.value}\` is not an option proven harmless (\`-o keyword\` turns arguments into environment, \`extdebug\` changes traps); only ${[...proven].join(", ")} are`;
  }
  return null;
}

function readCheck(args: readonly ProofWord[], ctx: ProofContext): Verdict {
  const spec: ToolSpec = { flags: "rse", valued: "dnNptu" };
  const names: ProofWord[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as ProofWord;
    if (!arg.static) return "`read` into a run-time name is not proven";
    if (arg.value === "-a") {
      const name = args[++i];
      if (!name) return "`read -a` needs a name";
      names.push(name);
      continue;
    }
    if (arg.value.startsWith("-")) {
      const verdict = checkToolArgs("read", spec, args.slice(i, i + 2), ctx);
      if (verdict) return verdict;
      if (/^-[rse]*[dnNptu]$/.test(arg.value)) i++;
      continue;
    }
    names.push(arg);
  }
  for (const name of names) {
    const verdict = checkScratchVariable(name.value);
    if (verdict) return verdict;
  }
  return null;
}

function printfCheck(args: readonly ProofWord[]): Verdict {
  const first = args[0];
  if (!first) return null;
  if (first.static && first.value === "-v")
    return "`printf -v` assigns through a name that can hold a subscript";
  if (!first.static && first.mayBeOption) return "`printf` with a run-time format could be `-v`";
  return null;
}

function testCheck(args: readonly ProofWord[]): Verdict {
  for (const arg of args) {
    if (arg.static && (arg.value === "-v" || arg.value === "-R")) {
      return `\`test ${arg.value}\` evaluates a subscript, which can run code`;
    }
    if (!arg.static && arg.mayBeOption) return `\`${arg.raw}\` unquoted in \`test\` could become \`-v\``;
  }
  return null;
}

const INTEGER = /^[0-9]+$/;

function cdCheck(args: readonly ProofWord[], ctx: ProofContext): Verdict {
  const verdict = checkToolArgs("cd", { flags: "LPe", maxPositionals: 1 }, args, ctx);
  if (verdict) return verdict;
  for (const arg of args) {
    if (arg.static && /^\/(dev|proc)(\/|$)/.test(absolutePath(arg.value)))
      return mayReboot("`cd` into /dev or /proc, where relative names and globs reach the watchdog", ctx);
    if (!arg.static && arg.mayBeOption)
      return "`cd` into a directory only known at run time, where relative names could reach devices";
  }
  return null;
}

export const BUILTINS: ReadonlyMap<string, BuiltinCheck> = new Map<string, BuiltinCheck>([
  ["echo", anyArgs],
  [":", anyArgs],
  ["true", anyArgs],
  ["false", anyArgs],
  ["printf", printfCheck],
  ["test", testCheck],
  ["[", testCheck],
  ["pwd", withSpec("pwd", { flags: "LP", maxPositionals: 0 })],
  ["cd", cdCheck],
  ["dirs", withSpec("dirs", { flags: "clpv", maxPositionals: 0 })],
  ["type", withSpec("type", { flags: "afptP", anyOption: true })],
  ["hash", withSpec("hash", { flags: "lt", anyOption: false })],
  ["help", withSpec("help", { flags: "dms" })],
  ["jobs", withSpec("jobs", { flags: "lnprs" })],
  ["times", staticOnly(/^$/, "is not an argument of times")],
  ["wait", staticOnly(/^(-n|-f|%?[0-9]+)$/, "is not a job or process id")],
  ["exit", staticOnly(INTEGER, "is not a literal exit status")],
  ["return", staticOnly(INTEGER, "is not a literal status")],
  ["break", staticOnly(INTEGER, "is not a literal loop count")],
  ["continue", staticOnly(INTEGER, "is not a literal loop count")],
  ["shift", staticOnly(INTEGER, "is not a literal count")],
  ["set", setCheck],
  ["shopt", shoptCheck],
  ["read", readCheck],
  ["umask", staticOnly(/^-[pS]$/, "changes the file creation mask")],
  ["ulimit", staticOnly(/^-[aHS]+$/, "changes a resource limit")],
  [
    "kill",
    (args, ctx) => killOnlyLists(args) ?? staticOnly(/^(-l|-L|-0|[0-9]+)$/, "signals a process")(args, ctx),
  ],
  ["trap", staticOnly(/^-[lp]$/, "sets a trap handler")],
  ["alias", staticOnly(/^-p$/, "defines an alias")],
  ["history", staticOnly(INTEGER, "writes, reads or clears the history")],
]);

/** `kill -l 9` lists; `kill 9` alone would signal. The table above allows digits only after -l. */
export function killOnlyLists(args: readonly ProofWord[]): Verdict {
  const first = args[0]?.value;
  if (args.length > 0 && first !== "-l" && first !== "-L" && first !== "-0")
    return "`kill` signals a process";
  return null;
}
