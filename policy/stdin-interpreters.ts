import type { Arg } from "./command-view.ts";
import { afterOptions } from "./command-view.ts";
import { COMMON_EXEC_VALUE_OPTIONS } from "./rules/docker-tables.ts";
import { RULES } from "./rules/index.ts";
import { SHELL_NAMES, SSH_VALUE_OPTIONS } from "./rules/shells.ts";
import { SCRIPT_INTERPRETERS } from "./rules/text.ts";

const SHELLS = new Set(SHELL_NAMES);
// tclsh has no rule of its own, but `tclsh` with no script reads one from stdin.
const INTERPRETERS = new Set([...SCRIPT_INTERPRETERS, "tclsh"]);
const INLINE_CODE_FLAGS = /^-[A-Za-z]*[cem]/;

function basename(name: string): string {
  const slash = name.lastIndexOf("/");
  return slash >= 0 ? name.slice(slash + 1) : name;
}

const EXEC_HOSTS = new Set([
  "docker",
  "podman",
  "nerdctl",
  "docker-compose",
  "podman-compose",
  "kubectl",
  "oc",
  "pct",
  "qm",
]);
const EXEC_VALUE_OPTIONS = [
  ...COMMON_EXEC_VALUE_OPTIONS,
  "-n",
  "--namespace",
  "-c",
  "--container",
  "--timeout",
];

/** `docker exec -i web sh`, `kubectl exec -i pod -- sh`, `pct exec 101 -- sh`: the command run inside. */
function execInner(args: Arg[]): Arg[] {
  const exec = args.findIndex((arg) => arg.value === "exec");
  if (exec < 0) return [];
  const rest = args.slice(exec + 1);
  const dash = rest.findIndex((arg) => arg.value === "--");
  return dash >= 0 ? rest.slice(dash + 1) : afterOptions(rest, EXEC_VALUE_OPTIONS, 1);
}

/** Follows wrappers (`sudo`, `env`, `nice`, `docker exec` …) to the command that actually runs. */
export function unwrapArgv(argv: Arg[]): Arg[] {
  let current = argv;
  for (let i = 0; i < 8; i++) {
    const head = current[0];
    if (!head) return current;
    if (head.dynamic !== "none") return current;
    const name = basename(head.value);
    const rule = RULES.get(name);
    const inner = EXEC_HOSTS.has(name)
      ? execInner(current.slice(1))
      : rule?.inner
        ? rule.inner({ name, args: current.slice(1), text: "" })
        : [];
    if (inner.length === 0) return current;
    current = inner;
  }
  return current;
}

/**
 * The interpreter's name when this command reads the program it runs from stdin (`sh`,
 * `sudo bash -s`, `python3 -`, `. /dev/stdin`), otherwise null.
 */
export function readsScriptFromStdin(argv: Arg[]): string | null {
  let resolved = unwrapArgv(argv);
  const head = resolved[0];
  if (!head) return null;
  if (head.dynamic !== "none") return null;
  let name = basename(head.value);
  if (name === "busybox" && resolved[1]) {
    resolved = resolved.slice(1);
    name = basename((resolved[0] as Arg).value);
  }
  const args = resolved.slice(1);
  // `at` and `batch` run what arrives on stdin; so does `ssh host` without a remote command.
  if ((name === "at" || name === "batch") && !args.some((arg) => /^-[a-zA-Z]*[flrdc]/.test(arg.value)))
    return name;
  if (name === "ssh" && afterOptions(args, SSH_VALUE_OPTIONS, 1).length === 0) return "ssh";
  if (name === "source" || name === ".") {
    const file = args[0]?.value;
    return file === "/dev/stdin" || file === "-" || file === "/proc/self/fd/0" ? name : null;
  }
  if (!SHELLS.has(name) && !INTERPRETERS.has(name)) return null;
  let readsStdin = false;
  for (const arg of args) {
    const value = arg.value;
    if (readsStdin) break; // after `-s` / `-` the rest are arguments to the program read from stdin
    if (value === "-" || value === "-s") {
      readsStdin = true;
      continue;
    }
    if (value === "--") continue;
    if (value.startsWith("-")) {
      if (SHELLS.has(name) ? /^-[A-Za-z]*c/.test(value) : INLINE_CODE_FLAGS.test(value)) return null;
      continue;
    }
    return null; // a script file or inline code: it does not read its program from stdin
  }
  return name;
}
