import type { JailGrant } from "./jail-grant.ts";
import type { RunsElsewhere } from "./runs-elsewhere.ts";
import type { UnreadableKind } from "./unreadable.ts";

/** How dangerous a command is. `reject` means it must not run at all in this form. */
export type Risk = "read_only" | "config_mutation" | "destructive" | "reject";

const RANK: Record<Risk, number> = { read_only: 0, config_mutation: 1, destructive: 2, reject: 3 };

export function riskRank(risk: Risk): number {
  return RANK[risk];
}

export function maxRisk(a: Risk, b: Risk): Risk {
  return RANK[a] >= RANK[b] ? a : b;
}

/** One reason a piece of a command got its risk. */
export interface Finding {
  risk: Risk;
  reason: string;
  /** Set when the risk is the worst the command could do, because oikos cannot read what it runs. */
  unreadable?: UnreadableKind;
}

/** One simple command (after unwrapping) and what it was judged to be. */
export interface Segment {
  text: string;
  risk: Risk;
  reasons: string[];
  unreadable?: UnreadableKind;
}

export interface Classification {
  risk: Risk;
  reasons: string[];
  segments: Segment[];
  /** Commands that run on the target itself, wrappers unwrapped (`sudo qm list` gives `sudo`, `qm`). */
  commands: string[];
  /**
   * For read_only only: every program the proof saw the command run (basenames, helpers included).
   * Running anything else would contradict the proof; the execution oracle checks exactly that.
   */
  programs?: string[];
  /**
   * For read_only only: the resources the jail opens to this run (policy/jail-grant.ts), the union
   * over every piece of the command, each named by a proof spec. Empty: fully contained.
   */
  grants?: JailGrant[];
  /**
   * Why oikos cannot tell what the command changes (policy/unreadable.ts), when that is why it is
   * graded destructive: the approval card says so in words.
   */
  unreadable?: UnreadableKind;
  /**
   * Set when the command is not read-only only because it runs its (read-only) inner command on
   * another host, in a guest or a container (policy/runs-elsewhere.ts): where, and where to run it
   * instead. The run gate's refusals carry it as their next step.
   */
  elsewhere?: RunsElsewhere;
}

/** Short, single-line rendering of a command fragment for reason strings. */
export function quoteSegment(text: string, max = 80): string {
  const oneLine = /\s\s|[\n\t\r\\]/.test(text)
    ? text
        .replace(/\s*\\\n\s*/g, " ")
        .replace(/\s+/g, " ")
        .trim()
    : text.trim();
  const clipped = oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
  return `\`${clipped}\``;
}
