/**
 * Why oikos cannot tell what a command changes: what runs is decided at run time, or written in a
 * language the classifier does not read. Such a command is graded by the worst it could do
 * (destructive: a typed confirmation), and the approval card says so in words.
 */
export const UNREADABLE_KINDS = [
  "run_time_command",
  "inline_program",
  "script_file",
  "windows_command",
] as const;
export type UnreadableKind = (typeof UNREADABLE_KINDS)[number];

export function isUnreadableKind(value: unknown): value is UnreadableKind {
  return typeof value === "string" && (UNREADABLE_KINDS as readonly string[]).includes(value);
}

/** What the card says, after "oikos cannot tell what this changes: ". */
export const UNREADABLE_WORDS: Readonly<Record<UnreadableKind, string>> = {
  run_time_command: "the command it runs is only decided when it runs",
  inline_program: "it runs a program written inline for an interpreter, which oikos does not read",
  script_file: "it runs a script file whose content oikos has not read",
  windows_command: "it runs under cmd.exe on a Windows guest, whose commands oikos does not read",
};

/** The card's line for an unreadable command. */
export function cannotTellLine(kind: UnreadableKind): string {
  return `⚠️ oikos cannot tell what this changes: ${UNREADABLE_WORDS[kind]}. Read it before you confirm.`;
}
