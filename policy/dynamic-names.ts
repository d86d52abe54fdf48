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

export const DESTRUCTIVE_WORDS =
  /^(rm|shred|wipefs|dd|destroy|delete|del|purge|prune|reboot|shutdown|poweroff|halt|truncate|unlink|rmdir|format|wipe|zap|drop|-rf|-fr|--force|--delete|--no-preserve-root|mkfs(\..+)?|lvremove|vgremove|pvremove|userdel|kill|killall)$/i;

export function visibleDestructiveWord(args: Arg[]): string | null {
  for (const arg of args) {
    for (const token of arg.raw.split(/[^A-Za-z0-9_.-]+/)) if (DESTRUCTIVE_WORDS.test(token)) return token;
  }
  return null;
}
