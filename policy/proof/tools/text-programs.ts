import type { ProofContext, Verdict } from "../context.ts";
import { checkAwkProgram } from "../mini/awk.ts";
import { checkSedScript } from "../mini/sed.ts";
import type { ProofWord } from "../proof-word.ts";
import type { ToolSpec } from "../tool-spec.ts";

function firstProgram(
  args: readonly ProofWord[],
  programOptions: readonly string[],
  valued: readonly string[],
): ProofWord | string | null {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as ProofWord;
    if (arg.static && programOptions.includes(arg.value))
      return args[i + 1] ?? "a program option needs a value";
    if (arg.static && arg.value === "--") return args[i + 1] ?? null;
    if (arg.static && arg.value.startsWith("-") && arg.value !== "-") {
      if (valued.includes(arg.value)) i++;
      continue;
    }
    return arg;
  }
  return null;
}

function awkCheck(args: readonly ProofWord[], ctx: ProofContext): Verdict {
  const program = firstProgram(args, ["-e", "--source"], ["-F", "-v", "--field-separator", "--assign"]);
  if (typeof program === "string") return program;
  if (!program) return "awk without a program";
  if (!program.static) return "the awk program is only known at run time";
  return checkAwkProgram(program.value, ctx);
}

function sedCheck(args: readonly ProofWord[]): Verdict {
  const scripts = args.filter(
    (_, i) => args[i - 1]?.static && ["-e", "--expression"].includes(args[i - 1]?.value ?? ""),
  );
  if (scripts.length === 0) {
    const first = firstProgram(args, [], ["-l", "--line-length"]);
    if (typeof first === "string") return first;
    if (first) scripts.push(first);
  }
  for (const script of scripts) {
    if (!script.static) return "the sed script is only known at run time";
    const verdict = checkSedScript(script.value);
    if (verdict) return verdict;
  }
  // sed joins its `-e` scripts with newlines: the joined text must pass too.
  if (scripts.length > 1) {
    const verdict = checkSedScript(scripts.map((script) => script.value).join("\n"));
    if (verdict) return verdict;
  }
  return scripts.length > 0 ? null : "sed without a script";
}

/** Tools that run a program of their own mini-language, judged by that program (`proof/mini/`). */
export const TEXT_PROGRAM_TOOLS: Record<string, ToolSpec> = {
  jq: {
    flags: "rjcnsSeaC",
    long: [
      "--raw-output",
      "--compact-output",
      "--slurp",
      "--sort-keys",
      "--exit-status",
      "--tab",
      "--null-input",
      "--join-output",
      "--ascii-output",
      "--color-output",
      "--monochrome-output",
    ],
    longValued: ["--arg", "--argjson", "--indent"],
  },
  awk: { valued: "Fv", longValued: ["--field-separator", "--assign"], check: awkCheck },
  gawk: { valued: "Fv", longValued: ["--field-separator", "--assign"], check: awkCheck },
  mawk: { valued: "Fv", check: awkCheck },
  sed: {
    flags: "nErsuz",
    valued: "el",
    long: [
      "--quiet",
      "--silent",
      "--regexp-extended",
      "--separate",
      "--null-data",
      "--posix",
      "--debug",
      "--sandbox",
    ],
    longValued: ["--expression", "--line-length"],
    check: sedCheck,
  },
};
