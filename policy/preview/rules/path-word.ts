import type { Arg } from "../../command-view.ts";
import { normalisePath } from "../../paths.ts";
import { firstUnusable } from "../rule.ts";

/** Why a path word cannot be previewed, from the word alone (the target resolves the rest). */
export function pathProblem(arg: Arg): string | null {
  const why = firstUnusable([arg]);
  if (why) return why;
  if (arg.value === "-" || arg.value === "") return `\`${arg.raw}\` is not a file path`;
  if (/[\n\r]/.test(arg.value)) return "a path with a line break is not previewed";
  if (arg.value.endsWith("/")) return `\`${arg.value}\` is a directory`;
  const path = normalisePath(arg.value);
  if (/^\/(dev|proc|sys)(\/|$)/.test(path) && !/^\/dev\/shm(\/|$)/.test(path)) {
    return `\`${arg.value}\` is not a regular file`;
  }
  return null;
}
