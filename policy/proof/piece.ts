import type { JailGrant } from "../jail-grant.ts";

/** A simple command's options (as written) and operands (`\0` + raw text for a run-time word). */
export interface PieceWords {
  options: string[];
  operands: string[];
}

/** One simple command of a proven command line and the grants it named for itself. */
export interface Piece {
  /** The command's name as written (basename), e.g. `docker`, `grep`, `sudo`. */
  name: string;
  /** Its first argument as written (`x509` of `openssl x509`), for filters that are subcommands. */
  first: string;
  grants: JailGrant[];
  /** Its script has a `while`/`until` loop: it may run again and again until the timeout. */
  repeats?: boolean;
  /** Its script expands a brace range (`{1..999999999}`): as many words as it says, in memory. */
  braceRange?: boolean;
  /** Its script has a `[[ … ]]`: the shell itself looks up the paths it tests. */
  shellTest?: boolean;
  /** Its options and operands as its spec read them. */
  words?: PieceWords;
}

/**
 * What the shell itself reads for the command (`< file`, `$(< file)`, a here-document or here-string),
 * recorded as a piece of this name whose `first` is the redirection: harmless in the jail, a read of
 * the host beside a run outside it.
 */
export const SHELL_READ = "<";
