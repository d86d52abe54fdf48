import { BUILTINS } from "./builtins.ts";
import { checkToolArgs } from "./check-options.ts";
import type { ProofContext, Verdict } from "./context.ts";
import { MAX_PROOF_DEPTH } from "./context.ts";
import { reachesDevice } from "./devices.ts";
import { grantWords } from "./grants.ts";
import { HELP_PROGRAMS, helpIsSafe, onlyHelpOrVersion } from "./help.ts";
import type { ProofWord } from "./proof-word.ts";
import { TOOLS } from "./tools/index.ts";
import { unboundedRead } from "./unbounded.ts";
import { WRAPPERS } from "./wrappers.ts";

/** Paths where a command name still means the system tool of that name. */
const SYSTEM_BIN = /^\/(usr\/)?s?bin\/[^/]+$/;

/** Pagers, editors and interactive viewers take keystrokes that run shells: never read-only. */
const INTERACTIVE = new Set([
  "less",
  "more",
  "most",
  "pg",
  "view",
  "vi",
  "vim",
  "nvim",
  "nano",
  "emacs",
  "ed",
  "ex",
  "man",
  "info",
  "mc",
  "htop",
  "btop",
  "atop",
  "iotop",
  "iftop",
  "nload",
  "ncdu",
  "screen",
  "zless",
  "zmore",
]);

/** Builtins that are also programs of the same name, so a wrapper that execs them runs those. */
const PROGRAM_TWINS = new Set(["echo", "printf", "true", "false", "test", "[", "pwd", "kill"]);

/**
 * Proves one simple command given as words (the name first). `external`: the words are exec'd by
 * a wrapper (`xargs echo`, `sudo test …`), not run by the shell, so no builtin applies.
 */
export function proveArgv(argv: readonly ProofWord[], ctx: ProofContext, external = false): Verdict {
  if (ctx.depth > MAX_PROOF_DEPTH) return `it nests commands more than ${MAX_PROOF_DEPTH} levels deep`;
  const head = argv[0];
  if (!head) return null;
  if (!head.static) return `the command name \`${head.raw}\` is only known at run time`;
  const name = head.value;
  const initScript = /^\/etc\/init\.d\/([^/]+)$/.exec(name);
  if (initScript) ctx.named.add(initScript[1] as string);
  if (initScript)
    return proveArgv(
      [{ ...head, value: "service" }, { ...head, value: initScript[1] as string }, ...argv.slice(1)],
      ctx,
    );
  if (name.includes("/") && !SYSTEM_BIN.test(name)) {
    return `\`${name}\` is a program outside the system directories, not the tool of that name`;
  }
  const base = name.slice(name.lastIndexOf("/") + 1);
  const args = argv.slice(1);
  for (const arg of args) {
    const device = reachesDevice(arg, ctx);
    if (device) return device;
  }
  const endless = unboundedRead(base, args, ctx);
  if (endless) return endless;
  if (INTERACTIVE.has(base) || (base === "tmux" && args.length === 0)) {
    return `\`${base}\` is a pager, editor or interactive viewer, whose keystrokes can run commands`;
  }
  const builtin = name.includes("/") ? undefined : BUILTINS.get(name);
  if (builtin && external && !PROGRAM_TWINS.has(name)) {
    return `\`${name}\` is a shell builtin; exec'd by a wrapper it is whatever program has that name`;
  }
  if (builtin && !external) return grantWords(args, ctx) ?? builtin(args, ctx);
  ctx.named.add(base);
  if (builtin) return grantWords(args, ctx) ?? builtin(args, ctx);
  const spec = TOOLS.get(base);
  if (onlyHelpOrVersion(args) && helpIsSafe(base) && (spec || WRAPPERS.has(base) || HELP_PROGRAMS.has(base)))
    return null;
  const wrapper = WRAPPERS.get(base);
  if (wrapper) return wrapper(args, { ...ctx, depth: ctx.depth + 1 });
  if (!spec) return `\`${base}\` is not a command proven read-only`;
  for (const helper of spec.helpers ?? []) ctx.named.add(helper);
  return checkToolArgs(base, spec, args, ctx);
}
