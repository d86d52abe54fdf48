import type { JailFacts } from "../../policy/jail.ts";
import type { OutcomeCheck, PlanPreview, PreviewExpectation } from "../../policy/preview/types.ts";
import type { Target } from "../ssh/target.ts";

/**
 * Where a preview runs: the target as the run service resolved it (target-resolver.ts), the entity's
 * type (the classifier's target type) and the jail facts the run gate uses for it. A preview's
 * commands are read-only runs with nobody asked, so they follow the jail exactly like one.
 */
export interface PreviewTarget {
  target: Target;
  targetType: string;
  jail: JailFacts | undefined;
}

export interface PreviewRequest extends PreviewTarget {
  /** The command line the operator is asked to approve, byte for byte. */
  command: string;
  signal?: AbortSignal;
}

/**
 * Computes plan previews (issue #15) and checks them after the run. Never throws for a target or
 * command problem: the answer is a PlanPreview with status `unavailable` or `failed`, or an
 * OutcomeCheck `unchecked`.
 */
export interface PlanPreviewer {
  compute(request: PreviewRequest): Promise<PlanPreview>;
  verify(expectation: PreviewExpectation, where: PreviewTarget): Promise<OutcomeCheck>;
}
