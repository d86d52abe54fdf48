import type { Finding, Risk } from "./risk.ts";
import type { UnreadableKind } from "./unreadable.ts";
import type { WordValue } from "./words.ts";

/** One argument of a simple command: its value after quote removal and its source text. */
export interface Arg {
  value: string;
  raw: string;
  dynamic: WordValue["dynamic"];
}

/** A simple command as the rules see it: resolved name (basename) and arguments. */
export interface CommandView {
  name: string;
  args: Arg[];
  /** Source-ish text of this command, for reasons. */
  text: string;
}

/** What a rule may ask of the classifier while it judges a command. */
export interface RuleContext {
  /** Classifies a command given as argv (wrappers: `sudo rm …`, `find -exec rm {} ;`). */
  classifyArgv(args: Arg[], elsewhere?: boolean): Finding[];
  /** Parses and classifies a shell script given as text (`bash -c '…'`, `ssh host '…'`). */
  classifyScript(
    script: string,
    origin: string,
    dynamic: WordValue["dynamic"],
    elsewhere?: boolean,
  ): Finding[];
  /** Judges a write to a path: config_mutation, destructive for devices and system files. */
  /** `truncates`: the write replaces the file's content (`>`, `tee`, `sort -o`), not appends. */
  writeTo(path: Arg, how: string, truncates?: boolean): Finding;
  /** Script text fed on stdin by a heredoc or here-string (`bash <<'EOF' … EOF`), if any. */
  stdinScript: { text: string; dynamic: WordValue["dynamic"] } | null;
  targetType: string;
}

export function literalArg(value: string): Arg {
  return { value, raw: value, dynamic: "none" };
}

export function argsText(args: readonly Arg[]): string {
  return args.map((arg) => arg.raw).join(" ");
}

export function finding(risk: Risk, reason: string): Finding {
  return { risk, reason };
}

/** Destructive because oikos cannot read what runs (policy/unreadable.ts): a typed confirmation. */
export function unreadableFinding(kind: UnreadableKind, reason: string): Finding {
  return { risk: "destructive", reason, unreadable: kind };
}

const BUNDLE = /^-[A-Za-z0-9]{2,}$/;

/** True when `token` is `flag`, `--flag=value`, or a bundle of short flags holding it (`-rf` has `-f`). */
export function optionMatches(token: string, flag: string, bundles = true): boolean {
  if (token === flag) return true;
  if (flag.startsWith("--"))
    return token.length > flag.length && token.startsWith(flag) && token[flag.length] === "=";
  return (
    bundles && flag.length === 2 && flag[0] === "-" && BUNDLE.test(token) && token.includes(flag[1] as string)
  );
}

export function hasOption(args: readonly Arg[], flags: readonly string[], bundles = true): Arg | undefined {
  for (const arg of args) {
    const token = arg.value;
    if (token === "--") return undefined;
    if (token.length < 2 || token[0] !== "-") continue;
    const long = token[1] === "-";
    const bundle = bundles && !long && token.length > 2 && BUNDLE.test(token);
    for (const flag of flags) {
      if (token === flag) return arg;
      if (long) {
        if (token.length > flag.length && token[flag.length] === "=" && token.startsWith(flag)) return arg;
      } else if (bundle && flag.length === 2 && flag[0] === "-" && token.includes(flag[1] as string)) {
        return arg;
      }
    }
  }
  return undefined;
}

/**
 * Value of an option given as `-o x`, `-ox`, `--out x` or `--out=x`; failing those, inside a bundle
 * of short flags (`-so x`, `-sLo/x`). The bundle reading is a guess (`-Hfoo` could be `-H foo`), so
 * the plain forms win wherever they appear.
 */
export function optionValue(args: readonly Arg[], flags: readonly string[]): Arg | undefined {
  return plainOptionValue(args, flags) ?? bundledOptionValue(args, flags);
}

function plainOptionValue(args: readonly Arg[], flags: readonly string[]): Arg | undefined {
  for (let i = 0; i < args.length; i++) {
    const token = (args[i] as Arg).value;
    if (token === "--") return undefined;
    for (const flag of flags) {
      if (token === flag) return args[i + 1];
      if (flag.startsWith("--") && token.startsWith(`${flag}=`)) {
        const arg = args[i] as Arg;
        return { ...arg, value: token.slice(flag.length + 1) };
      }
      if (flag.length === 2 && token.startsWith(flag) && token.length > 2 && !token.startsWith("--")) {
        const arg = args[i] as Arg;
        return { ...arg, value: token.slice(2) };
      }
    }
  }
  return undefined;
}

function bundledOptionValue(args: readonly Arg[], flags: readonly string[]): Arg | undefined {
  for (let i = 0; i < args.length; i++) {
    const token = (args[i] as Arg).value;
    if (token === "--") return undefined;
    if (token.length < 3 || token[0] !== "-" || token[1] === "-") continue;
    for (const flag of flags) {
      if (flag.length !== 2 || flag[0] !== "-") continue;
      const at = token.indexOf(flag[1] as string, 1);
      if (at < 0 || !/^[A-Za-z0-9]*$/.test(token.slice(1, at))) continue;
      if (at === token.length - 1) return args[i + 1];
      const arg = args[i] as Arg;
      return { ...arg, value: token.slice(at + 1) };
    }
  }
  return undefined;
}

/** Positional arguments, skipping options and the values of `valueOptions`. */
export function positionals(args: readonly Arg[], valueOptions: readonly string[] = []): Arg[] {
  const out: Arg[] = [];
  let optionsDone = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as Arg;
    if (optionsDone) {
      out.push(arg);
      continue;
    }
    if (arg.value === "--") {
      optionsDone = true;
      continue;
    }
    if (arg.value.startsWith("-") && arg.value.length > 1) {
      if (valueOptions.includes(arg.value)) i++;
      continue;
    }
    out.push(arg);
  }
  return out;
}

/**
 * The arguments from the first positional on (a wrapper's inner command), skipping the
 * wrapper's own options and their values. `--` ends the options.
 */
export function afterOptions(
  args: readonly Arg[],
  valueOptions: readonly string[] = [],
  skipPositionals = 0,
): Arg[] {
  let skipped = 0;
  for (let i = 0; i < args.length; i++) {
    const token = (args[i] as Arg).value;
    if (token === "--") {
      const rest = args.slice(i + 1);
      return rest.slice(Math.max(0, skipPositionals - skipped));
    }
    if (token.startsWith("-") && token.length > 1) {
      if (valueOptions.includes(token)) i++;
      continue;
    }
    if (skipped < skipPositionals) {
      skipped++;
      continue;
    }
    return args.slice(i);
  }
  return [];
}
