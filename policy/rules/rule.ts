import type { Arg, CommandView, RuleContext } from "../command-view.ts";
import { finding, hasOption, optionMatches, positionals } from "../command-view.ts";
import { visibleDestructiveWord } from "../dynamic-names.ts";
import type { Finding, Risk } from "../risk.ts";
import { maxRisk, quoteSegment } from "../risk.ts";

/** A command line with the risk it must classify as. Every rule carries its own. */
export type RuleExample = readonly [command: string, expected: Risk];

/**
 * How one command (or a family of names) is judged. Tables first; `refine` only for what a
 * table cannot say (paths, inline SQL, scripts, inner commands of wrappers).
 */
export interface CommandRule {
  names: readonly string[];
  /** What the command does, completing "`cmd …` <what>": "deletes files". */
  what: string;
  /** Risk when no subcommand or flag below decides otherwise. */
  risk: Risk;
  /** Risk when there are no positional arguments at all (`mount`, `systemctl`, `docker compose ps`). */
  whenBare?: Risk;
  /** Options that still count as "no arguments" for `whenBare` (`systemctl --failed`, `hostname -f`). */
  bareFlags?: readonly string[];
  /** Options that take a separate value (so the value is not read as a subcommand). */
  valueOptions?: readonly string[];
  /** Subcommand paths (first positional words, multi-word allowed: "compose logs"). */
  subcommands?: {
    readOnly?: readonly string[];
    mutating?: readonly string[];
    destructive?: readonly string[];
  };
  /** Options that decide the risk: a read-only flag lowers the default, the others raise it. */
  flags?: {
    readOnly?: readonly string[];
    mutating?: readonly string[];
    destructive?: readonly string[];
  };
  /** Options that make the whole command a dry run (`rsync -n`, `apt-get -s`). */
  dryRun?: readonly string[];
  /**
   * Arguments decided at run time (`$X`) could be options that change what the command does. By
   * default that floors flag-sensitive commands to config_mutation, except after a known
   * subcommand (`docker logs $c`); set this to keep the floor there too (`git log $X` could be
   * `--output=…`).
   */
  dynamicArgsUnsafe?: boolean;
  /** Whether `-abc` bundles short flags (false for tools with single-dash long options). */
  bundles?: boolean;
  /** The command only runs another command; its own verdict adds nothing (sudo, env, nice …). */
  wrapper?: boolean;
  /** The inner command runs on another machine or container (`lxc-attach`), not on the target. */
  innerElsewhere?: boolean;
  /** For wrappers: the inner command's argv (`sudo -u x rm a` gives `rm a`), empty when there is none. */
  inner?: (view: CommandView) => Arg[];
  refine?: (view: CommandView, ctx: RuleContext) => Finding[];
  examples: readonly RuleExample[];
}

const RISK_WORDS: Record<Risk, string> = {
  read_only: "read-only",
  config_mutation: "config_mutation",
  destructive: "destructive",
  reject: "rejected",
};

/** The subcommand key of `rule` this command uses (`compose logs`), or null. */
export function matchSubcommand(rule: CommandRule, view: CommandView): string | null {
  return subcommandPath(rule, view).key;
}

function subcommandPath(rule: CommandRule, view: CommandView): { key: string | null; first: Arg | null } {
  const { keys, prefixes } = keyIndex(rule);
  const words: string[] = [];
  let first: Arg | null = null;
  let matched: string | null = null;
  const args = view.args;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as Arg;
    if (arg.value === "--") break;
    if (arg.value.startsWith("-") && arg.value.length > 1) {
      if (rule.valueOptions?.includes(arg.value)) i++;
      continue;
    }
    first ??= arg;
    if (arg.dynamic !== "none") {
      // `docker compose $SUB`: the word that would pick the subcommand is only known at run time.
      if (words.length === 0 || prefixes.has(words.join(" "))) return { key: null, first: arg };
      break;
    }
    words.push(arg.value);
    const path = words.join(" ");
    if (keys.has(path)) matched = path;
    if (!prefixes.has(path)) break;
  }
  if (matched && prefixes.has(matched) && words.length > matched.split(" ").length) {
    // `docker compose frob`: `compose` matched, but the word after it is no known `compose …` key.
    return { key: null, first: unknownArg(args, words[matched.split(" ").length] as string) };
  }
  return { key: matched, first };
}

function unknownArg(args: readonly Arg[], value: string): Arg {
  return args.find((arg) => arg.value === value) ?? { value, raw: value, dynamic: "none" };
}

/** All subcommand keys, and every proper prefix of a multi-word key (`compose` of `compose logs`). */
interface KeyIndex {
  keys: Set<string>;
  prefixes: Set<string>;
}

const keyCache = new WeakMap<CommandRule, KeyIndex>();

function keyIndex(rule: CommandRule): KeyIndex {
  let index = keyCache.get(rule);
  if (!index) {
    const sub = rule.subcommands ?? {};
    const keys = new Set([...(sub.readOnly ?? []), ...(sub.mutating ?? []), ...(sub.destructive ?? [])]);
    const prefixes = new Set<string>();
    for (const key of keys) {
      const parts = key.split(" ");
      for (let n = 1; n < parts.length; n++) prefixes.add(parts.slice(0, n).join(" "));
    }
    index = { keys, prefixes };
    keyCache.set(rule, index);
  }
  return index;
}

function subcommandRisk(rule: CommandRule, key: string): Risk {
  const sub = rule.subcommands ?? {};
  if (sub.destructive?.includes(key)) return "destructive";
  if (sub.mutating?.includes(key)) return "config_mutation";
  return "read_only";
}

/** Judges one command by its rule: the table verdict plus whatever `refine` adds. */
export function evaluateRule(rule: CommandRule, view: CommandView, ctx: RuleContext): Finding[] {
  const q = quoteSegment(view.text);
  const bundles = rule.bundles ?? true;
  const findings: Finding[] = [];
  let risk: Risk = rule.risk;
  let reason = `${q} ${rule.what}`;
  const inner = rule.inner ? rule.inner(view) : [];
  let matchedKey: string | null = null;

  if (rule.inner) {
    // For wrappers `whenBare` is the risk when there is no inner command (`sudo -i`, `chroot /mnt`).
    if (inner.length === 0) risk = rule.whenBare ?? rule.risk;
  } else if (rule.subcommands) {
    const { key, first } = subcommandPath(rule, view);
    if (key) {
      matchedKey = key;
      risk = subcommandRisk(rule, key);
      reason = `${q}: \`${view.name} ${key}\` ${describe(risk)}`;
    } else if (!first) {
      risk = onlyReadOnlyOptions(rule, view.args, bundles) ? (rule.whenBare ?? rule.risk) : rule.risk;
      reason = `${q} ${rule.what}`;
    } else if (first.dynamic !== "none") {
      const verb = visibleDestructiveWord([first]);
      risk = maxRisk(rule.risk, verb ? "destructive" : "config_mutation");
      reason = verb
        ? `${q}: the ${view.name} subcommand \`${first.raw}\` is decided at run time and \`${verb}\` is visible (destructive)`
        : `${q}: the ${view.name} subcommand \`${first.raw}\` is decided at run time, so it cannot be proven read-only`;
    } else {
      reason = `${q}: \`${first.value}\` is not a ${view.name} subcommand oikos knows, so it is treated as ${RISK_WORDS[risk]}`;
    }
  } else if (
    rule.whenBare !== undefined &&
    positionals(view.args, rule.valueOptions).length === 0 &&
    onlyReadOnlyOptions(rule, view.args, bundles)
  ) {
    risk = rule.whenBare;
  }

  const flags = rule.flags;
  // A read-only flag lowers only the default: never a subcommand the table calls mutating or destructive.
  if (flags?.readOnly && risk !== "read_only" && matchedKey === null) {
    const flag = hasOption(view.args, flags.readOnly, bundles);
    if (flag) {
      risk = "read_only";
      reason = `${q}: \`${flag.value}\` only reads`;
    }
  }
  if (flags?.mutating && risk === "read_only") {
    const flag = hasOption(view.args, flags.mutating, bundles);
    if (flag) {
      risk = "config_mutation";
      reason = `${q}: \`${flag.value}\` makes \`${view.name}\` change state (config_mutation)`;
    }
  }
  if (flags?.destructive && risk !== "destructive") {
    const flag = hasOption(view.args, flags.destructive, bundles);
    if (flag) {
      risk = "destructive";
      reason = `${q}: \`${flag.value}\` makes \`${view.name}\` destructive`;
    }
  }
  // A wrapper's own verdict only matters when it adds risk or runs nothing else.
  if (!rule.wrapper || risk !== "read_only" || (rule.inner && inner.length === 0)) {
    findings.push(finding(risk, withRisk(reason, risk)));
  }
  if (inner.length > 0) findings.push(...ctx.classifyArgv(inner, rule.innerElsewhere ?? false));

  if (rule.refine) findings.push(...rule.refine(view, ctx));

  const afterKnownSubcommand = matchedKey !== null && !rule.dynamicArgsUnsafe;
  if ((flags?.mutating || flags?.destructive || rule.refine) && !afterKnownSubcommand) {
    const dynamicOption = view.args.find((arg) => arg.dynamic !== "none" && /^["']?[$`]/.test(arg.raw));
    if (dynamicOption && !rule.wrapper) {
      findings.push(
        finding(
          "config_mutation",
          `${q}: argument \`${dynamicOption.raw}\` is decided at run time and could change what \`${view.name}\` does`,
        ),
      );
    }
  }

  if (rule.dryRun) {
    const flag = hasOption(view.args, rule.dryRun, bundles);
    if (flag) {
      return [finding("read_only", `${q}: \`${flag.value}\` makes it a dry run (read-only)`)];
    }
  }
  return findings;
}

/**
 * "No arguments" means none, or only flags the table knows to be read-only: `firewall-cmd --reload`
 * or `hostname -F file` have no positionals but still act.
 */
/** Alone, these only print usage or the version, whatever the tool. */
const HELP_FLAGS = ["--help", "-h", "--version", "-V"];

function onlyReadOnlyOptions(rule: CommandRule, args: readonly Arg[], bundles: boolean): boolean {
  const known = [
    ...HELP_FLAGS,
    ...(rule.flags?.readOnly ?? []),
    ...(rule.dryRun ?? []),
    ...(rule.bareFlags ?? []),
  ];
  for (const arg of args) {
    if (arg.value === "--") return true;
    if (!arg.value.startsWith("-") || arg.value.length < 2) continue;
    const bundle = bundles && /^-[A-Za-z0-9]{2,}$/.test(arg.value);
    // Every letter of a bundle must be known: `-Fs` is not bare because `-s` alone would be.
    if (
      bundle
        ? ![...arg.value.slice(1)].every((c) => known.includes(`-${c}`))
        : !hasOption([arg], known, false)
    )
      return false;
  }
  return true;
}

function describe(risk: Risk): string {
  switch (risk) {
    case "read_only":
      return "only reads (read-only)";
    case "config_mutation":
      return "changes system state (config_mutation)";
    case "destructive":
      return "destroys data or access (destructive)";
    default:
      return "is rejected";
  }
}

function withRisk(reason: string, risk: Risk): string {
  return reason.endsWith(")") || reason.endsWith(RISK_WORDS[risk])
    ? reason
    : `${reason} (${RISK_WORDS[risk]})`;
}

export { optionMatches };
