import type { JailGrant } from "../jail-grant.ts";
import type { ProofContext, Verdict } from "./context.ts";
import { grantWords } from "./grants.ts";
import type { ProofWord } from "./proof-word.ts";
import { stdinNotEmpty, stdinNotShown } from "./stdin.ts";
import type { ToolSpec } from "./tool-spec.ts";

/** A character a network tool would send as is: a line break starts a new line in the peer's protocol. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it finds
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/**
 * Checks every argument of a read-only tool against its spec, the way getopt reads them: options
 * anywhere before `--` (GNU permutes), bundles of short flags, a valued short option ending a
 * bundle, `--long=value` or `--long value`. Long options must be spelled out: getopt accepts
 * unique prefixes (`--compress-prog`), and a prefix is never on a list.
 */
export function checkToolArgs(
  name: string,
  spec: ToolSpec,
  args: readonly ProofWord[],
  ctx: ProofContext,
): Verdict {
  if (spec.argvScript) {
    for (const arg of args) {
      if (!arg.static)
        return `\`${name}\` joins its arguments into commands; \`${arg.raw}\` is only known at run time`;
      if (/[;\n]/.test(arg.value))
        return `\`${name}\` joins its arguments into commands, and \`;\` or a newline starts another`;
    }
  }
  if (spec.network) {
    const dynamic = args.find((arg) => !arg.static && !arg.fixedText);
    if (dynamic)
      return `\`${name}\` sends its arguments to another host, and \`${dynamic.raw}\` is only known at run time (it could carry local data away)`;
    // A line break in a header or a name starts a line of the tool's own choosing in whatever
    // listens there: `curl -A $'x\r\nflush_all' http://host:11211/` flushes a memcached.
    const control = args.find((arg) => CONTROL_CHARACTER.test(arg.value));
    if (control)
      return `\`${name}\` sends its arguments to another host, and \`${control.raw}\` holds a control character (a line break there starts a request of its own); spell the value without it`;
  }
  if (spec.network) ctx.grants.push({ resource: "network" });
  const granted = typeof spec.grants === "function" ? spec.grants(args) : (spec.grants ?? []);
  // Outside the jail the proof is the only wall: a word filled in at run time could be an option
  // the spec never reviewed as harmless there (a host to resolve, a repeat, another daemon).
  const outside = granted.find(
    (grant): grant is Extract<JailGrant, { resource: "unjailed" }> => grant.resource === "unjailed",
  );
  const dynamic = outside && args.find((arg) => !arg.static);
  if (dynamic)
    return `\`${name}\` runs outside the jail (it needs ${outside.needs}), so every word must be fixed text, and \`${dynamic.raw}\` is only known at run time; write the value out`;
  ctx.grants.push(...granted);
  if (spec.stdinIsRequest) {
    const verdict = stdinNotEmpty(ctx, `\`${name}\``);
    if (verdict) return verdict;
  }
  if (spec.sendsStdin) {
    const verdict = stdinNotShown(ctx, `\`${name}\``);
    if (verdict) return verdict;
  }
  if (spec.custom) return spec.custom(args, ctx);
  let optionsEnded = false;
  let positionals = 0;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as ProofWord;
    if (!optionsEnded && arg.static && arg.value === "--") {
      optionsEnded = true;
      continue;
    }
    if (!optionsEnded && !arg.static && arg.mayBeOption && !spec.anyOption) {
      return (
        `\`${arg.raw}\` is only known at run time and could be any option of \`${name}\`, ` +
        "some of which write or run programs; put it after `--` or spell the value out"
      );
    }
    const isOption = !optionsEnded && arg.static && arg.value.startsWith("-") && arg.value !== "-";
    if (isOption) {
      ctx.words?.options.push(arg.value);
      const taken = checkOption(name, spec, args, i);
      if (typeof taken === "string") return taken;
      i += taken;
      continue;
    }
    if (arg.manyWords && spec.maxPositionals !== undefined) {
      return (
        `\`${arg.raw}\` may become any number of words at run time, and \`${name}\` reads its ` +
        `operands by position (at most ${spec.maxPositionals}): another match would be written or run; name the files`
      );
    }
    if (spec.sub && positionals === 0) {
      if (!arg.static) return `the \`${name}\` subcommand \`${arg.raw}\` is only known at run time`;
      const sub = spec.sub[arg.value];
      if (!sub) return `\`${name} ${arg.value}\` is not a subcommand proven read-only`;
      return checkToolArgs(`${name} ${arg.value}`, sub, args.slice(i + 1), ctx);
    }
    positionals++;
    ctx.words?.operands.push(arg.static ? arg.value : `\0${arg.raw}`);
  }
  if (spec.sub && !spec.bareOk) return `\`${name}\` without a read-only subcommand is not proven read-only`;
  if (spec.maxPositionals !== undefined && positionals > spec.maxPositionals) {
    return `\`${name}\` takes at most ${spec.maxPositionals} file argument(s) here; another one would be written`;
  }
  // The devices and /proc/net paths this command's own words name (a `custom` spec, which runs
  // a command elsewhere, names its own).
  grantWords(args, ctx);
  return spec.check ? spec.check(args, ctx) : null;
}

/** Returns how many following words the option consumed, or why it is not proven. */
function checkOption(name: string, spec: ToolSpec, args: readonly ProofWord[], at: number): number | string {
  const token = (args[at] as ProofWord).value;
  const unknown = `\`${name} ${token.split("=")[0]}\` is not an option proven read-only`;
  const refusal = spec.refused?.[token.split("=")[0] as string];
  if (refusal) return refusal;
  if (token.startsWith("--") || spec.singleDashLong) {
    const eq = token.indexOf("=");
    const option = eq < 0 ? token : token.slice(0, eq);
    if (eq < 0 && spec.long?.includes(option)) return 0;
    if (spec.longValued?.includes(option)) {
      if (eq >= 0) return valueOk(name, spec, option, token.slice(eq + 1), true) ?? 0;
      if (!takesNextWord(spec, option, args[at + 1])) return 0;
      const next = args[at + 1];
      if (!next) return `\`${name} ${option}\` needs a value`;
      return (
        valueOk(name, spec, option, next.value, next.static) ?? manyValues(name, spec, option, next) ?? 1
      );
    }
    if (!spec.singleDashLong || token.startsWith("--")) return unknown;
  }
  for (let k = 1; k < token.length; k++) {
    const c = token[k] as string;
    const refused = spec.refused?.[`-${c}`];
    if (refused) return refused;
    if (spec.flags?.includes(c)) continue;
    if (spec.valued?.includes(c)) {
      const rest = token.slice(k + 1);
      if (rest !== "") return valueOk(name, spec, `-${c}`, rest, true) ?? 0;
      if (!takesNextWord(spec, `-${c}`, args[at + 1])) return 0;
      const next = args[at + 1];
      if (!next) return `\`${name} -${c}\` needs a value`;
      return (
        valueOk(name, spec, `-${c}`, next.value, next.static) ?? manyValues(name, spec, `-${c}`, next) ?? 1
      );
    }
    return `\`${name} -${c}\` is not an option proven read-only`;
  }
  return 0;
}

/** Whether the tool reads the next word as this option's value (always, unless the value is optional). */
function takesNextWord(spec: ToolSpec, option: string, next: ProofWord | undefined): boolean {
  const shape = spec.optionalValue?.[option];
  if (!shape) return true;
  return next !== undefined && next.static && shape(next.value);
}

/**
 * An option's value written as a glob or an unquoted expansion may be several words: the first is
 * the value, the rest are read as further options or operands. Proven only where every word it
 * can become is an operand of a tool without a limit on them.
 */
function manyValues(name: string, spec: ToolSpec, option: string, value: ProofWord): string | null {
  if (!value.manyWords) return null;
  if (!value.mayBeOption && spec.maxPositionals === undefined) return null;
  return `\`${name} ${option} ${value.raw}\`: the value may become several words at run time, the rest read as options or operands; quote it or name one file`;
}

function valueOk(
  name: string,
  spec: ToolSpec,
  option: string,
  value: string,
  isStatic: boolean,
): string | null {
  const test = spec.values?.[option];
  if (!test) return null;
  if (isStatic && test(value)) return null;
  return `\`${name} ${option} ${value}\` writes, runs or reads something outside the read-only set`;
}

/**
 * A wrapper's own options (`sudo -u x`, `timeout -s KILL`), up to its first positional word:
 * returns where the positionals start, or why an option is not proven.
 */
export function wrapperOptions(name: string, spec: ToolSpec, args: readonly ProofWord[]): number | string {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as ProofWord;
    if (arg.static && arg.value === "--") return i + 1;
    if (!arg.static && arg.mayBeOption)
      return `\`${arg.raw}\` is only known at run time and could be any option of \`${name}\``;
    if (!arg.static || !arg.value.startsWith("-") || arg.value === "-") return i;
    const taken = checkOption(name, spec, args, i);
    if (typeof taken === "string") return taken;
    i += taken;
  }
  return args.length;
}
