import type { SyntaxNode } from "../bash-parser.ts";
import type { ProofContext, StdinSource, Verdict } from "./context.ts";

export type { StdinSource } from "./context.ts";

import { absolutePath, mayReboot, reachesDevice } from "./devices.ts";
import { type ProofWord, proofWord } from "./proof-word.ts";

/** The sources a command's redirections give its standard input (`<`, `0<`, `<<<`, `<<`). */
export function stdinFromRedirects(redirects: readonly SyntaxNode[], source: string): StdinSource[] {
  const sources: StdinSource[] = [];
  for (const redirect of redirects) {
    const descriptor = redirect.children.find((child) => child.type === "file_descriptor");
    if (descriptor && source.slice(descriptor.start, descriptor.end) !== "0") continue;
    if (redirect.type === "herestring_redirect") {
      const value = redirect.children.find((child) => child.named && child.type !== "file_descriptor");
      const word = value ? proofWord(value, source) : undefined;
      sources.push({ kind: "text", words: word ? [word] : [], visible: word?.static ?? false });
    } else if (redirect.type === "heredoc_redirect") {
      const body = redirect.children.find((child) => child.type === "heredoc_body");
      const start = redirect.children.find((child) => child.type === "heredoc_start");
      const quoted = start ? /["'\\]/.test(source.slice(start.start, start.end)) : false;
      const text = body ? source.slice(body.start, body.end) : "";
      const words = text
        .split(/\s+/)
        .filter((part) => part !== "")
        .map((part) => ({ value: part, raw: part, static: true, mayBeOption: false, node: redirect }));
      sources.push({ kind: "text", words, visible: quoted || !/[$`\\]/.test(text) });
    } else if (redirect.type === "file_redirect") {
      const operator = redirect.children.find((child) => !child.named)?.type ?? "";
      const target = redirect.children.find((child) => child.field === "destination");
      if ((operator === "<" || operator === "<>") && target) {
        sources.push({ kind: "file", word: proofWord(target, source) });
      }
    }
  }
  return sources;
}

const PRINTERS = new Set(["echo", "printf", "true", ":"]);

/** The producer is `echo`/`printf` of fixed text: what it writes is in the command. */
function printsFixedText(node: SyntaxNode, source: string): boolean {
  if (node.type !== "command") return false;
  const words = node.children.filter((child) => child.field === "name" || child.field === "argument");
  if (node.children.some((child) => child.named && child.field !== "name" && child.field !== "argument"))
    return false;
  const [name, ...args] = words.map((w) =>
    proofWord(w.type === "command_name" ? (w.children[0] ?? w) : w, source),
  );
  return name?.static === true && PRINTERS.has(name.value) && args.every((arg) => arg.static);
}

/** Why what the command reads on standard input is not text the command itself shows. */
export function stdinNotShown(ctx: ProofContext, who: string): Verdict {
  for (const input of ctx.stdin ?? []) {
    if (input.kind === "file" && input.word.static && input.word.value === "/dev/null") continue;
    if (input.kind === "text" && input.visible) continue;
    if (input.kind === "pipe" && printsFixedText(input.producer, ctx.source)) continue;
    return (
      `${who} sends its standard input over the network, and that input is ` +
      `${input.kind === "file" ? "a file" : input.kind === "pipe" ? "another command's output" : "text only known at run time"}; ` +
      "feed it fixed text (`echo … |`) or `< /dev/null`"
    );
  }
  return null;
}

/** Why a tool that sends its input as a request gets any input (a request is a request, shown or not). */
export function stdinNotEmpty(ctx: ProofContext, who: string): Verdict {
  for (const input of ctx.stdin ?? []) {
    if (input.kind === "file" && input.word.static && input.word.value === "/dev/null") continue;
    return `${who} sends its standard input to the server as a request; run it with \`< /dev/null\` to only read what the server says`;
  }
  return null;
}

/** Why the names xargs reads could be device paths (it runs its command on them). */
export function xargsInputReachesDevices(ctx: ProofContext): Verdict {
  for (const input of ctx.stdin ?? []) {
    if (input.kind === "text") {
      for (const word of input.words) {
        const verdict = reachesDevice(word, ctx);
        if (verdict) return `xargs is fed ${verdict}`;
      }
    } else if (input.kind === "pipe") {
      const verdict = producerReachesDevices(input.producer, ctx);
      if (verdict) return verdict;
    }
  }
  return null;
}

/** A producer that names `/`, `/dev…` or `/proc…` lists device paths, unless it keeps to files. */
function producerReachesDevices(producer: SyntaxNode, ctx: ProofContext): Verdict {
  const source = ctx.source;
  const words: ProofWord[] = [];
  const visit = (node: SyntaxNode): void => {
    if (node.field === "argument" || node.field === "destination") words.push(proofWord(node, source));
    for (const child of node.children) visit(child);
  };
  visit(producer);
  const filtered = words.some(
    (word, k) => word.value === "-type" && /^[fd](,[fd])*$/.test(words[k + 1]?.value ?? ""),
  );
  for (const word of words) {
    const device = reachesDevice(word, ctx);
    if (device) return `xargs is fed by a command that names a device: ${device}`;
    if (filtered || !word.static || word.value.startsWith("-")) continue;
    const path = absolutePath(word.value);
    if (/^\/(dev|proc)(\/|$)/.test(path) || (word.value.startsWith("/") && path === "/")) {
      return mayReboot(
        `xargs runs its command on the paths \`${word.value}\` holds, device files included ` +
          "(opening a watchdog reboots the machine); keep the producer to files (`-type f`)",
        ctx,
      );
    }
  }
  return null;
}
