import { decideAtApproval, previewRecheckAt } from "../../policy/preview/approval-gate.ts";
import type { OutcomeCheck, PlanPreview } from "../../policy/preview/types.ts";
import { redact } from "../../policy/redact.ts";
import { getApproval } from "../../store/approvals.ts";
import type { ConsentVia } from "../../store/consent.ts";
import type { Db } from "../../store/db.ts";
import { getExecution } from "../../store/executions.ts";
import { askAgainWithPreview, type PreviewGateOutcome } from "../../store/preview-approval.ts";
import {
  recordOutcomeCheck,
  recordPreview,
  shownPreviewOfApproval,
  shownPreviewOfExecution,
} from "../../store/previews.ts";
import type { PlanPreviewer, PreviewRequest, PreviewTarget } from "../preview/previewer.ts";

/** How long computing a preview may hold up an approval card (or an operator's approval). */
export const DEFAULT_PREVIEW_TIMEOUT_MS = 15_000;

export interface ApprovalPreviewOptions {
  db: Db;
  previewer: PlanPreviewer;
  /** Where the command's target is now (RunService.previewTarget); undefined: not runnable. */
  previewTarget: (slug: string) => Promise<PreviewTarget | undefined>;
  timeoutMs: number;
  /** A shown preview older than this is computed again when approved (0: always). */
  maxAgeMs: number;
  approvalTtlMs: number;
  clock: () => Date;
}

/**
 * Plan previews on approval cards (issue #15): computed and recorded when an approval is created,
 * so its card is posted with them; checked again when the operator approves
 * (policy/preview/approval-gate.ts decides; a changed preview asks again with a new card).
 */
export class ApprovalPreviews {
  readonly #o: ApprovalPreviewOptions;

  constructor(options: ApprovalPreviewOptions) {
    this.#o = options;
  }

  get previewer(): PlanPreviewer {
    return this.#o.previewer;
  }

  /** Computes the preview of a new approval's command and records it as what its card shows. */
  async previewNewApproval(input: {
    sessionId: string;
    executionId: string;
    approvalId: string;
    target: string;
    command: string;
  }): Promise<PlanPreview> {
    const preview = await this.compute(input.target, input.command);
    await recordPreview(this.#o.db, {
      sessionId: input.sessionId,
      executionId: input.executionId,
      approvalId: input.approvalId,
      purpose: "shown",
      preview,
    });
    return preview;
  }

  /**
   * The gate when an operator approves `approvalId`: recompute if policy says so, then proceed or
   * ask again (the old approval cancelled, a new one with the new preview). A recheck that went
   * through is recorded too, so the audit shows what the approval was checked against.
   */
  async atApproval(approvalId: string, act: { by: string; via: ConsentVia }): Promise<PreviewGateOutcome> {
    const { db } = this.#o;
    const approval = await getApproval(db, approvalId);
    if (!approval?.execution_id || approval.subject !== "execution" || approval.status !== "pending")
      return { kind: "proceed" };
    const execution = await getExecution(db, approval.execution_id);
    if (!execution) return { kind: "proceed" };
    const shown = (await shownPreviewOfApproval(db, approvalId))?.preview ?? null;
    const need = previewRecheckAt(shown, this.#now(), this.#o.maxAgeMs);
    if (need.kind === "not_needed") return { kind: "proceed" };
    const fresh = await this.compute(execution.target, execution.command);
    const decision = decideAtApproval(shown, need, fresh);
    const label = decision.kind === "proceed" ? `proceed:${decision.why}` : `ask_again:${decision.reason}`;
    if (decision.kind === "proceed") {
      await recordPreview(db, {
        sessionId: approval.session_id,
        executionId: execution.id,
        approvalId,
        purpose: "recheck",
        preview: fresh,
        decision: label,
      });
      return { kind: "proceed" };
    }
    const result = await askAgainWithPreview(db, {
      approvalId,
      by: act.by,
      via: act.via,
      preview: decision.preview,
      decision: label,
      ttlMs: this.#o.approvalTtlMs,
      now: this.#now(),
    });
    return { kind: "asked_again", message: decision.message, result };
  }

  /**
   * After the run (issue #15): where the preview the operator approved names what can be checked
   * (a file's hash, the package lists), compare the target now with it and record what was found
   * on that preview row (once). Runs before execution.finished is published, so the cards and the
   * agent's continuation read it. Never throws; a check that cannot run is `unchecked`.
   */
  async checkOutcome(executionId: string): Promise<OutcomeCheck[] | undefined> {
    const { db } = this.#o;
    const [execution, shown] = await Promise.all([
      getExecution(db, executionId),
      shownPreviewOfExecution(db, executionId),
    ]);
    if (!execution || !shown || shown.outcome !== null) return undefined;
    if (shown.preview.status !== "available" || shown.preview.expectations.length === 0) return undefined;
    if (!RAN.has(execution.status)) return undefined;
    const where = await this.#o.previewTarget(execution.target);
    const checks: OutcomeCheck[] = [];
    for (const expectation of shown.preview.expectations) {
      checks.push(
        where
          ? await boundedCheck(() => this.#o.previewer.verify(expectation, where), this.#o.timeoutMs)
          : { status: "unchecked", detail: `the target ${execution.target} cannot be reached` },
      );
    }
    await recordOutcomeCheck(db, shown.id, checks, this.#now());
    return checks;
  }

  /** One preview, within the time bound; never throws (a failure is a `failed` preview). */
  async compute(slug: string, command: string): Promise<PlanPreview> {
    const where = await this.#o.previewTarget(slug);
    if (!where) return this.#failed(`the target ${slug} cannot be reached for a preview`);
    const request: PreviewRequest = { ...where, command };
    return boundedPreview(this.#o.previewer, request, this.#o.timeoutMs, () => this.#now());
  }

  #failed(reason: string): PlanPreview {
    return { status: "failed", reason, computedAt: this.#now().toISOString() };
  }

  #now(): Date {
    return this.#o.clock();
  }
}

/** Statuses of an execution whose command ran (to the end or not): its effect can be compared. */
const RAN: ReadonlySet<string> = new Set(["completed", "failed", "timed_out"]);

async function boundedCheck(check: () => Promise<OutcomeCheck>, timeoutMs: number): Promise<OutcomeCheck> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<OutcomeCheck>((resolve) => {
    timer = setTimeout(
      () =>
        resolve({
          status: "unchecked",
          detail: `the check took longer than ${Math.round(timeoutMs / 1000)} s`,
        }),
      timeoutMs,
    );
  });
  const checked = check().catch(
    (error: unknown): OutcomeCheck => ({
      status: "unchecked",
      detail: redact(error instanceof Error ? error.message : String(error)),
    }),
  );
  try {
    return await Promise.race([checked, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The previewer's answer within `timeoutMs`: past it the computation is aborted and the preview is
 * `failed` ("timed out"), so an approval card is never held back for longer.
 */
export async function boundedPreview(
  previewer: PlanPreviewer,
  request: PreviewRequest,
  timeoutMs: number,
  now: () => Date,
): Promise<PlanPreview> {
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<PlanPreview>((resolve) => {
    timer = setTimeout(() => {
      abort.abort();
      resolve({
        status: "failed",
        reason: `the preview took longer than ${Math.round(timeoutMs / 1000)} s`,
        computedAt: now().toISOString(),
      });
    }, timeoutMs);
  });
  const computed = previewer.compute({ ...request, signal: abort.signal }).catch(
    (error: unknown): PlanPreview => ({
      status: "failed",
      reason: redact(error instanceof Error ? error.message : String(error)),
      computedAt: now().toISOString(),
    }),
  );
  try {
    return await Promise.race([computed, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
