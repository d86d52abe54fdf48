import assert from "node:assert/strict";
import { test } from "node:test";
import { LOOKALIKE_SAMPLES } from "../../test-support/secret-samples/lookalike-samples.ts";
import { SECRET_SAMPLES } from "../../test-support/secret-samples/secret-samples.ts";
import { GITLEAKS_RULES } from "./gitleaks-rules.ts";
import type { PatternRule } from "./rule.ts";

/** gitleaks' generic-api-key match allowlist as gitleaks writes it (config/gitleaks.toml, b58d3f102cf3). */
const GITLEAKS_GENERIC_MATCH_ALLOW =
  /(?:access(?:ibility|or)|access[_.-]?id|random[_.-]?access|api[_.-]?(?:id|name|version)|rapid|capital|[a-z0-9-]*?api[a-z0-9-]*?:jar:|author|X-MS-Exchange-Organization-Auth|Authentication-Results|(?:credentials?[_.-]?id|withCredentials)|(?:bucket|foreign|hot|idx|natural|primary|pub(?:lic)?|schema|sequence)[_.-]?key|(?:turkey)|key[_.-]?(?:alias|board|code|frame|id|length|mesh|name|pair|press(?:ed)?|ring|selector|signature|size|stone|storetype|word|up|down|left|right)|key[_.-]?vault[_.-]?(?:id|name)|keyVaultToStoreSecrets|key(?:store|tab)[_.-]?(?:file|path)|issuerkeyhash|(?-i:[DdMm]onkey|[DM]ONKEY)|keying|(?:secret)[_.-]?(?:length|name|size)|UserSecretsId|(?:csrf)[_.-]?token|(?:io\.jsonwebtoken[ \t]?:[ \t]?[\w-]+)|(?:api|credentials|token)[_.-]?(?:endpoint|ur[il])|public[_.-]?token|(?:key|token)[_.-]?file|(?-i:(?:[A-Z_]+=\n[A-Z_]+=|[a-z_]+=\n[a-z_]+=)(?:\n|$))|(?-i:(?:[A-Z.]+=\n[A-Z.]+=|[a-z.]+=\n[a-z.]+=)(?:\n|$)))/i;

test("generic-api-key's match allowlist allows exactly what gitleaks' does", () => {
  const generic = GITLEAKS_RULES.find((rule) => rule.id === "generic-api-key") as PatternRule;
  const ours = generic.allow!.find((list) => list.target === "match")!.regexes![0]!;
  // The only difference is the dropped lazy prefix in front of `api…:jar:`.
  assert.equal(
    ours.source,
    GITLEAKS_GENERIC_MATCH_ALLOW.source.replace("[a-z0-9-]*?api[a-z0-9-]*?:jar:", "api[a-z0-9-]*?:jar:"),
  );
  assert.equal(ours.flags, GITLEAKS_GENERIC_MATCH_ALLOW.flags);
  const subjects = [
    "my-api-thing:jar:1.0",
    "API-x:JAR:",
    "xapi:jar:",
    "api:jar:",
    "ap-i:jar:",
    "api_x:jar:",
    "a-b-c-api-d-e:jar:",
    "apiapi",
    ":jar:api",
    `${"a-".repeat(200)}api${"-b".repeat(200)}:jar:`,
    ...[...SECRET_SAMPLES, ...LOOKALIKE_SAMPLES].map((sample) => sample.text),
  ];
  let seed = 0x1eaf;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
    return seed / 0x80000000;
  };
  const pieces = ["api", "API", "a", "p", "i", "-", "_", ":jar:", ":JAR:", ":", "jar", "x", "0", " ", "key"];
  for (let i = 0; i < 5_000; i++) {
    let subject = "";
    const length = Math.floor(random() * 12);
    for (let k = 0; k < length; k++) subject += pieces[Math.floor(random() * pieces.length)];
    subjects.push(subject);
  }
  let allowed = 0;
  for (const subject of subjects) {
    const expected = GITLEAKS_GENERIC_MATCH_ALLOW.test(subject);
    assert.equal(ours.test(subject), expected, JSON.stringify(subject));
    if (expected) allowed++;
  }
  assert.ok(allowed > 100, `only ${allowed} subjects allowed`);
});
