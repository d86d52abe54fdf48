import type { JailGrant } from "../../policy/jail-grant.ts";
import { JAIL_ARGV0, JAIL_FILTER, JAIL_SCRIPT } from "./jail-script.ts";
import { type JailLimits, jailSettings } from "./jail-settings.ts";

/**
 * The shell a command runs under: always bash, except `sh` for the target probe (which must also run
 * where bash is missing) and for an approved command on a target recorded without bash.
 */
export type CommandShell = "bash" | "sh";

export interface CommandWrap {
  /** Run inside the read-only jail (jail.bash). Only with bash. */
  jail?: boolean;
  /** What the jail opens to this run (policy/jail-grant.ts); nothing when left out. */
  jailGrants?: readonly JailGrant[];
  /** The jail's bounds for this run; DEFAULT_JAIL_LIMITS where left out. */
  jailLimits?: Partial<JailLimits>;
  /** Default bash. */
  shell?: CommandShell;
  /**
   * Run the words as root through `sudo -n --` (never asks for a password: without a rule that lets
   * the login run it, sudo fails and nothing runs). Plan previews look at what a `sudo` command will
   * touch as the user sudo gives it, read-only and inside the jail (jobs/preview/run-probe.ts).
   */
  sudo?: boolean;
}

/** What runs the shell as root for `sudo: true`: no prompt, no option parsing past `--`. */
export const SUDO_WORDS = ["sudo", "-n", "--"] as const;

/**
 * bash with no profile and no rc file, reading the command from `-c`: what runs is what was parsed.
 * A non-interactive bash would still source $BASH_ENV (and sh $ENV), so env(1) drops those first.
 */
export const BASH_C = ["env", "-u", "BASH_ENV", "-u", "ENV", "bash", "--noprofile", "--norc", "-c"] as const;

/** The jail's own bash: POSIX mode reads no startup file and lets no imported function shadow exec. */
export const JAIL_BASH_C = ["bash", "--posix", "--noprofile", "--norc", "-c"] as const;

/**
 * THE wrapper: the words every transport runs for `command`. The command is always one word of its
 * own, so it reaches the shell byte for byte, never re-parsed by a login shell on the way:
 *   env -u BASH_ENV -u ENV bash --noprofile --norc -c <command>
 *   bash --posix --noprofile --norc -c <jail.bash> oikos-jail <command> <settings…> perl=<filter>
 *        (read-only jail, jail-settings.ts; it runs the command as `bash --noprofile --norc -c
 *        <command>` without BASH_ENV/ENV once jailed)
 *   env -u ENV sh -c <command>               (the probe, or approved on a target without bash)
 *   sudo -n -- <one of the above>             (`sudo: true`: a preview of a sudo command, as root)
 * With `timeoutSeconds`, timeout(1) on the target kills it (and its process group) on time even
 * when oikos is gone.
 */
export function commandWords(
  command: string,
  wrap: CommandWrap & { timeoutSeconds?: number; killAfterSeconds?: number } = {},
): string[] {
  const words = shellWords(command, wrap);
  if (wrap.timeoutSeconds === undefined) return words;
  return timeoutWords(words, wrap.timeoutSeconds, wrap.killAfterSeconds ?? 5);
}

function shellWords(command: string, wrap: CommandWrap): string[] {
  const words = unprivilegedWords(command, wrap);
  return wrap.sudo === true ? [...SUDO_WORDS, ...words] : words;
}

function unprivilegedWords(command: string, wrap: CommandWrap): string[] {
  if ((wrap.shell ?? "bash") === "sh") {
    if (wrap.jail === true) throw new RangeError("the read-only jail runs under bash only");
    return ["env", "-u", "ENV", "sh", "-c", command];
  }
  if (wrap.jail !== true) return [...BASH_C, command];
  const settings = jailSettings(wrap.jailGrants ?? [], wrap.jailLimits);
  return [...JAIL_BASH_C, JAIL_SCRIPT, JAIL_ARGV0, command, ...settings, `perl=${JAIL_FILTER}`];
}

/**
 * `timeout -s TERM -k <kill> <secs> <words…>`: timeout(1) signals its own process group, so
 * everything the command started goes too. Short options, so GNU coreutils and busybox both accept it.
 */
export function timeoutWords(words: readonly string[], seconds: number, killAfterSeconds: number): string[] {
  return ["timeout", "-s", "TERM", "-k", String(killAfterSeconds), String(seconds), ...words];
}
