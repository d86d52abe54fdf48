/** One POSIX-shell word holding `value` literally: single quotes, with `'` written as `'\''`. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * `timeout -s TERM -k <kill> <secs> sh -c '<command>'` as words for another program to run (`pct
 * exec <vmid> -- …`): timeout(1) kills the command and, because it signals its own process group,
 * everything the command started. Short options, so GNU coreutils and busybox both accept it.
 */
export function timeoutWords(command: string, seconds: number, killAfterSeconds: number): string {
  return `timeout -s TERM -k ${killAfterSeconds} ${seconds} sh -c ${shellQuote(command)}`;
}

/**
 * The command line sent over SSH: `exec timeout … sh -c '<command>' </dev/null`. The host kills the
 * command on time even if oikos is gone. `exec` makes timeout(1) the session's process, so a TERM
 * signal request on the channel reaches it (a login shell left in between would not pass it on).
 * Nobody types into a remote command, so stdin is /dev/null: a prompt or `read` sees EOF instead of
 * hanging until the timeout (closing the channel's stdin instead would stop ssh2 sending signals).
 */
export function withRemoteTimeout(command: string, seconds: number, killAfterSeconds: number): string {
  return `exec ${timeoutWords(command, seconds, killAfterSeconds)} </dev/null`;
}
