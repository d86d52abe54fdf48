import type { Arg } from "./command-view.ts";
import { RULES } from "./rules/index.ts";

const SHELLS = new Set(["sh", "bash", "dash", "zsh", "ksh", "ash", "mksh", "fish", "rbash"]);
const INTERPRETERS = new Set([
  "python",
  "python2",
  "python3",
  "perl",
  "ruby",
  "node",
  "php",
  "lua",
  "tclsh",
  "pwsh",
]);
const INLINE_CODE_FLAGS = /^-[A-Za-z]*[cem]/;

function basename(name: string): string {
  const slash = name.lastIndexOf("/");
  return slash >= 0 ? name.slice(slash + 1) : name;
}

/** Follows wrappers (`sudo`, `env`, `nice` …) to the command that actually runs. */
export function unwrapArgv(argv: Arg[]): Arg[] {
  let current = argv;
  for (let i = 0; i < 8; i++) {
    const head = current[0];
    if (!head) return current;
    if (head.dynamic !== "none") return current;
    const name = basename(head.value);
    const rule = RULES.get(name);
    if (!rule?.inner) return current;
    const inner = rule.inner({ name, args: current.slice(1), text: "" });
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
