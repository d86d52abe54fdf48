import assert from "node:assert/strict";
import { test } from "node:test";
import { loadClassifier } from "./classify.ts";
import type { LintCode } from "./lint.ts";
import { MAX_COMMAND_BYTES } from "./lint.ts";

const classifier = await loadClassifier();

const BAD: readonly (readonly [command: string, code: LintCode, mentions: RegExp])[] = [
  ["ls \\", "trailing_backslash", /ls \\/],
  ["systemctl status nginx \\\n", "trailing_backslash", /systemctl status nginx/],
  ["echo a\\nls", "literal_newline_escape", /a\\nls.*between `a` and `ls`/],
  ["ls -la \\n df -h", "literal_newline_escape", /\\n/],
  // seed 001 F7 verbatim: the literal \n lands in command position after &&
  ['echo "---" && \\n curl -s localhost', "literal_newline_escape", /\\n/],
  ["head - n 20 /var/log/syslog", "spaced_flag", /`- n`.*`-n`/],
  ["tail -- f /var/log/x", "spaced_flag", /`-- f`/],
  ["echo 'abc", "unbalanced_quote", /single quote opened at `'abc`/],
  ['grep "foo /etc/hosts', "unbalanced_quote", /double quote/],
  ["ls &&", "parse_error", /missing after `ls &&`/],
  ["ls |", "parse_error", /line 1/],
  ["if true; then echo x", "parse_error", /parse error/],
  ["", "empty", /empty/],
  ["   \n  ", "empty", /empty/],
  [";;", "empty", /empty/],
  ["ls\0 -la", "nul_byte", /NUL/],
  [`echo ${"x".repeat(MAX_COMMAND_BYTES)}`, "too_long", /over the 16384-byte limit/],
];

for (const [command, code, mentions] of BAD) {
  test(`lint refuses ${JSON.stringify(command.slice(0, 40))} with ${code}`, () => {
    const result = classifier.lint(command);
    assert.equal(result.ok, false, `expected ${code}`);
    if (result.ok) return;
    const problem = result.problems.find((p) => p.code === code);
    assert.ok(problem, `got ${JSON.stringify(result.problems)}`);
    assert.match(problem.message, mentions);
  });
}

const GOOD = [
  "ls -la",
  "docker compose logs --tail=50",
  "printf 'a\\nb\\n'",
  'echo "line\\nnext"',
  "cat - < file",
  "tar -xzf - -C /opt",
  "kubectl apply -f -",
  "cat <<'EOF' > /etc/x.conf\nit's fine\nEOF",
  "ls \\\n  -la",
  "echo 'don'\\''t'",
  "awk -F: '{print $1}' /etc/passwd # comment with ' quote",
  "for i in 1 2; do echo $i; done",
  "sed -n '1,20p' /etc/fstab",
  "printf %s\\\\n a b",
];

for (const command of GOOD) {
  test(`lint accepts ${JSON.stringify(command)}`, () => {
    assert.deepEqual(classifier.lint(command), { ok: true });
  });
}
