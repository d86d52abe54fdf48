import assert from "node:assert/strict";
import { test } from "node:test";
import {
  type ApprovalPreviewDecision,
  decideAtApproval,
  previewRecheckAt,
  type RecheckNeed,
  type ShownPreview,
} from "./approval-gate.ts";
import type { PlanPreview } from "./types.ts";

const T0 = new Date("2026-12-01T10:00:00.000Z");
const at = (ms: number) => new Date(T0.getTime() + ms);
const FP_A = "a".repeat(64);
const FP_B = "b".repeat(64);

function available(fingerprint = FP_A, computedAt = T0, ruleId = "file.sed_in_place"): PlanPreview {
  return {
    status: "available",
    kind: "file_diff",
    ruleId,
    text: "--- /etc/exports\n+++ /etc/exports\n",
    truncated: false,
    computedAt: computedAt.toISOString(),
    fingerprint,
    parts: [{ kind: "file_diff", ruleId, command: "sed -i s/a/b/ /etc/exports", text: "" }],
    notPreviewed: [],
    expectations: [],
  };
}
const unavailable: PlanPreview = {
  status: "unavailable",
  reason: "no preview rule",
  computedAt: T0.toISOString(),
};
const failed = (computedAt = T0): PlanPreview => ({
  status: "failed",
  reason: "ssh: connection refused",
  computedAt: computedAt.toISOString(),
});

test("a preview with no rule is never recomputed; one never recorded always is", () => {
  for (const maxAge of [0, 60_000]) {
    assert.deepEqual(previewRecheckAt(unavailable, at(10 * 3_600_000), maxAge), {
      kind: "not_needed",
      why: "no_rule",
    });
    assert.deepEqual(previewRecheckAt(null, T0, maxAge), { kind: "recompute", why: "not_recorded" });
    assert.deepEqual(previewRecheckAt(failed(), T0, maxAge), { kind: "recompute", why: "failed_before" });
  }
});

test("age decides for an available preview: within maxAge fresh, past it stale, 0 always stale", () => {
  assert.deepEqual(previewRecheckAt(available(), at(60_000), 60_000), { kind: "not_needed", why: "fresh" });
  assert.deepEqual(previewRecheckAt(available(), at(60_001), 60_000), { kind: "recompute", why: "stale" });
  assert.deepEqual(previewRecheckAt(available(), T0, 0), { kind: "recompute", why: "stale" });
  // computed "in the future" (another process's clock): never trusted as fresh
  assert.deepEqual(previewRecheckAt(available(FP_A, at(5_000)), T0, 60_000), {
    kind: "recompute",
    why: "stale",
  });
});

const stale: RecheckNeed = { kind: "recompute", why: "stale" };

function kindOf(decision: ApprovalPreviewDecision): string {
  return decision.kind === "proceed" ? `proceed:${decision.why}` : `ask_again:${decision.reason}`;
}

test("every pair of shown and recomputed preview: the approval goes through only if what was shown holds", () => {
  const shownCases: [string, ShownPreview][] = [
    ["available A", available(FP_A)],
    ["failed", failed()],
    ["not recorded", null],
  ];
  const freshCases: [string, PlanPreview][] = [
    ["available A", available(FP_A, at(1))],
    ["available B", available(FP_B, at(1))],
    ["available A other rule", available(FP_A, at(1), "file.tee")],
    ["failed", failed(at(1))],
    ["unavailable", { ...unavailable, computedAt: at(1).toISOString() }],
  ];
  const expected: Record<string, Record<string, string>> = {
    "available A": {
      "available A": "proceed:unchanged",
      "available B": "ask_again:changed",
      "available A other rule": "ask_again:different_rule",
      failed: "ask_again:recheck_failed",
      unavailable: "ask_again:recheck_failed",
    },
    failed: {
      "available A": "ask_again:now_available",
      "available B": "ask_again:now_available",
      "available A other rule": "ask_again:now_available",
      failed: "proceed:still_unavailable",
      unavailable: "proceed:still_unavailable",
    },
    "not recorded": {
      "available A": "ask_again:now_available",
      "available B": "ask_again:now_available",
      "available A other rule": "ask_again:now_available",
      failed: "proceed:still_unavailable",
      unavailable: "proceed:still_unavailable",
    },
  };
  for (const [shownName, shown] of shownCases) {
    const need = previewRecheckAt(shown, at(1), 0);
    assert.equal(need.kind, "recompute", shownName);
    for (const [freshName, fresh] of freshCases) {
      const decision = decideAtApproval(shown, need, fresh);
      assert.equal(kindOf(decision), expected[shownName]?.[freshName], `${shownName} → ${freshName}`);
      if (decision.kind === "ask_again") {
        assert.equal(decision.preview, fresh, "the new card shows the recomputed preview");
        assert.match(decision.message, /Nothing ran/);
        assert.match(decision.nextStep, /do not run the command again/);
      }
    }
  }
});

test("not recomputed: a rule-less or fresh preview proceeds without a second preview", () => {
  assert.equal(
    kindOf(decideAtApproval(unavailable, { kind: "not_needed", why: "no_rule" }, null)),
    "proceed:no_rule",
  );
  assert.equal(
    kindOf(decideAtApproval(available(), { kind: "not_needed", why: "fresh" }, null)),
    "proceed:fresh",
  );
});

test("a recompute that was needed but not done is a wiring fault, never a silent approval", () => {
  assert.throws(() => decideAtApproval(available(), stale, null));
});
