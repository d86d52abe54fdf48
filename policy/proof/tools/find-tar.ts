import type { ProofContext, Verdict } from "../context.ts";
import { checkFind } from "../mini/find.ts";
import type { ProofWord } from "../proof-word.ts";
import type { ToolSpec } from "../tool-spec.ts";

function checkFindImport(args: readonly ProofWord[], ctx: ProofContext): Verdict {
  return checkFind(args, ctx, (argv, context) => context.prove.argv(argv, context, true));
}

/** `tar tzf x.tgz`, `tar -tvf x`, `tar --list -f x`: listing only, never extracting or creating. */
function tarListing(args: readonly ProofWord[]): Verdict {
  const first = args[0];
  if (!first?.static) return "tar without a fixed mode";
  const bundle = first.value.startsWith("-") ? first.value.slice(1) : first.value;
  const listing = first.value === "--list" || /^[tvzjJaf]+$/.test(bundle);
  if (!listing || !(bundle.includes("t") || first.value === "--list"))
    return "tar other than listing (t) writes or extracts";
  for (const arg of args.slice(1)) {
    if (
      arg.static &&
      arg.value.startsWith("-") &&
      !/^-[tvzjJaf]+$/.test(arg.value) &&
      arg.value !== "--list"
    ) {
      return `\`tar ${arg.value}\` is not an option proven read-only`;
    }
    if (!arg.static && !arg.value.startsWith("-"))
      return "a tar archive name only known at run time could be `host:file`, which tar reaches by running rsh";
    if (arg.static && !arg.value.startsWith("-") && arg.value.includes(":"))
      return `\`${arg.value}\` names an archive on another host, which tar reaches by running rsh`;
    if (
      arg.static &&
      /^--(to-command|use-compress-program|checkpoint-action|info-script|new-volume-script|rmt-command|rsh-command)/.test(
        arg.value,
      )
    ) {
      return "tar runs a program with this option";
    }
  }
  return null;
}

/** `find` (its actions and imports judged) and `tar` as a listing only. */
export const FIND_TAR_TOOLS: Record<string, ToolSpec> = {
  tar: { custom: tarListing, helpers: ["gzip", "bzip2", "xz", "zstd", "lzip", "lzop"] },
  find: { custom: (args, ctx) => checkFindImport(args, ctx) },
};
