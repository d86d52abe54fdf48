import assert from "node:assert/strict";
import { test } from "node:test";
import { loadBashParser } from "./bash-parser.ts";
import { loadClassifier } from "./classify.ts";
import { compareShapes, MAX_NESTING, secondShape, treeSitterShape } from "./parse-agreement.ts";
import { loadSecondParser } from "./second-parser.ts";

const classifier = await loadClassifier();
const first = await loadBashParser();
const second = loadSecondParser();

function disagreement(command: string): string | null {
  const parsed = first.parse(command);
  const other = second.parse(command);
  assert.ok(other.ok, `mvdan/sh parses ${command}`);
  return (
    compareShapes(treeSitterShape(parsed), secondShape(other.tree, second, command), command)?.reason ?? null
  );
}

test("the two parsers agree on ordinary commands, also outside ASCII", () => {
  for (const command of [
    'ls -la /srv | grep -v x && cat /etc/hosts 2>/dev/null; echo "$(date +%s) x"',
    'echo "héllo wörld ✓" > /tmp/x; cat <<EOF\n$HOME ${USER:-x}\nEOF',
    "time -p ls; X=1; for ((i=0;i<2;i++)); do echo $i; done",
    "[ -f x ] && declare -p y; unset a; [[ -n $x ]]",
    "diff <(sort a) <(sort b) >/dev/null",
  ]) {
    assert.equal(disagreement(command), null, command);
  }
});

test("a line continuation inside a comment is where the parsers part: rejected", () => {
  const result = classifier.classify("echo hi # \\\nreboot");
  assert.equal(result.risk, "reject");
  assert.match(result.reasons[0] ?? "", /two bash parsers disagree/);
});

test("a continuation inside a word (r\\<newline>m) is rejected, not split into two words", () => {
  assert.equal(classifier.classify("r\\\nm -rf /srv").risk, "reject");
});

test("backquotes inside a heredoc body that tree-sitter leaves as text are rejected", () => {
  const result = classifier.classify("cat <<EOF\n`reboot`\nEOF");
  assert.equal(result.risk, "reject");
  assert.match(result.reasons.join(" "), /substitution/);
});

test("text the second parser cannot parse is rejected with its message", () => {
  // Valid for tree-sitter's error recovery? Either way it must not run.
  const result = classifier.classify("echo $(( 1 + ))");
  assert.equal(result.risk, "reject");
});

test("nesting deeper than the limit is rejected", () => {
  const depth = MAX_NESTING;
  const command = `${"$(echo ".repeat(depth)}x${")".repeat(depth)}`;
  const result = classifier.classify(`echo ${command}`);
  assert.equal(result.risk, "reject");
});

test("nested scripts (bash -c) are compared too", () => {
  const result = classifier.classify("bash -c 'echo hi # \\\nreboot'");
  assert.equal(result.risk, "reject");
});
