import assert from "node:assert/strict";
import { test } from "node:test";
import { LOOKALIKE_SAMPLES } from "../../test-support/secret-samples/lookalike-samples.ts";
import { SECRET_SAMPLES } from "../../test-support/secret-samples/secret-samples.ts";
import { REDACTED, redact, redactWithReport } from "../redact.ts";
import { HOMELAB_RULES } from "./rule-set.ts";

test("redaction corpus: every real-shaped secret is removed, every look-alike is left unchanged", () => {
  const leaked: string[] = [];
  const rulesHit = new Map<string, number>();
  for (const sample of SECRET_SAMPLES) {
    const { text, hits } = redactWithReport(sample.text);
    for (const [rule, count] of Object.entries(hits)) rulesHit.set(rule, (rulesHit.get(rule) ?? 0) + count);
    const left = sample.secrets.filter((secret) => text.includes(secret));
    if (left.length > 0 || !text.includes(REDACTED)) leaked.push(`${sample.form}: ${JSON.stringify(text)}`);
  }
  const changed: string[] = [];
  for (const sample of LOOKALIKE_SAMPLES) {
    const { text, hits } = redactWithReport(sample.text);
    if (text !== sample.text)
      changed.push(`${sample.form} (${Object.keys(hits).join(", ")}): ${JSON.stringify(text)}`);
  }
  const redacted = SECRET_SAMPLES.length - leaked.length;
  const kept = LOOKALIKE_SAMPLES.length - changed.length;
  console.log(
    `redaction corpus: ${redacted}/${SECRET_SAMPLES.length} secrets redacted, ` +
      `${kept}/${LOOKALIKE_SAMPLES.length} look-alikes unchanged, ${rulesHit.size} rules fired`,
  );
  assert.ok(SECRET_SAMPLES.length >= 150, `the corpus holds ${SECRET_SAMPLES.length} secrets, want >= 150`);
  assert.ok(
    LOOKALIKE_SAMPLES.length >= 100,
    `the corpus holds ${LOOKALIKE_SAMPLES.length} look-alikes, want >= 100`,
  );
  assert.deepEqual(leaked, [], `${leaked.length} secrets leaked`);
  assert.deepEqual(changed, [], `${changed.length} look-alikes changed`);
});

test("every homelab rule's own examples: the secret goes, the kept texts stay", () => {
  for (const rule of HOMELAB_RULES) {
    assert.ok(rule.examples.length > 0, `${rule.id} carries no example`);
    for (const example of rule.examples) {
      const { text, hits } = redactWithReport(example.text);
      assert.ok(!text.includes(example.secret), `${rule.id}: ${JSON.stringify(text)}`);
      assert.ok(
        hits[rule.id],
        `${rule.id} did not fire on its own example (others did: ${Object.keys(hits).join(", ")})`,
      );
    }
    for (const keep of rule.keeps ?? [])
      assert.equal(redact(keep), keep, `${rule.id} changed a text it keeps`);
  }
});

test("redaction is idempotent and only the secret is replaced", () => {
  for (const sample of SECRET_SAMPLES) {
    const once = redact(sample.text);
    assert.equal(redact(once), once, sample.form);
  }
  assert.equal(redact("DB_PASS=Tr0ub4dor3x"), `DB_PASS=${REDACTED}`);
  assert.equal(redact('{"auth": "Ym9iOmh1bnRlcjI="}'), `{"auth": "${REDACTED}"}`);
});
