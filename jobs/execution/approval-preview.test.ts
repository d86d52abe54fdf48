import assert from "node:assert/strict";
import { test } from "node:test";
import type { PlanPreviewer, PreviewRequest } from "../preview/previewer.ts";
import { boundedPreview } from "./approval-preview.ts";

const request: PreviewRequest = {
  target: { slug: "host:nas", transport: "local" },
  targetType: "host",
  jail: undefined,
  command: "sed -i s/ro/rw/ /etc/exports",
};
const now = () => new Date("2026-12-01T10:00:00.000Z");

function previewer(compute: PlanPreviewer["compute"]): PlanPreviewer {
  return { compute, verify: async () => ({ status: "unchecked", detail: "not used" }) };
}

test("a preview that never answers is a failed preview saying so, and its computation is aborted", async () => {
  let signal: AbortSignal | undefined;
  const hanging = previewer((r) => {
    signal = r.signal;
    return new Promise(() => {});
  });
  const preview = await boundedPreview(hanging, request, 20, now);
  assert.deepEqual(preview, {
    status: "failed",
    reason: "the preview took longer than 0 s",
    computedAt: "2026-12-01T10:00:00.000Z",
  });
  assert.equal(signal?.aborted, true, "the probes are told to stop");
});

test("a previewer that throws is a failed preview with the redacted reason, never an exception", async () => {
  const throwing = previewer(async () => {
    throw new Error("ssh: auth failed for password=hunter2-correct-horse");
  });
  const preview = await boundedPreview(throwing, request, 5_000, now);
  assert.equal(preview.status, "failed");
  assert.ok(preview.status === "failed" && !preview.reason.includes("hunter2-correct-horse"), "redacted");
});

test("an answer within the bound is returned as computed", async () => {
  const answer = {
    status: "unavailable" as const,
    reason: "no rule",
    computedAt: "2026-12-01T09:59:59.000Z",
  };
  assert.deepEqual(
    await boundedPreview(
      previewer(async () => answer),
      request,
      5_000,
      now,
    ),
    answer,
  );
});
