import type { ExecResult } from "./exec-result.ts";

/** strerror texts of the refusals the jail causes (EROFS, EPERM), as coreutils, bash and util-linux print them. */
const READ_ONLY_FS = ": Read-only file system";
const NOT_PERMITTED = ": Operation not permitted";
const MOUNT_NOT_ROOT = "must be superuser to use mount";

/**
 * What the read-only jail refused, in words for the model and the operator, read from a jailed
 * run that failed: a write (EROFS, naming the path when the tool printed one), or a privileged
 * operation (EPERM, mount). Null when the failure does not look like the jail's doing.
 */
export function jailRefusalNote(result: ExecResult): string | null {
  if (result.exitCode === 0 || result.jail?.state !== "jailed") return null;
  const lines = result.stderr.split("\n");
  const write = lines.find((line) => line.includes(READ_ONLY_FS));
  if (write !== undefined) {
    const path = lastPath(write.slice(0, write.indexOf(READ_ONLY_FS)));
    const what = path === null ? "a write" : `a write to ${path}`;
    return `the read-only jail refused ${what}: this command changes the target — propose it in a plan`;
  }
  const privileged = lines.find((line) => line.includes(NOT_PERMITTED) || line.includes(MOUNT_NOT_ROOT));
  if (privileged !== undefined) {
    return `the read-only jail refused an operation that needs privileges (${privileged.trim().slice(0, 200)}): if this command is meant to change the target, propose it in a plan`;
  }
  return null;
}

/** The last word of `text` that is an absolute path, without the quotes tools put around it. */
function lastPath(text: string): string | null {
  const words = text.split(/\s+/).map((word) => word.replace(/^['"‘`]+|['"’`:]+$/g, ""));
  for (let i = words.length - 1; i >= 0; i--) if (words[i]?.startsWith("/")) return words[i] ?? null;
  return null;
}
