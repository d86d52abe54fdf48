import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { loadConfig } from "../app/config.ts";
import {
  BLOCK_RUNNERS,
  type DocBlock,
  docBlocks,
  documentationFiles,
  isShell,
  REPO,
  shellMark,
} from "./doc-blocks.ts";

// Every code block of README.md and docs/ says what it is, and the ones a reader pastes work:
// shell blocks are run by a named test, or paste as environment blocks, or are marked examples
// (and still parse as bash); oikos.yaml blocks are configuration oikos accepts.

const blocks = documentationFiles().flatMap((file) => docBlocks(file));
const where = (block: DocBlock) => `${block.file}:${block.line}`;

function bash(args: string[], env: NodeJS.ProcessEnv, input?: string) {
  return spawnSync("bash", ["--noprofile", "--norc", ...args], { env, encoding: "utf8", input });
}

test("every code block names its language, and every shell block says how it is run", () => {
  assert.ok(blocks.length > 20, "the documentation's blocks were found");
  for (const block of blocks) {
    assert.notEqual(block.language, "", `${where(block)}: a fence names its language (text, sh, yaml …)`);
    if (!isShell(block)) continue;
    const mark = shellMark(block);
    assert.ok(
      mark,
      `${where(block)}: a shell block is \`sh test=<name>\` (a test runs it), \`sh env\` (it pastes) or \`sh example\``,
    );
    if (mark.kind === "test") {
      const runner = BLOCK_RUNNERS[mark.name];
      assert.ok(
        runner,
        `${where(block)}: no test runs blocks marked test=${mark.name} (scripts/doc-blocks.ts)`,
      );
      assert.ok(existsSync(join(REPO, runner)), `${runner} exists`);
      const text = readFileSync(join(REPO, runner), "utf8");
      assert.ok(
        text.includes(`blocksRunBy("${mark.name}")`) || text.includes(`test=${mark.name}`),
        `${runner} runs the blocks marked test=${mark.name}`,
      );
    }
  }
});

test("every shell block is valid bash", () => {
  for (const block of blocks.filter(isShell)) {
    const parsed = bash(["-n"], { PATH: process.env.PATH }, block.body);
    assert.equal(parsed.status, 0, `${where(block)}: ${parsed.stderr}`);
  }
});

test("environment blocks paste: every line exports, bash runs them, and oikos accepts the result", () => {
  const envBlocks = blocks.filter((block) => isShell(block) && shellMark(block)?.kind === "env");
  assert.ok(envBlocks.length >= 8, "README's model, chat and production blocks are env blocks");
  const home = mkdtempSync(join(tmpdir(), "oikos-doc-env-"));
  try {
    for (const block of envBlocks) {
      const names: string[] = [];
      for (const line of block.body.split("\n")) {
        if (!line.trim() || line.trim().startsWith("#")) continue;
        const exported = /^export ([A-Z_][A-Z0-9_]*)=\S/.exec(line);
        assert.ok(
          exported,
          `${where(block)}: "${line}" is not \`export NAME=value\` (a bare NAME=value does not reach oikos)`,
        );
        names.push(exported[1]!);
      }
      const env = pasted(block, home);
      for (const name of names) assert.ok(env[name], `${where(block)}: ${name} is set after pasting`);
      assert.doesNotThrow(() => loadConfig({ env, cwd: home }), `${where(block)}: oikos accepts it`);
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test("oikos.yaml blocks are configuration oikos accepts (with the env block that follows them)", () => {
  const yamlBlocks = blocks.filter((block) => block.language === "yaml" && block.tags.includes("oikos.yaml"));
  assert.ok(yamlBlocks.length >= 4, "README's Matrix and Slack configurations are oikos.yaml blocks");
  const dir = mkdtempSync(join(tmpdir(), "oikos-doc-yaml-"));
  try {
    for (const block of yamlBlocks) {
      const inFile = blocks.filter((b) => b.file === block.file);
      const next = inFile[inFile.indexOf(block) + 1];
      const env = next && isShell(next) && shellMark(next)?.kind === "env" ? pasted(next, dir) : {};
      writeFileSync(join(dir, "oikos.yaml"), block.body);
      assert.doesNotThrow(() => loadConfig({ env, cwd: dir }), `${where(block)} is accepted`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** The environment a clean shell has after the block was pasted into it. */
function pasted(block: DocBlock, home: string): NodeJS.ProcessEnv {
  const run = bash(["-eu", "-c", `${block.body}\nenv -0`], { PATH: process.env.PATH, HOME: home });
  assert.equal(run.status, 0, `${where(block)} runs in bash: ${run.stderr}`);
  const env: NodeJS.ProcessEnv = {};
  for (const entry of run.stdout.split("\0").filter(Boolean)) {
    const at = entry.indexOf("=");
    env[entry.slice(0, at)] = entry.slice(at + 1);
  }
  delete env.PATH;
  delete env.HOME;
  return env;
}
