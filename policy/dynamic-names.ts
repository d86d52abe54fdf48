import type { Arg } from "./command-view.ts";

/** Words that make a command with a run-time name dangerous, and environment that changes loading. */

export const RISKY_ENVIRONMENT = new Set([
  "LD_PRELOAD",
  "LD_LIBRARY_PATH",
  "LD_AUDIT",
  "PATH",
  "BASH_ENV",
  "ENV",
  "PROMPT_COMMAND",
  "IFS",
  "SHELLOPTS",
  "PYTHONPATH",
  "PERL5OPT",
  "NODE_OPTIONS",
  "GIT_SSH_COMMAND",
  "PAGER",
  "EDITOR",
]);

/** Variables whose value is a program a tool will run (`EDITOR`, `LESSOPEN='|cmd %s'`, git config). */
const PROGRAM_VARIABLES = new Set([
  "EDITOR",
  "VISUAL",
  "PAGER",
  "MANPAGER",
  "SYSTEMD_PAGER",
  "GIT_PAGER",
  "GIT_EDITOR",
  "GIT_SSH_COMMAND",
  "GIT_EXTERNAL_DIFF",
  "GIT_ASKPASS",
  "SSH_ASKPASS",
  "SUDO_ASKPASS",
  "LESSOPEN",
  "LESSCLOSE",
  "BROWSER",
  "PROMPT_COMMAND",
]);

/**
 * The shell text a variable hands to a program to run, or null when the variable names none.
 * `GIT_CONFIG_VALUE_<n>` and `GIT_CONFIG_PARAMETERS` carry git configuration (`core.pager`,
 * `core.fsmonitor`, aliases), so any value there is judged as a command.
 */
export function programInEnvironment(name: string, value: string): string | null {
  if (PROGRAM_VARIABLES.has(name) || /^GIT_CONFIG_VALUE_[0-9]+$/.test(name)) {
    return value
      .replace(/^\|\|?/, "")
      .replace(/%s/g, "x")
      .replace(/^!/, "");
  }
  if (name === "GIT_CONFIG_PARAMETERS") {
    const values = [...value.matchAll(/=\s*'([^']*)'/g)].map((match) => (match[1] ?? "").replace(/^!/, ""));
    return values.join("\n");
  }
  return null;
}

export const DESTRUCTIVE_WORDS =
  /^(rm|shred|wipefs|dd|destroy|delete|del|purge|prune|reboot|shutdown|poweroff|halt|truncate|unlink|rmdir|format|wipe|zap|drop|-rf|-fr|--force|--delete|--no-preserve-root|mkfs(\..+)?|lvremove|vgremove|pvremove|userdel|kill|killall)$/i;

export function visibleDestructiveWord(args: Arg[]): string | null {
  for (const arg of args) {
    for (const token of arg.raw.split(/[^A-Za-z0-9_.-]+/)) if (DESTRUCTIVE_WORDS.test(token)) return token;
  }
  return null;
}
