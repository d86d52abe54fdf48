import type { SyntaxNode } from "./bash-parser.ts";
import type { Arg } from "./command-view.ts";
import { finding } from "./command-view.ts";
import { isCriticalWriteTarget, isHarmlessDevice } from "./paths.ts";
import type { Finding } from "./risk.ts";
import type { WordValue } from "./words.ts";
import { wordValue } from "./words.ts";

/** Redirections: what a command writes, and the script a heredoc or here-string feeds it. */

export interface Stdin {
  text: string;
  dynamic: WordValue["dynamic"];
}

export function toArg(node: SyntaxNode, source: string): Arg {
  const value = wordValue(node, source);
  return { value: value.text, raw: source.slice(node.start, node.end), dynamic: value.dynamic };
}

export function stdinOf(redirects: SyntaxNode[], source: string): Stdin | null {
  for (const redirect of redirects) {
    if (redirect.type === "heredoc_redirect") {
      const start = redirect.children.find((child) => child.type === "heredoc_start");
      const bodyNode = redirect.children.find((child) => child.type === "heredoc_body");
      if (!bodyNode) return { text: "", dynamic: "none" };
      const quoted = start ? /^["'\\]/.test(source.slice(start.start, start.end)) : false;
      let dynamic: WordValue["dynamic"] = "none";
      if (!quoted) {
        for (const child of bodyNode.children) {
          if (child.type === "command_substitution") dynamic = "command";
          else if (child.type !== "heredoc_content" && dynamic === "none") dynamic = "variable";
        }
      }
      return { text: source.slice(bodyNode.start, bodyNode.end), dynamic };
    }
    if (redirect.type === "file_redirect") {
      // `sh < <(curl …)`: stdin comes from a command's output, so the script is only known at run time.
      const operator = redirect.children.find((child) => !child.named)?.type;
      const destination = redirect.children.find((child) => child.field === "destination");
      if (operator === "<" && destination && wordValue(destination, source).dynamic === "command") {
        return { text: source.slice(destination.start, destination.end), dynamic: "command" };
      }
    }
    if (redirect.type === "herestring_redirect") {
      const value = redirect.children.find((child) => child.named);
      if (value) {
        const v = wordValue(value, source);
        return { text: v.text, dynamic: v.dynamic };
      }
    }
  }
  return null;
}

export function redirectFindings(redirects: SyntaxNode[], source: string): Finding[] {
  const findings: Finding[] = [];
  for (const redirect of redirects) {
    if (redirect.type !== "file_redirect") continue;
    const operator = redirect.children.find((child) => !child.named)?.type ?? "";
    const destination = redirect.children.find((child) => child.field === "destination");
    if (!destination) continue;
    if (!/^(>|>>|&>|&>>|>\||<>|>&)$/.test(operator)) continue;
    if (operator === ">&" && /^(\d+|-)$/.test(source.slice(destination.start, destination.end))) continue;
    const truncates = operator === ">" || operator === ">|" || operator === "&>" || operator === ">&";
    findings.push(
      writeTo(
        toArg(destination, source),
        `redirect \`${source.slice(redirect.start, redirect.end)}\``,
        truncates,
      ),
    );
  }
  return findings;
}

/** Where replacing a file loses nothing worth keeping: scratch space, and kernel settings files. */
const SCRATCH = /^\/(tmp|var\/tmp|dev\/shm|run\/user\/[0-9]+)\//;
const KERNEL_SETTINGS = /^\/(proc\/sys|sys)\//;

/**
 * Whether replacing this path's content loses a file worth keeping: absolute paths (and `~`, `..`,
 * dotfiles) outside scratch space and kernel settings. A plain relative name (`out.txt`) is most
 * often a new file in the working directory.
 */
function replacesKeptFile(path: string): boolean {
  if (SCRATCH.test(path) || KERNEL_SETTINGS.test(path)) return false;
  return path.startsWith("/") || path.startsWith("~") || path.startsWith(".") || path.includes("/../");
}

export function writeTo(path: Arg, how: string, truncates = false): Finding {
  if (path.dynamic !== "none") {
    return finding(
      "config_mutation",
      `${how} writes to \`${path.raw}\`, a path decided at run time (config_mutation)`,
    );
  }
  if (isHarmlessDevice(path.value)) return finding("read_only", `${how} writes only to ${path.value}`);
  if (isCriticalWriteTarget(path.value)) {
    return finding(
      "destructive",
      `${how} overwrites \`${path.value}\`, a device or system file (destructive)`,
    );
  }
  if (truncates && replacesKeptFile(path.value)) {
    return finding(
      "destructive",
      `${how} replaces the content of \`${path.value}\`; whatever the file held is lost (destructive)`,
    );
  }
  return finding("config_mutation", `${how} writes the file \`${path.value}\` (config_mutation)`);
}
