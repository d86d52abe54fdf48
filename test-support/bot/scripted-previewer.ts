import { createHash } from "node:crypto";
import type { Kysely } from "kysely";
import { ApprovalPreviews } from "../../jobs/execution/approval-preview.ts";
import type { PlanPreviewer, PreviewRequest, PreviewTarget } from "../../jobs/preview/previewer.ts";
import type { OutcomeCheck, PlanPreview, PreviewExpectation } from "../../policy/preview/types.ts";
import type { Database } from "../../store/schema.ts";

/**
 * A PlanPreviewer test double for bot tests, injected where the run service's previewer goes
 * (jobs/execution/approval-preview.ts): `effect` is what the target would show now (a diff text);
 * change it to play "the file changed on the host", or set `fail` / `unavailable`. The real
 * previewer (jobs/preview/) is exercised against lab targets by its own tests and the evals.
 */
export class ScriptedPreviewer implements PlanPreviewer {
  effect = "--- /etc/exports\n+++ /etc/exports\n@@ -1 +1 @@\n-/srv 10.0.0.0/24(ro)\n+/srv 10.0.0.0/24(rw)";
  fail: string | null = null;
  unavailable: string | null = null;
  readonly computed: PreviewRequest[] = [];
  outcome: OutcomeCheck = { status: "matches", detail: "/etc/exports has the previewed sha256" };

  async compute(request: PreviewRequest): Promise<PlanPreview> {
    this.computed.push(request);
    const computedAt = new Date().toISOString();
    if (this.unavailable) return { status: "unavailable", reason: this.unavailable, computedAt };
    if (this.fail) return { status: "failed", reason: this.fail, computedAt };
    const fingerprint = createHash("sha256").update(this.effect).digest("hex");
    return {
      status: "available",
      kind: "file_diff",
      ruleId: "file.sed_in_place",
      text: this.effect,
      truncated: false,
      computedAt,
      fingerprint,
      parts: [
        { kind: "file_diff", ruleId: "file.sed_in_place", command: request.command, text: this.effect },
      ],
      notPreviewed: [],
      expectations: [{ kind: "file_hash", path: "/etc/exports", sha256After: fingerprint }],
    };
  }

  async verify(_expectation: PreviewExpectation, _where: PreviewTarget): Promise<OutcomeCheck> {
    return this.outcome;
  }
}

/** The run service's ApprovalPreviews over a scripted previewer: every approval looks again (max age 0). */
export function scriptedApprovalPreviews(
  db: Kysely<Database>,
  previewer: ScriptedPreviewer,
): ApprovalPreviews {
  return new ApprovalPreviews({
    db,
    previewer,
    previewTarget: async (slug) => ({
      target: { slug, transport: "local" },
      targetType: "host",
      jail: undefined,
    }),
    timeoutMs: 5_000,
    maxAgeMs: 0,
    approvalTtlMs: 3_600_000,
    clock: () => new Date(),
  });
}
