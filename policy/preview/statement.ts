import type { ParsedScript, SyntaxNode } from "../bash-parser.ts";
import type { Arg } from "../command-view.ts";
import { isHarmlessDevice } from "../paths.ts";
import { basename, isOutsideSystemBin } from "../program-path.ts";
import { toArg } from "../redirects.ts";

/**
 * The top-level statements of a parsed command line as the preview rules see them, read from the
 * classifier's own parse (never from the command string): simple commands and pipelines joined by
 * `&&`, `||`, `;` or newlines. Anything else (if, loops, functions, subshells, a redirect on a whole
 * list) is a shape no rule previews, said as a reason.
 */

/** An output redirection to a file (`> f`, `>> f`); discarding ones (`>/dev/null`, `2>&1`) are not writes. */
export interface FileWrite {
  path: Arg;
  append: boolean;
  /** The redirection's span in the source, cut out to run what produces the content alone. */
  start: number;
  end: number;
}

/** One stage of a pipeline (or the only one): its words, with a leading plain `sudo` taken off. */
export interface Stage {
  argv: Arg[];
  /** basename of the program, after `sudo`; "" when the stage runs no command (`> f`). */
  name: string;
  /** `NAME=value` prefixes, as written. */
  assignments: { name: string; text: string }[];
  sudo: boolean;
}

export interface Statement {
  /** The statement as written. */
  text: string;
  stages: Stage[];
  /** Files the last stage writes by redirection. */
  writes: FileWrite[];
  /** Files any stage reads by an input redirection (`< f`). */
  inputs: Arg[];
  /**
   * What produces the content written, as a command line: for a redirection, the statement without
   * it; else for a pipeline, the stages before the last (what `tee` receives). null when neither.
   */
  producer: string | null;
  /**
   * The last stage's input redirections as written, output redirections taken out (`<<'EOF'\n…\nEOF`,
   * `<<< 'x'`, `< file`): `cat <stdin>` prints what the command reads. null when it reads none.
   */
  stdin: string | null;
}

export type Statements = { ok: true; statements: Statement[] } | { ok: false; reason: string };

export function statementsOf(parsed: ParsedScript): Statements {
  if (parsed.hasError || parsed.rejection) {
    return { ok: false, reason: "the command does not parse cleanly, so it is not previewed" };
  }
  const out: Statement[] = [];
  const reason = collect(parsed.root, parsed.source, out);
  return reason === null ? { ok: true, statements: out } : { ok: false, reason };
}

function collect(node: SyntaxNode, source: string, out: Statement[]): string | null {
  switch (node.type) {
    case "program":
    case "list":
      for (const child of node.children) {
        if (!child.named || child.type === "comment") continue;
        const reason = collect(child, source, out);
        if (reason !== null) return reason;
      }
      return null;
    case "command":
    case "pipeline":
    case "redirected_statement": {
      const statement = statementOf(node, source);
      if (typeof statement === "string") return statement;
      out.push(statement);
      return null;
    }
    default:
      return `the command uses \`${node.type.replaceAll("_", " ")}\`; previews cover simple commands and pipelines joined by &&, || and ;`;
  }
}

function statementOf(node: SyntaxNode, source: string): Statement | string {
  const text = source.slice(node.start, node.end);
  let body = node;
  let outer: SyntaxNode[] = [];
  if (node.type === "redirected_statement") {
    const inner = node.children.find((child) => child.field === "body");
    outer = node.children.filter((child) => child.field === "redirect" || child.type.endsWith("redirect"));
    if (!inner) return stageless(node, source, outer, text);
    if (inner.type !== "command" && inner.type !== "pipeline") {
      return `the redirection in ${quote(text)} applies to a whole \`${inner.type}\`, which is not previewed`;
    }
    body = inner;
  }
  // `cat <<EOF | tee f`: the rest of the pipeline sits inside the heredoc redirect.
  const tail = heredocTail(outer);
  const stageNodes = body.type === "pipeline" ? body.children.filter((child) => child.named) : [body];
  if (tail) stageNodes.push(...tail.stages);
  const stages: Stage[] = [];
  const writesPerStage: FileWrite[][] = [];
  const inputs: Arg[] = [];
  let stdin: string | null = null;
  for (const [i, stageNode] of stageNodes.entries()) {
    const last = i === stageNodes.length - 1;
    const redirects: SyntaxNode[] = [];
    let command = stageNode;
    if (stageNode.type === "redirected_statement") {
      const inner = stageNode.children.find((child) => child.field === "body");
      if (inner?.type !== "command")
        return `${quote(text)} has a pipeline stage that is not a simple command`;
      redirects.push(...stageNode.children.filter((child) => child !== inner));
      command = inner;
    }
    if (command.type !== "command") return `${quote(text)} has a pipeline stage that is not a simple command`;
    redirects.push(...command.children.filter((child) => child.field === "redirect"));
    // The statement's own redirections belong to the last stage (bash binds them there); the heredoc
    // one to the first.
    if (last && !tail) redirects.push(...outer);
    const writes = writesOf(redirects, source);
    if (typeof writes === "string") return writes;
    writesPerStage.push(writes);
    inputs.push(...inputFiles(redirects, source));
    stages.push(stageOf(command, source));
    if (last) stdin = inputOf(redirects, source);
  }
  if (writesPerStage.slice(0, -1).some((writes) => writes.length > 0)) {
    return `${quote(text)} writes a file from the middle of a pipeline, which is not previewed`;
  }
  if (tail) {
    const tailWrites = writesOf(outer, source);
    if (typeof tailWrites === "string") return tailWrites;
    if (tailWrites.length > 0)
      return `${quote(text)} mixes a heredoc and a file redirection, which is not previewed`;
  }
  const writes = writesPerStage[writesPerStage.length - 1] ?? [];
  return {
    text,
    stages,
    writes,
    inputs,
    producer: producerOf(node, body, stageNodes, tail, writes, source),
    stdin: tail ? null : stdin,
  };
}

/** `> f` alone: writes an empty file (or appends nothing). */
function stageless(
  _node: SyntaxNode,
  source: string,
  redirects: SyntaxNode[],
  text: string,
): Statement | string {
  const writes = writesOf(redirects, source);
  if (typeof writes === "string") return writes;
  return {
    text,
    stages: [{ argv: [], name: "", assignments: [], sudo: false }],
    writes,
    inputs: [],
    producer: ":",
    stdin: null,
  };
}

function heredocTail(
  redirects: SyntaxNode[],
): { pipe: SyntaxNode; stages: SyntaxNode[]; end: number } | null {
  for (const redirect of redirects) {
    if (redirect.type !== "heredoc_redirect") continue;
    const pipeline = redirect.children.find((child) => child.type === "pipeline");
    if (pipeline) {
      const pipe = pipeline.children.find((child) => child.type === "|");
      const stages = pipeline.children.filter((child) => child.named);
      const lastStage = stages[stages.length - 1];
      if (pipe && lastStage) return { pipe, stages, end: lastStage.end };
    }
    const pipe = redirect.children.find((child) => child.type === "|");
    const command = redirect.children.find((child) => child.type === "command");
    if (pipe && command) return { pipe, stages: [command], end: command.end };
  }
  return null;
}

function producerOf(
  node: SyntaxNode,
  body: SyntaxNode,
  stageNodes: SyntaxNode[],
  tail: { pipe: SyntaxNode; stages: SyntaxNode[]; end: number } | null,
  writes: FileWrite[],
  source: string,
): string | null {
  if (tail) {
    // Everything but the last stage: the heredoc's command with the heredoc, and the stages before.
    const lastStage = stageNodes[stageNodes.length - 1] as SyntaxNode;
    const pipes = [tail.pipe.start, ...stageNodesPipes(tail.stages, source)];
    const cutFrom = pipes[pipes.length - 1] as number;
    return cut(source, node.start, node.end, [[cutFrom, lastStage.end]]);
  }
  if (writes.length === 0 && stageNodes.length > 1) {
    const previous = stageNodes[stageNodes.length - 2] as SyntaxNode;
    return source.slice(body.start, previous.end);
  }
  if (writes.length > 0) {
    return cut(
      source,
      node.start,
      node.end,
      writes.map((write) => [write.start, write.end]),
    );
  }
  return null;
}

/** Start offsets of the `|` before each stage after the first (inside a heredoc's tail). */
function stageNodesPipes(stages: SyntaxNode[], source: string): number[] {
  const out: number[] = [];
  for (let i = 1; i < stages.length; i++) {
    const between = source.slice((stages[i - 1] as SyntaxNode).end, (stages[i] as SyntaxNode).start);
    out.push((stages[i - 1] as SyntaxNode).end + between.indexOf("|"));
  }
  return out;
}

function cut(source: string, start: number, end: number, spans: [number, number][]): string {
  let out = "";
  let at = start;
  for (const [spanFrom, to] of [...spans].sort((a, b) => a[0] - b[0])) {
    // The blank before a cut redirection goes with it (`echo a > f` runs as `echo a`).
    const from =
      spanFrom > at && (source[spanFrom - 1] === " " || source[spanFrom - 1] === "\t")
        ? spanFrom - 1
        : spanFrom;
    out += source.slice(at, from);
    at = to;
  }
  return (out + source.slice(at, end)).replace(/[ \t]+\n/g, "\n").trim();
}

function stageOf(command: SyntaxNode, source: string): Stage {
  const argv: Arg[] = [];
  const assignments: Stage["assignments"] = [];
  for (const child of command.children) {
    if (child.field === "name" || child.field === "argument") argv.push(toArg(child, source));
    if (child.type === "variable_assignment") {
      const name = child.children.find((part) => part.field === "name");
      assignments.push({
        name: name ? source.slice(name.start, name.end) : "",
        text: source.slice(child.start, child.end),
      });
    }
  }
  // A plain `sudo` (no options but -n) runs the rest as root; the preview reads as the session user.
  let sudo = false;
  let words = argv;
  if (words[0]?.value === "sudo" && words[0].dynamic === "none") {
    let i = 1;
    while (words[i]?.value === "-n") i++;
    // `sudo NAME=value cmd` sets the variable for cmd, like a prefix assignment would.
    while (words[i] && /^[A-Za-z_][A-Za-z0-9_]*=/.test((words[i] as Arg).value)) {
      const word = words[i] as Arg;
      assignments.push({ name: word.value.slice(0, word.value.indexOf("=")), text: word.raw });
      i++;
    }
    if (words[i] && !(words[i] as Arg).value.startsWith("-")) {
      sudo = true;
      words = words.slice(i);
    }
  }
  const head = words[0];
  // `./sed` or `/opt/x/sed` is whatever program sits there: its name keeps the path, so no rule
  // previews it as the system tool.
  const name =
    head && head.dynamic === "none"
      ? isOutsideSystemBin(head.value)
        ? head.value
        : basename(head.value)
      : "";
  return {
    argv: words,
    name,
    assignments,
    sudo,
  };
}

const WRITE_OPERATORS = new Set([">", ">>", ">|"]);

function writesOf(redirects: SyntaxNode[], source: string): FileWrite[] | string {
  const writes: FileWrite[] = [];
  // Every redirection of the output (`>/dev/null`, `>&2`, `&>f` as well as `> f`): with a file
  // write among several, which one gets the output depends on their order, so none is previewed.
  let outputRedirections = 0;
  for (const redirect of fileRedirects(redirects)) {
    const operator = redirect.children.find((child) => !child.named)?.type ?? "";
    const descriptor = redirect.children.find((child) => child.field === "descriptor");
    const fd = descriptor ? source.slice(descriptor.start, descriptor.end) : null;
    if ((fd === null || fd === "1") && operator !== "<" && operator !== "<&" && operator !== "<>")
      outputRedirections++;
  }
  for (const redirect of fileRedirects(redirects)) {
    const operator = redirect.children.find((child) => !child.named)?.type ?? "";
    const destination = redirect.children.find((child) => child.field === "destination");
    const descriptor = redirect.children.find((child) => child.field === "descriptor");
    const fd = descriptor ? source.slice(descriptor.start, descriptor.end) : null;
    if (!destination) continue;
    const path = toArg(destination, source);
    if (operator === "<" || operator === "<&") continue;
    if ((operator === ">&" || operator === "<&") && /^(\d+|-)$/.test(path.value)) continue;
    if (path.dynamic === "none" && isHarmlessDevice(path.value)) continue;
    const text = source.slice(redirect.start, redirect.end);
    if (!WRITE_OPERATORS.has(operator) || (fd !== null && fd !== "1")) {
      return `the redirection \`${text}\` writes something other than the command's output to a file, which is not previewed`;
    }
    writes.push({ path, append: operator === ">>", start: redirect.start, end: redirect.end });
  }
  // `2>&1 > f`: the other stream goes where the output went before the write (not into f); the
  // producer run alone would put it into what the preview shows.
  const first = writes[0];
  if (first && duplicatesOutputBefore(redirects, source, first.start)) {
    return "a stream is sent to the output before the output is redirected to the file, so it is not previewed";
  }
  if (writes.length > 0 && outputRedirections > 1) {
    return "the command's output is redirected more than once; which redirection gets it depends on their order, so it is not previewed";
  }
  return writes;
}

function duplicatesOutputBefore(redirects: SyntaxNode[], source: string, before: number): boolean {
  return fileRedirects(redirects).some((redirect) => {
    const operator = redirect.children.find((child) => !child.named)?.type ?? "";
    const destination = redirect.children.find((child) => child.field === "destination");
    return (
      redirect.start < before &&
      operator === ">&" &&
      destination !== undefined &&
      source.slice(destination.start, destination.end) === "1"
    );
  });
}

/** The files input redirections (`< f`) read. */
function inputFiles(redirects: SyntaxNode[], source: string): Arg[] {
  const out: Arg[] = [];
  for (const redirect of fileRedirects(redirects)) {
    const operator = redirect.children.find((child) => !child.named)?.type ?? "";
    const destination = redirect.children.find((child) => child.field === "destination");
    if (destination && (operator === "<" || operator === "<>")) out.push(toArg(destination, source));
  }
  return out;
}

/** File redirects, including the ones tree-sitter nests inside a heredoc redirect. */
function fileRedirects(redirects: SyntaxNode[]): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (const redirect of redirects) {
    if (redirect.type === "file_redirect") out.push(redirect);
    else if (redirect.type === "heredoc_redirect") {
      out.push(...redirect.children.filter((child) => child.type === "file_redirect"));
    }
  }
  return out;
}

function quote(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return `\`${line.length > 80 ? `${line.slice(0, 79)}…` : line}\``;
}

/** The input redirections' text with every output redirection nested in them cut out; null if none. */
function inputOf(redirects: SyntaxNode[], source: string): string | null {
  const parts: string[] = [];
  for (const redirect of redirects) {
    const operator = redirect.children.find((child) => !child.named)?.type ?? "";
    const input =
      redirect.type === "heredoc_redirect" ||
      redirect.type === "herestring_redirect" ||
      (redirect.type === "file_redirect" && operator === "<");
    if (!input) continue;
    const nested = redirect.children.filter((child) => child.type === "file_redirect");
    parts.push(
      cut(
        source,
        redirect.start,
        redirect.end,
        nested.map((child) => [child.start, child.end]),
      ),
    );
  }
  return parts.length === 0 ? null : parts.join(" ");
}
