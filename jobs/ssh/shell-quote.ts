/** One POSIX-shell word holding `value` literally: single quotes, with `'` written as `'\''`. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** Words that need no quoting in any POSIX shell. */
const PLAIN_WORD = /^[A-Za-z0-9_./:=+,@%-]+$/;

/** `words` as one POSIX shell line that gives back exactly these words. */
export function shellLine(words: readonly string[]): string {
  return words.map((word) => (PLAIN_WORD.test(word) ? word : shellQuote(word))).join(" ");
}

/**
 * The line sent over SSH for `words`: `exec <words> </dev/null`. `exec` makes the first word (the
 * host's timeout(1)) the session's process, so a TERM signal request on the channel reaches it (a
 * login shell left in between would not pass it on). Nobody types into a remote command, so stdin is
 * /dev/null: a prompt or `read` sees EOF instead of hanging until the timeout (closing the channel's
 * stdin instead would stop ssh2 sending signals).
 */
export function remoteLine(words: readonly string[]): string {
  return `exec ${shellLine(words)} </dev/null`;
}
