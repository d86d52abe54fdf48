import type { ParsedScript, SyntaxNode } from "../bash-parser.ts";
import type { JailGrant } from "../jail-grant.ts";
import type { RunsElsewhere } from "../runs-elsewhere.ts";
import type { Piece, PieceWords } from "./piece.ts";
import type { ProofWord } from "./proof-word.ts";

/**
 * Which shell will read the text. `bash`: the transports run `bash --noprofile --norc -c`, and
 * `bash -c` scripts. `posix`: `sh -c` (dash on Debian). `unknown`: a remote login shell (`ssh host
 * '…'`, `su -c`) that may be bash, dash, zsh or fish, so only syntax they all read alike is proven.
 */
export type Dialect = "bash" | "posix" | "unknown";

/** Why a command is not proven read-only, or null when it is. */
export type Verdict = string | null;

/**
 * Where a command's standard input may come from: another command of its pipeline, a file, or
 * text written in the command (a here-string or heredoc). No source: the transport's own input,
 * which is empty. Two rules read it: a tool that sends its input over the network may only send
 * text the command shows (`echo | openssl s_client …`, not `… < /etc/shadow`), and `xargs` must
 * not be fed paths that reach devices (`find / | xargs cat` opens the watchdog).
 */
export type StdinSource =
  | { kind: "pipe"; producer: SyntaxNode }
  | { kind: "file"; word: ProofWord }
  | { kind: "text"; words: readonly ProofWord[]; visible: boolean };

/**
 * The proof's recursion, through one entry point: `prove.ts` builds it and every context carries it,
 * so a wrapper's inner command (`sudo …`, `xargs …`), a nested script (`bash -c '…'`) or a command
 * substitution's statements are proven again without the modules importing the prover back.
 */
export interface Prover {
  /** One simple command given as words; `external`: exec'd by a wrapper, so no builtin applies. */
  argv(argv: readonly ProofWord[], ctx: ProofContext, external?: boolean): Verdict;
  /** Shell text a wrapper runs, read by `dialect`. */
  script(text: string, dialect: Dialect, ctx: ProofContext): Verdict;
  /** The statements inside a node (a command substitution, a compound statement). */
  children(node: SyntaxNode, ctx: ProofContext): Verdict;
}

export interface ProofContext {
  /** Proves what a command runs in turn (see `Prover`). */
  prove: Prover;
  source: string;
  dialect: Dialect;
  /** Variables this command assigns from text it does not fix (`read x`, `for x in $(…)`). */
  tainted: ReadonlySet<string>;
  /** Variables this command assigns only fixed text: their expansion is written in the command. */
  fixed: ReadonlySet<string>;
  /** Variables this command assigns only literal numbers, and nothing assigns otherwise. */
  numeric: ReadonlySet<string>;
  /** Parses nested shell text with both parsers (a parse carrying `rejection` is never proven). */
  parse(script: string): ParsedScript;
  depth: number;
  /** Programs the proven command runs (basenames), collected as the proof goes: the oracle allows these. */
  named: Set<string>;
  /** Why the command could open the watchdog (and reboot the machine), as the proof found it. */
  reboots: string[];
  /**
   * What the jail must open for the proven command (policy/jail-grant.ts), collected as the proof
   * goes: each tool spec's grants, the devices its words name. A piece that runs elsewhere (`ssh
   * host …`, `pct exec`) collects into a list of its own that is dropped.
   */
  grants: JailGrant[];
  /**
   * Each simple command proven so far with the grants it named itself (its `grants` list): the
   * classifier refuses a command in which one piece would borrow another's grant (grants.ts).
   */
  pieces: Piece[];
  /**
   * The pieces that would run on another host, in a guest or a container, proven for their own
   * reading and then refused (policy/runs-elsewhere.ts): the classifier hands them on as data.
   */
  elsewhere: RunsElsewhere[];
  /** Where standard input may come from (none: the transport's own, which is empty). */
  stdin?: readonly StdinSource[];
  /** The next stage of the pipeline is `head -c N`: what this stage streams out is cut off. */
  outputCut?: boolean;
  /** The words of the current simple command as its tool's spec reads them (pieces.ts uses them). */
  words?: PieceWords;
}

export const MAX_PROOF_DEPTH = 8;

export function not(reason: string): Verdict {
  return reason;
}
