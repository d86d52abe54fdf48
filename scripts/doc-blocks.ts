import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

// The fenced code blocks of README.md and docs/*.md, with what their info string says about them.
// A shell block is never just shown: it is run by a test (`sh test=<name>`), an environment block
// that pastes into a shell (`sh env`, checked by scripts/doc-blocks.test.ts), or marked as an
// example that needs what a test machine has not (`sh example`: a real homeserver, docker …).

export const REPO = join(import.meta.dirname, "..");

/** Languages whose blocks are commands for a shell. */
export const SHELL_LANGUAGES = ["sh", "bash", "shell", "console", "zsh"] as const;

export type ShellMark = { kind: "example" } | { kind: "env" } | { kind: "test"; name: string };

export interface DocBlock {
  /** Repository-relative path of the markdown file. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The info string's first word (`sh`, `yaml` …), "" when the fence has none. */
  language: string;
  /** The info string's other words (`example`, `env`, `test=walkthrough`, `oikos.yaml` …). */
  tags: string[];
  /** The lines between the fences, without the fence's indentation. */
  body: string;
}

/** README.md and every docs/*.md, repository-relative. */
export function documentationFiles(root: string = REPO): string[] {
  const docs = readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`);
  return ["README.md", ...docs];
}

/** Every fenced block of one markdown file, in order (fences may be indented, as in a list). */
export function docBlocks(file: string, root: string = REPO): DocBlock[] {
  const lines = readFileSync(join(root, file), "utf8").split("\n");
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,})(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const [, indent = "", fence = "", info = ""] = open;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !lines[j]!.trim().startsWith(fence)) {
      body.push(lines[j]!.startsWith(indent) ? lines[j]!.slice(indent.length) : lines[j]!);
      j++;
    }
    const [language = "", ...tags] = info.trim().split(/\s+/).filter(Boolean);
    blocks.push({ file, line: i + 1, language, tags, body: body.join("\n") });
    i = j;
  }
  return blocks;
}

export function isShell(block: DocBlock): boolean {
  return (SHELL_LANGUAGES as readonly string[]).includes(block.language);
}

/** What a shell block's tags say it is; undefined when they say nothing (or too much). */
export function shellMark(block: DocBlock): ShellMark | undefined {
  const marks = block.tags.flatMap((tag): ShellMark[] => {
    if (tag === "example") return [{ kind: "example" }];
    if (tag === "env") return [{ kind: "env" }];
    const test = /^test=([a-z][a-z0-9-]*)$/.exec(tag);
    return test ? [{ kind: "test", name: test[1]! }] : [];
  });
  return marks.length === 1 ? marks[0] : undefined;
}

/** The shell blocks marked `test=<name>`, in file order: the ones that test runs. */
export function blocksRunBy(name: string, root: string = REPO): DocBlock[] {
  return documentationFiles(root)
    .flatMap((file) => docBlocks(file, root))
    .filter((block) => {
      const mark = isShell(block) ? shellMark(block) : undefined;
      return mark?.kind === "test" && mark.name === name;
    });
}

/**
 * What runs marked blocks: `test=<name>` → the file that runs them, which names the mark (a test's
 * `blocksRunBy("<name>")`, or `test=<name>` in a script). `install`: .ci/run installs a clean clone
 * with the README's own install block.
 */
export const BLOCK_RUNNERS: Record<string, string> = {
  install: ".ci/run",
  walkthrough: "scripts/readme-walkthrough.test.ts",
};
