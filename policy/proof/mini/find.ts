import type { ProofContext, Verdict } from "../context.ts";
import { mayHoldDevices, mayReboot } from "../devices.ts";
import type { ProofWord } from "../proof-word.ts";

/**
 * The find expression subset proven read-only: tests, `-print*`/`-ls` to standard output, `-prune`,
 * `-quit`, and `-exec`/`-execdir` whose command is itself proven (with `{}` standing for a path).
 * Never `-delete`, `-ok*`, `-fprint*`, `-fls`. Starting points must be fixed text: a run-time
 * word there could be `-delete`. From a starting point that holds device files (`/`, `/dev`,
 * `/proc`), `-exec` runs its command on those devices too (`find / -exec cat {} +` opens the
 * watchdog) unless `-type f` or `-type d` comes first and no
 * `-o` or `,` lets a path past it.
 */
const TESTS_WITH_VALUE = new Set([
  "-name",
  "-iname",
  "-path",
  "-ipath",
  "-wholename",
  "-iwholename",
  "-regex",
  "-iregex",
  "-type",
  "-xtype",
  "-size",
  "-mtime",
  "-mmin",
  "-atime",
  "-amin",
  "-ctime",
  "-cmin",
  "-newer",
  "-anewer",
  "-cnewer",
  "-user",
  "-group",
  "-uid",
  "-gid",
  "-perm",
  "-links",
  "-inum",
  "-maxdepth",
  "-mindepth",
  "-printf",
  "-regextype",
  "-samefile",
  "-lname",
  "-ilname",
  "-fstype",
  "-used",
  "-newermt",
  "-newerct",
  "-newerat",
  "-newermm",
  "-context",
]);
const TESTS = new Set([
  "-print",
  "-print0",
  "-ls",
  "-prune",
  "-quit",
  "-true",
  "-false",
  "-not",
  "!",
  "-a",
  "-o",
  "-and",
  "-or",
  "(",
  ")",
  ",",
  "-empty",
  "-readable",
  "-writable",
  "-executable",
  "-xdev",
  "-mount",
  "-depth",
  "-follow",
  "-daystart",
  "-nouser",
  "-nogroup",
  "-noleaf",
  "-ignore_readdir_race",
  "-nowarn",
  "-warn",
]);
const GLOBAL = new Set(["-L", "-H", "-P"]);

export type ArgvProver = (argv: readonly ProofWord[], ctx: ProofContext) => Verdict;

export function checkFind(args: readonly ProofWord[], ctx: ProofContext, proveArgv: ArgvProver): Verdict {
  let i = 0;
  while (i < args.length && args[i]?.static && GLOBAL.has(args[i]?.value as string)) i++;
  // Starting points: up to the first word that starts an expression.
  const starts: ProofWord[] = [];
  for (; i < args.length; i++) {
    const arg = args[i] as ProofWord;
    if (arg.static && (arg.value.startsWith("-") || ["(", "!", ")", ","].includes(arg.value))) break;
    if (arg.mayBeOption)
      return `the find starting point \`${arg.raw}\` could be read as an expression at run time`;
    starts.push(arg);
  }
  const expression = args.slice(i);
  const reachesDevices = starts.length === 0 || starts.some(mayHoldDevices);
  if (reachesDevices && !devicesFilteredBeforeExec(expression)) {
    return mayReboot(
      "find runs its -exec command on everything under a starting point that holds device files " +
        "(opening a watchdog reboots the machine); put `-type f` or `-type d` before `-exec`",
      ctx,
    );
  }
  for (; i < args.length; i++) {
    const arg = args[i] as ProofWord;
    if (!arg.static) return `\`${arg.raw}\` in a find expression is only known at run time`;
    const token = arg.value;
    if (TESTS.has(token)) continue;
    if (TESTS_WITH_VALUE.has(token)) {
      const value = args[i + 1];
      if (!value) return `find \`${token}\` needs a value`;
      // `-name *` unquoted: the shell expands it to every file here, and one named `-delete` acts.
      if (value.manyWords)
        return `find \`${token} ${value.raw}\`: the value may become several words at run time; quote it`;
      i++;
      continue;
    }
    if (token === "-exec" || token === "-execdir") {
      const end = args.findIndex((a, k) => k > i && a.static && (a.value === ";" || a.value === "+"));
      if (end < 0) return `find \`${token}\` is not terminated`;
      const inner = args
        .slice(i + 1, end)
        .map((word) =>
          word.static && word.value === "{}" ? { ...word, value: "/found/path", mayBeOption: false } : word,
        );
      if (inner[0]?.value === "/found/path") return "find runs the found file itself";
      const verdict = proveArgv(inner, ctx);
      if (verdict) return `find ${token} runs a command that is not proven read-only: ${verdict}`;
      i = end;
      continue;
    }
    return `find \`${token}\` is not proven read-only (no -delete, -ok, -fprint, -fls)`;
  }
  return null;
}

/** Whether every path reaching an `-exec` was filtered to files or directories first. */
function devicesFilteredBeforeExec(expression: readonly ProofWord[]): boolean {
  const firstExec = expression.findIndex((a) => a.static && /^-(exec|execdir)$/.test(a.value));
  if (firstExec < 0) return true;
  const before = expression.slice(0, firstExec);
  if (expression.some((a) => a.static && ["-o", "-or", ",", "!", "-not"].includes(a.value))) return false;
  return before.some(
    (a, k) => a.static && a.value === "-type" && /^[fd](,[fd])*$/.test(before[k + 1]?.value ?? ""),
  );
}
