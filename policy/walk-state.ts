import type { BashParser, SyntaxNode } from "./bash-parser.ts";
import type { Finding, Risk, Segment } from "./risk.ts";
import { maxRisk } from "./risk.ts";
import type { WordValue } from "./words.ts";

/** How deep commands and scripts run by commands (`sudo …`, `bash -c '…'`) are followed. */
export const MAX_DEPTH = 8;
/** `find -exec` / `xargs -I{}` replace this with each input item. */
export const PLACEHOLDER = "{}";

export interface WalkEnv {
  parser: BashParser;
  targetType: string;
  /** Names of the commands that run on the target itself (not inside ssh, pct exec, docker exec …). */
  localCommands: Set<string>;
}

/** One script's walk: what it has found so far, and the two ways back into the walk. */
export interface WalkState {
  source: string;
  env: WalkEnv;
  depth: number;
  /** This script runs somewhere else than the target (the inner script of `ssh host '…'`). */
  elsewhere: boolean;
  segments: Segment[];
  functions: Set<string>;
  /** Walks a node of this script (its simple commands become segments). */
  visit(node: SyntaxNode): void;
  /** Parses and walks a script run by a command of this one, as findings of that command. */
  classifyScript(
    script: string,
    origin: string,
    dynamic: WordValue["dynamic"],
    depth: number,
    elsewhere: boolean,
  ): Finding[];
}

export function text(node: SyntaxNode, state: WalkState): string {
  return state.source.slice(node.start, node.end);
}

export function segmentOf(segmentText: string, findings: Finding[]): Segment {
  let risk: Risk = "read_only";
  for (const f of findings) risk = maxRisk(risk, f.risk);
  const reasons: string[] = [];
  for (const f of findings) if (f.risk === risk && !reasons.includes(f.reason)) reasons.push(f.reason);
  const unreadable = findings.find((f) => f.risk === risk && f.unreadable)?.unreadable;
  return unreadable ? { text: segmentText, risk, reasons, unreadable } : { text: segmentText, risk, reasons };
}
