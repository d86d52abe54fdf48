import { createHash } from "node:crypto";
import type { Classifier } from "../../policy/classify.ts";
import { composePreviewText } from "../../policy/preview/compose-text.ts";
import { dependentParts } from "../../policy/preview/line-order.ts";
import { mergeDirEntries } from "../../policy/preview/merge-expectations.ts";
import type { ProbeView } from "../../policy/preview/mount-view.ts";
import type { Unseen } from "../../policy/preview/name-facts.ts";
import { planPreview } from "../../policy/preview/plan.ts";
import type { PlannedPart, ProbeResult, Rendered } from "../../policy/preview/rule.ts";
import type { PlanPreview, PreviewExpectation, PreviewPart } from "../../policy/preview/types.ts";
import { redact } from "../../policy/redact.ts";
import { quoteSegment } from "../../policy/risk.ts";
import { COULD_NOT_LOOK, type Looker, partFacts, resolveNames, startLooking } from "./gather-facts.ts";
import type { PlanPreviewer, PreviewRequest } from "./previewer.ts";
import type { ProbeRunner } from "./run-probe.ts";
import { verifyExpectation } from "./verify.ts";

export interface PlanPreviewerOptions {
  classifier: Classifier;
  /** The transports (jobs/ssh TransportRouter): probes run where the command would. */
  runner: ProbeRunner;
  now?: () => Date;
  /** Per probe. */
  probeTimeoutMs?: number;
  /** Per probe and stream: a file larger than this is not diffed (the preview says so). */
  maxProbeOutputBytes?: number;
  /** The preview's text (every part, each in full while it fits, else in one line) is cut here. */
  maxTextChars?: number;
}

export const DEFAULT_PROBE_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_PROBE_OUTPUT_BYTES = 512 * 1024;
export const DEFAULT_MAX_PREVIEW_CHARS = 12_000;
/** A line whose parts plan more probes than this up front is not previewed. */
export const MAX_PROBES = 24;
/** The most probes one preview runs in all (facts, contents, listings): past it, parts are not previewed. */
export const MAX_PROBE_RUNS = 64;

/**
 * The plan previewer: plans the probes (policy/preview/plan.ts), gathers who looks and what every
 * path resolves to (gather-facts.ts), runs each part's probes read-only and jailed where the target
 * can jail (run-probe.ts), renders, checks the parts against the order of the line
 * (policy/preview/line-order.ts), redacts and caps. Never throws for a command or target problem:
 * those are `unavailable` or `failed` previews, or parts "not previewed" with why.
 */
export function createPlanPreviewer(options: PlanPreviewerOptions): PlanPreviewer {
  const now = options.now ?? (() => new Date());
  const limits = {
    timeoutMs: options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS,
    maxOutputBytes: options.maxProbeOutputBytes ?? DEFAULT_MAX_PROBE_OUTPUT_BYTES,
  };
  const maxChars = options.maxTextChars ?? DEFAULT_MAX_PREVIEW_CHARS;
  return {
    async compute(request) {
      const computedAt = now().toISOString();
      try {
        return await computePreview(options, request, limits, maxChars, computedAt);
      } catch (error) {
        return {
          status: "failed",
          reason: redact(`computing the preview failed: ${(error as Error).message}`),
          computedAt,
        };
      }
    },
    verify(expectation: PreviewExpectation, where) {
      return verifyExpectation(
        { classifier: options.classifier, runner: options.runner, ...where, limits },
        expectation,
      );
    },
  };
}

type Shown = PreviewPart & {
  statement: number;
  effect: string;
  expectations: PreviewExpectation[];
  touches: NonNullable<Extract<Rendered, { status: "ok" }>["touches"]> | null;
  usesPaths: boolean;
};

async function computePreview(
  options: PlanPreviewerOptions,
  request: PreviewRequest,
  limits: { timeoutMs: number; maxOutputBytes: number },
  maxChars: number,
  computedAt: string,
): Promise<PlanPreview> {
  const plan = planPreview(options.classifier, request.command, request.targetType);
  if (plan.status === "unavailable") return { status: "unavailable", reason: plan.reason, computedAt };
  const upFront = plan.parts.reduce(
    (sum, part) => sum + (typeof part.probes === "function" ? part.paths.length : part.probes.length),
    0,
  );
  if (upFront > MAX_PROBES) {
    return {
      status: "unavailable",
      reason: `the line would need ${upFront} read-only commands to preview (at most ${MAX_PROBES})`,
      computedAt,
    };
  }
  const context = {
    classifier: options.classifier,
    runner: options.runner,
    target: request.target,
    targetType: request.targetType,
    jail: request.jail,
    limits,
    ...(request.signal ? { signal: request.signal } : {}),
  };
  const looking = await startLooking(
    context,
    plan.parts.some((part) => part.identity === "sudo"),
  );
  if ("failed" in looking) {
    return { status: "failed", reason: `who the preview looks as is unknown: ${looking.failed}`, computedAt };
  }
  const budget = { runs: 0 };
  const view = looking.view;
  const shown: Shown[] = [];
  const notPreviewed = [...plan.notPreviewed];
  // A part whose looking failed (a probe that failed or timed out) is "failed", not "no rule": with
  // nothing shown, the preview is failed and is looked at again when the operator approves.
  let lookingFailed = false;
  for (const part of plan.parts) {
    const rendered = await previewPart(looking, part, view, budget);
    if (rendered.status === "unavailable") {
      lookingFailed ||= rendered.reason.startsWith(COULD_NOT_LOOK);
      notPreviewed.push({ command: part.command, reason: rendered.reason, statement: part.statement });
      continue;
    }
    shown.push({
      kind: part.kind,
      ruleId: part.ruleId,
      command: part.command,
      statement: part.statement,
      text: redact(rendered.text),
      summary: redact(rendered.summary),
      effect: rendered.effect,
      expectations: rendered.expectations,
      touches: rendered.touches ?? null,
      usesPaths: part.paths.length > 0,
    });
  }
  // Probes that ran jailed and unjailed saw two views: nothing read through paths can be trusted.
  const mixed = looking.jailedStates.size > 1;
  const order = dependentParts(
    shown.map((part) => ({ ...part, touches: part.touches })),
    notPreviewed.filter((n) => !n.reason.startsWith("the command only reads")),
  );
  const kept: Shown[] = [];
  shown.forEach((part, i) => {
    const why =
      mixed && part.usesPaths
        ? "the read-only jail started for some of the preview's commands and not for others, so what they saw cannot be compared"
        : order[i];
    if (why) notPreviewed.push({ command: part.command, reason: why, statement: part.statement });
    else kept.push(part);
  });
  const first = kept[0];
  if (!first) {
    const reasons = [...new Set(notPreviewed.map((n) => n.reason))];
    return {
      status: lookingFailed ? "failed" : "unavailable",
      reason:
        reasons.length === 1
          ? (reasons[0] as string)
          : reasons
              .map(
                (r, i) =>
                  `${notPreviewed[i]?.command ? `${quoteSegment(notPreviewed[i]?.command ?? "")}: ` : ""}${r}`,
              )
              .join("; "),
      computedAt,
    };
  }
  const parts: PreviewPart[] = kept.map(({ kind, ruleId, command, text, summary, statement }) => ({
    kind,
    ruleId,
    command: redact(command),
    text,
    ...(summary !== undefined ? { summary } : {}),
    statement,
  }));
  const notes = notPreviewed.map((n) => ({
    command: redact(n.command),
    reason: redact(n.reason),
    statement: n.statement,
  }));
  const text = composePreviewText(
    { parts, notPreviewed: notes },
    maxChars,
    "the full preview is too long to show here",
  );
  const fingerprint = createHash("sha256")
    .update(
      JSON.stringify({
        parts: kept.map((part) => [part.ruleId, part.command, part.effect]),
        notPreviewed: notPreviewed.map((n) => [n.command, n.reason]),
      }),
    )
    .digest("hex");
  return {
    status: "available",
    kind: first.kind,
    ruleId: first.ruleId,
    text: text.text,
    truncated: text.shortened,
    computedAt,
    fingerprint,
    parts,
    notPreviewed: notes,
    expectations: mergeDirEntries(kept.flatMap((part) => part.expectations)),
  };
}

/** One part: its names resolved as its user, its probes run as it says, rendered; or why not. */
async function previewPart(
  looker: Looker,
  part: PlannedPart & { statement: number },
  view: ProbeView | Unseen,
  budget: { runs: number },
): Promise<Rendered> {
  const identity = looker.identity(part.identity);
  if ("unseen" in identity) {
    return { status: "unavailable", reason: `it runs as root through sudo, and ${identity.unseen}` };
  }
  let names: Awaited<ReturnType<typeof resolveNames>> = new Map();
  if (part.paths.length > 0) {
    if ("unseen" in view) return { status: "unavailable", reason: view.unseen };
    names = await resolveNames(looker, part.paths, part.identity);
  }
  const facts = partFacts(
    identity,
    part.identity,
    "unseen" in view ? { jailed: true, mounts: [] } : view,
    names,
  );
  const probes = typeof part.probes === "function" ? part.probes(facts) : part.probes;
  if (!Array.isArray(probes)) return { status: "unavailable", reason: probes.unavailable };
  budget.runs += probes.length;
  if (budget.runs > MAX_PROBE_RUNS) {
    return {
      status: "unavailable",
      reason: `the line needs more than ${MAX_PROBE_RUNS} read-only commands to preview`,
    };
  }
  const results: ProbeResult[] = [];
  for (const probe of probes) {
    const ran = await looker.run(probe, probe.as ?? part.identity);
    // A probe that failed is a part oikos cannot show: never a smaller number, never "nothing".
    if ("failed" in ran) return { status: "unavailable", reason: `${COULD_NOT_LOOK}${ran.failed}` };
    results.push(ran);
  }
  return part.render(results, facts);
}
