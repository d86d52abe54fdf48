/** One POSIX-shell word holding `value` literally: single quotes, with `'` written as `'\''`. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * `timeout -s TERM -k <kill> <secs> sh -c '<command>'`: the remote side kills the command (and,
 * because timeout(1) signals its process group, everything it started) even if oikos is gone. Short
 * options, so GNU coreutils and busybox both accept it.
 */
export function withRemoteTimeout(command: string, seconds: number, killAfterSeconds: number): string {
  return `timeout -s TERM -k ${killAfterSeconds} ${seconds} sh -c ${shellQuote(command)}`;
}
