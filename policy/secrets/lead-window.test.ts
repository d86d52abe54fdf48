import assert from "node:assert/strict";
import { test } from "node:test";
import { mixedCommandOutput } from "../../test-support/bench/policy/redact.bench.ts";
import { LOOKALIKE_SAMPLES } from "../../test-support/secret-samples/lookalike-samples.ts";
import { PATHOLOGICAL_SHAPES } from "../../test-support/secret-samples/pathological.ts";
import { SECRET_SAMPLES } from "../../test-support/secret-samples/secret-samples.ts";
import { leadWindow } from "./lead-window.ts";
import type { PatternRule } from "./rule.ts";
import { ALL_SECRET_RULES } from "./rule-set.ts";

const WINDOWED = ALL_SECRET_RULES.filter(
  (rule): rule is PatternRule => "pattern" in rule && leadWindow(rule.pattern) !== null,
);

/** A match as plain data: start, every group, every group's indices, named groups. */
function shapeOf(match: RegExpExecArray | null) {
  if (match === null) return null;
  return {
    index: match.index,
    values: [...match],
    groups: match.groups ? { ...match.groups } : undefined,
    indices: [...match.indices!],
    indexGroups: match.indices!.groups ? { ...match.indices!.groups } : undefined,
  };
}

/**
 * Every search the detector could make on `text` (from 0, from each match's end, from each match's
 * start + 1 and from a spread of positions) finds the same match with the fast path as with the regex.
 */
function assertSameMatches(rule: PatternRule, text: string, label: string): number {
  const regex = new RegExp(rule.pattern.source, `${rule.pattern.flags}gd`);
  const window = leadWindow(rule.pattern)!;
  const froms = new Set([0, text.length, text.length + 1]);
  for (let at = 0; at < text.length; at += Math.max(1, Math.floor(text.length / 64))) froms.add(at);
  let matches = 0;
  const queue = [...froms];
  for (let i = 0; i < queue.length; i++) {
    const from = queue[i]!;
    regex.lastIndex = from;
    const expected = regex.exec(text);
    const actual = window.exec(text, from);
    assert.deepEqual(shapeOf(actual), shapeOf(expected), `${rule.id}, ${label}, from ${from}`);
    if (expected === null) continue;
    matches++;
    for (const next of [expected.index + 1, expected.index + Math.max(1, expected[0].length)]) {
      if (!froms.has(next)) {
        froms.add(next);
        queue.push(next);
      }
    }
  }
  return matches;
}

test("the lead-window fast path applies to the curl and redis-cli rules", () => {
  assert.deepEqual(
    WINDOWED.map((rule) => rule.id),
    ["gitleaks:curl-auth-header", "gitleaks:curl-auth-user", "curl-user-password", "redis-cli-password"],
  );
});

test("lead-window: patterns not of the shape are left to the regex", () => {
  for (const pattern of [
    /\bcurl\b[\s\S]{0,1024}?-u (\S+)|password=(\S+)/, // the tail is two alternatives
    /\b(?:curl|wget)\b[\s\S]{0,1024}?-u (\S+)/, // the lead is not one word
    /\bcurl\b[\s\S]{0,1024}-u (\S+)/, // a greedy gap
    /\bcurl\b([\s\S]{0,1024}?)-u (\S+)/, // the gap captures
    /curl\b[\s\S]{0,1024}?-u (\S+)/, // no boundary in front of the word
  ])
    assert.equal(leadWindow(pattern), null, pattern.source);
  assert.notEqual(leadWindow(/\bcurl\b[^|]{0,9}?-u (?:(a)|(b))/), null);
});

test("lead-window: the regex's matches on the corpus, the pathological shapes and the bench's output", () => {
  const texts: [string, string][] = [
    ...SECRET_SAMPLES.map((sample): [string, string] => [sample.form, sample.text]),
    ...LOOKALIKE_SAMPLES.map((sample): [string, string] => [sample.form, sample.text]),
    ...Object.entries(PATHOLOGICAL_SHAPES).map(([name, shape]): [string, string] => [name, shape.repeat(2)]),
    ["mixed command output", mixedCommandOutput(100_000)],
  ];
  let matches = 0;
  for (const rule of WINDOWED)
    for (const [label, text] of texts) matches += assertSameMatches(rule, text, label);
  assert.ok(matches > 20, `only ${matches} matches compared`);
});

test("lead-window: the regex's matches at the window's edges, in every case and after every gap breaker", () => {
  // Seeded, so a failure names a text that can be replayed.
  let seed = 0xc0ffee;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
    return seed / 0x80000000;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const words = ["curl", "Curl", "CURL", "xcurl", "curl_", "curl-x", "redis-cli", "REDIS-CLI", "redis-clix"];
  const options = [
    " -u ",
    " -u",
    "\t--user=",
    " --user ",
    " -U ",
    " --proxy-user ",
    " -a ",
    " --pass ",
    ' -H "Authorization: Bearer ',
    " -h 'Authorization: Basic ",
    " --header='X-Api-Key: ",
    ' -H "Token: ',
  ];
  const values = [
    "admin:Hunter22x",
    "'a:b c'",
    '"u:p w"',
    "u:",
    ":p",
    "tok3nV4lue99xyz",
    "x",
    "abcd1234efgh5678\"'",
  ];
  const fillers = [" ", "\n", "\r\n", "|", ";", "&", "&&", "'", '"', "-", ":"];
  let compared = 0;
  const gap = () => "x".repeat(pick([0, 1, 3, 500, 510, 511, 512, 513, 1019, 1023, 1024, 1025, 1100]));
  for (let round = 0; round < 1_000; round++) {
    let text = "";
    const parts = 1 + Math.floor(random() * 6);
    for (let p = 0; p < parts; p++) {
      const r = random();
      // A command, a gap around the bounds (512 for the homelab rules, 1024 for gitleaks'), an option.
      if (r < 0.5) text += `${pick(words)}${gap()}${pick(options)}${pick(values)}${pick(fillers)}`;
      else if (r < 0.65) text += pick(words);
      else if (r < 0.8) text += `${pick(options)}${pick(values)}`;
      else if (r < 0.9) text += pick(fillers);
      else text += gap();
    }
    for (const rule of WINDOWED)
      compared += assertSameMatches(rule, text, `round ${round}: ${JSON.stringify(text)}`);
  }
  assert.ok(compared > 500, `only ${compared} matches compared`);
});

test("lead-window: the regex's matches where a gap ends, at the bound and at a breaker", () => {
  const cases = [
    "curl; -u admin:Hunter22x ", // a breaker right after the word: no gap can hold it
    "curl x| -u admin:Hunter22x ",
    "curl x\n -u admin:Hunter22x ",
    "curl x\t-u admin:Hunter22x ",
    `curl${"x".repeat(511)} -u admin:Hunter22x `, // the tail at the bound, and one past it
    `curl${"x".repeat(512)} -u admin:Hunter22x `,
    `curl${"x".repeat(1023)} -u admin:Hunter22x `,
    `curl${"x".repeat(1024)} -u admin:Hunter22x `,
    // The first curl is too far from its option, the second is not.
    `curl curl${"x".repeat(1020)} -u admin:Hunter22x `,
    `curl curl${"x".repeat(508)} -u admin:Hunter22x `,
    `redis-cli redis-cli${"x".repeat(508)} -a Hunter22x `,
  ];
  for (const rule of WINDOWED) for (const text of cases) assertSameMatches(rule, text, JSON.stringify(text));
});

test("lead-window: the regex's matches for small patterns of the shape, on every short text", () => {
  // Tails that start inside the word, match empty, or hold groups; gaps of both kinds.
  const patterns = [
    /\bab\b[\s\S]{0,3}?(b?)c/,
    /\bab\b[^;]{0,2}?;?(c+)/,
    /\bab\b[^\n;]{0,4}?(?<v>\w{1,3})d/m,
    /\bab\b[\s\S]{0,2}?(?:(a)|(c))$/im,
    /\bab\b[\s\S]{0,1}?(c?)/,
    /\bab\b[\s\S]{0,1}?(b?;)/, // a tail that can start on the word's last letter
  ];
  let seed = 0xab;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
    return seed / 0x80000000;
  };
  const alphabet = ["a", "b", "ab", "AB", "c", "d", " ", ";", "\n"];
  let compared = 0;
  for (const pattern of patterns) {
    assert.notEqual(leadWindow(pattern), null, pattern.source);
    const rule = { id: pattern.source, keywords: [], pattern };
    for (let round = 0; round < 1_500; round++) {
      let text = "";
      const length = Math.floor(random() * 14);
      for (let i = 0; i < length; i++) text += alphabet[Math.floor(random() * alphabet.length)];
      compared += assertSameMatches(rule, text, JSON.stringify(text));
    }
  }
  assert.ok(compared > 1_000, `only ${compared} matches compared`);
});
