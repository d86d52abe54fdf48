import { createHash } from "node:crypto";
import type { Classifier } from "../../policy/classify.ts";
import { planPreview } from "../../policy/preview/plan.ts";
import type { ProbeResult } from "../../policy/preview/rule.ts";
import type { PlanPreview, PreviewExpectation, PreviewPart } from "../../policy/preview/types.ts";
import { redact } from "../../policy/redact.ts";
import { quoteSegment } from "../../policy/risk.ts";
import type { PlanPreviewer, PreviewRequest } from "./previewer.ts";
import { type ProbeRunner, runProbe } from "./run-probe.ts";
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
  /** The preview text shown (each part, and all of it) is cut here. */
  maxTextChars?: number;
}

export const DEFAULT_PROBE_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_PROBE_OUTPUT_BYTES = 512 * 1024;
export const DEFAULT_MAX_PREVIEW_CHARS = 12_000;
/** A line that would need more probes than this is not previewed. */
export const MAX_PROBES = 24;

/**
 * The plan previewer: plans the probes (policy/preview/plan.ts), runs them read-only and jailed where
 * the target can jail (run-probe.ts), renders, redacts and caps. Never throws for a command or target
 * problem: those are `unavailable` or `failed` previews.
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
        return await computePreview(
          options.classifier,
          options.runner,
          request,
          limits,
          maxChars,
          computedAt,
        );
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

async function computePreview(
  classifier: Classifier,
  runner: ProbeRunner,
  request: PreviewRequest,
  limits: { timeoutMs: number; maxOutputBytes: number },
  maxChars: number,
  computedAt: string,
): Promise<PlanPreview> {
  const plan = planPreview(classifier, request.command, request.targetType);
  if (plan.status === "unavailable") return { status: "unavailable", reason: plan.reason, computedAt };
  const probeCount = plan.parts.reduce((sum, part) => sum + part.probes.length, 0);
  if (probeCount > MAX_PROBES) {
    return {
      status: "unavailable",
      reason: `the line would need ${probeCount} read-only commands to preview (at most ${MAX_PROBES})`,
      computedAt,
    };
  }
  const context = {
    classifier,
    runner,
    target: request.target,
    targetType: request.targetType,
    jail: request.jail,
    limits,
    ...(request.signal ? { signal: request.signal } : {}),
  };
  const shown: (PreviewPart & { effect: string; expectations: PreviewExpectation[] })[] = [];
  const notPreviewed = [...plan.notPreviewed];
  for (const part of plan.parts) {
    const results: ProbeResult[] = [];
    for (const probe of part.probes) {
      const ran = await runProbe(context, probe);
      if ("failed" in ran) {
        return {
          status: "failed",
          reason: `previewing ${quoteSegment(part.command)}: ${ran.failed}`,
          computedAt,
        };
      }
      results.push(ran);
    }
    const rendered = part.render(results);
    if (rendered.status === "unavailable") {
      notPreviewed.push({ command: part.command, reason: rendered.reason });
      continue;
    }
    shown.push({
      kind: part.kind,
      ruleId: part.ruleId,
      command: part.command,
      text: capped(redact(rendered.text), maxChars).text,
      effect: rendered.effect,
      expectations: rendered.expectations,
    });
  }
  const first = shown[0];
  if (!first) {
    const reasons = notPreviewed.map((n) => n.reason);
    return {
      status: "unavailable",
      reason: reasons.length === 1 ? (reasons[0] as string) : reasons.join("; "),
      computedAt,
    };
  }
  const blocks = [
    ...(shown.length + notPreviewed.length > 1
      ? ["Each command is shown against the target as it is now."]
      : []),
    ...shown.map((part) => `$ ${part.command}\n${part.text}`),
    ...notPreviewed.map((n) => `$ ${n.command}\n(not previewed: ${n.reason})`),
  ];
  const text = capped(redact(blocks.join("\n\n")), maxChars);
  const fingerprint = createHash("sha256")
    .update(
      JSON.stringify({
        parts: shown.map((part) => [part.ruleId, part.command, part.effect]),
        notPreviewed: notPreviewed.map((n) => [n.command, n.reason]),
      }),
    )
    .digest("hex");
  return {
    status: "available",
    kind: first.kind,
    ruleId: first.ruleId,
    text: text.text,
    truncated: text.truncated,
    computedAt,
    fingerprint,
    parts: shown.map(({ kind, ruleId, command, text: partText }) => ({
      kind,
      ruleId,
      command: redact(command),
      text: partText,
    })),
    notPreviewed: notPreviewed.map((n) => ({ command: redact(n.command), reason: redact(n.reason) })),
    expectations: shown.flatMap((part) => part.expectations),
  };
}

function capped(text: string, max: number): { text: string; truncated: boolean } {
  if (text.length <= max) return { text, truncated: false };
  const cut = text.slice(0, max);
  const atLine = cut.lastIndexOf("\n");
  return {
    text: `${atLine > max / 2 ? cut.slice(0, atLine) : cut}\n… (cut at ${max} characters)`,
    truncated: true,
  };
}
