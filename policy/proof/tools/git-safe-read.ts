import { checkToolArgs } from "../check-options.ts";
import type { ProofContext, Verdict } from "../context.ts";
import type { ProofWord } from "../proof-word.ts";
import type { ToolSpec } from "../tool-spec.ts";

/**
 * git reads a repository's own configuration, which can name programs: `core.fsmonitor` (run by
 * every command that reads the index: status, diff, ls-files, grep, blame, clean), textconv and
 * external diff drivers (any printed diff), `log.showSignature` with `gpg.program` (log, show);
 * and `git status` rewrites `.git/index`. A read is proven when it is spelled so that none of that
 * can happen: `git --no-optional-locks -c core.fsmonitor=false status`, `git diff --no-textconv
 * --no-ext-diff`, `git log --no-show-signature`. Otherwise the refusal gives that exact spelling.
 * (Clean/smudge filters a repository names cannot be switched off by name; git itself refuses a
 * repository its user does not own — safe.directory.)
 */
interface Needs {
  fsmonitor: boolean;
  locks: boolean;
  noDiffPrograms: boolean;
  noSignature: boolean;
}

/** Configuration a read may set on the command line: only values that switch something off. */
export const SAFE_GIT_CONFIG =
  /^(core\.fsmonitor=(false)?|core\.hooksPath=\/dev\/null|log\.showSignature=false|diff\.external=|core\.pager=(cat)?|color\.ui=(never|false|auto)|core\.quotePath=(false|off)|core\.untrackedCache=false)$/i;

const INDEX_READERS = new Set(["status", "diff", "ls-files", "grep", "blame", "clean", "submodule"]);
const INDEX_WRITERS = new Set(["status", "submodule"]);
const HISTORY_READERS = new Set(["log", "show", "reflog", "whatchanged"]);
const PATCH_OPTION =
  /^(-[A-Za-z]*[pu]|-U[0-9]*|--patch|--unified(=.*)?|--word-diff(=.*)?|--cc|--patch-with-stat|--patch-with-raw)$/;

function needsOf(sub: string, args: readonly ProofWord[]): Needs {
  const has = (test: (value: string) => boolean) => args.some((arg) => arg.static && test(arg.value));
  const dirty = sub === "describe" && has((v) => v === "--dirty" || v.startsWith("--dirty="));
  const patch =
    sub === "diff" ||
    sub === "show" ||
    sub === "blame" ||
    ((HISTORY_READERS.has(sub) || sub === "stash") && has((v) => PATCH_OPTION.test(v)));
  return {
    fsmonitor: INDEX_READERS.has(sub) || dirty,
    locks: INDEX_WRITERS.has(sub) || dirty,
    noDiffPrograms: patch,
    noSignature: HISTORY_READERS.has(sub),
  };
}

export function gitSafeRead(subcommands: Readonly<Record<string, ToolSpec>>) {
  return (args: readonly ProofWord[], ctx: ProofContext): Verdict => {
    const globals: ProofWord[] = [];
    const config: string[] = [];
    let at = 0;
    for (; at < args.length; at++) {
      const arg = args[at] as ProofWord;
      if (!arg.static) return `the git option \`${arg.raw}\` is only known at run time`;
      if (!arg.value.startsWith("-")) break;
      globals.push(arg);
      if (arg.value === "--no-pager" || arg.value === "--no-optional-locks") continue;
      const value = arg.value === "-C" || arg.value === "-c" ? args[at + 1] : undefined;
      if (!value) return `\`git ${arg.value}\` is not a git option proven read-only`;
      if (!value.static) return `\`git ${arg.value} ${value.raw}\` is only known at run time`;
      if (arg.value === "-c") {
        if (!SAFE_GIT_CONFIG.test(value.value))
          return `\`git -c ${value.value}\` sets configuration that can run programs or change what git writes`;
        config.push(value.value.toLowerCase());
      }
      globals.push(value);
      at++;
    }
    const subWord = args[at];
    if (!subWord) return "`git` without a read-only subcommand is not proven read-only";
    const spec = subcommands[subWord.value];
    if (!spec) return `\`git ${subWord.value}\` is not a subcommand proven read-only`;
    const rest = args.slice(at + 1);
    const formats = rest.find((arg) => /^--(format|pretty)=.*%G/.test(arg.value) || /%G/.test(arg.value));
    if (formats && HISTORY_READERS.has(subWord.value))
      return `\`${formats.raw}\`: the %G placeholders verify signatures with the repository's gpg.program`;
    const verdict = checkToolArgs(`git ${subWord.value}`, spec, rest, ctx);
    if (verdict) return verdict;
    const needs = needsOf(subWord.value, rest);
    const missingGlobals: string[] = [];
    if (needs.locks && !globals.some((g) => g.value === "--no-optional-locks"))
      missingGlobals.push("--no-optional-locks");
    if (needs.fsmonitor && !config.some((c) => /^core\.fsmonitor=(false)?$/.test(c)))
      missingGlobals.push("-c core.fsmonitor=false");
    const missingOptions: string[] = [];
    const given = (option: string) => rest.some((arg) => arg.value === option);
    if (needs.noDiffPrograms && !given("--no-textconv")) missingOptions.push("--no-textconv");
    if (
      needs.noDiffPrograms &&
      subWord.value !== "blame" &&
      !given("--no-ext-diff") &&
      !config.includes("diff.external=")
    )
      missingOptions.push("--no-ext-diff");
    if (needs.noSignature && !given("--no-show-signature") && !config.includes("log.showsignature=false"))
      missingOptions.push("--no-show-signature");
    if (missingGlobals.length === 0 && missingOptions.length === 0) return null;
    const spelling = [
      "git",
      ...globals.map((g) => g.raw),
      ...missingGlobals,
      subWord.raw,
      ...missingOptions,
      ...rest.map((r) => r.raw),
    ].join(" ");
    return (
      `\`git ${subWord.value}\` reads the repository's own configuration, which can name programs to run ` +
      `(${[
        needs.fsmonitor ? "core.fsmonitor" : "",
        needs.noDiffPrograms ? "textconv and diff drivers" : "",
        needs.noSignature ? "gpg.program through log.showSignature" : "",
      ]
        .filter(Boolean)
        .join(", ")})${needs.locks ? ", and rewrites .git/index" : ""}; run it as \`${spelling}\``
    );
  };
}
