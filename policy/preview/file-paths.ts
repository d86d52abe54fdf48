import { normalisePath } from "../paths.ts";

/**
 * Whether two paths a command line names may be one file, decided from the words alone: equal once
 * `//` and `.` are taken out, or the same name where one is relative (the working directory is the
 * target's, unknown here). Errs towards "may be": a preview that treats two files as one declines,
 * one that treats one file as two shows a change that will not happen.
 */
export function mayBeSameFile(a: string, b: string): boolean {
  const left = lexical(a);
  const right = lexical(b);
  if (left === right) return true;
  if (left.startsWith("/") && right.startsWith("/")) return false;
  return lastName(left) === lastName(right);
}

/** The same path once `//` and `.` are taken out (what `cp` would refuse as "the same file"). */
export function sameWrittenPath(a: string, b: string): boolean {
  return lexical(a) === lexical(b);
}

function lexical(path: string): string {
  if (path.startsWith("/")) return normalisePath(path);
  return path
    .split("/")
    .filter((part) => part !== "" && part !== ".")
    .join("/");
}

function lastName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}
