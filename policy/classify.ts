import type { BashParser, ParsedScript } from "./bash-parser.ts";
import { loadBashParser } from "./bash-parser.ts";
import { createDualParser } from "./dual-parser.ts";
import type { LintResult } from "./lint.ts";
import { lintParsed, MAX_COMMAND_BYTES } from "./lint.ts";
import { proveScript } from "./proof/prove.ts";
import type { Classification, Risk, Segment } from "./risk.ts";
import { quoteSegment } from "./risk.ts";
import { loadSecondParser } from "./second-parser.ts";
import { walkScript, worstOf } from "./walk.ts";

export type { Classification, Risk, Segment } from "./risk.ts";

/** The loaded bash grammar with everything that needs it. All methods are synchronous. */
export interface Classifier {
  classify(command: string, targetType?: string): Classification;
  lint(command: string): LintResult;
  parse(command: string): ParsedScript;
  /** Size of the grammar's wasm heap (grows only: tests use it to prove trees are freed). */
  wasmHeapBytes(): number;
}

let loaded: Promise<Classifier> | undefined;

/** Loads the grammar once per process and returns the shared classifier. */
export function loadClassifier(): Promise<Classifier> {
  loaded ??= loadBashParser().then((first) => createClassifier(createDualParser(first, loadSecondParser())));
  return loaded;
}

export function createClassifier(parser: BashParser): Classifier {
  return {
    classify: (command, targetType = "host") => classifyWith(parser, command, targetType),
    lint: (command) => lintParsed(command, (source) => parser.parse(source)),
    parse: (command) => parser.parse(command),
    wasmHeapBytes: () => parser.wasmHeapBytes(),
  };
}

function rejected(reason: string, text: string): Classification {
  return {
    risk: "reject",
    reasons: [reason],
    segments: [{ text, risk: "reject", reasons: [reason] }],
    commands: [],
  };
}

/**
 * Classifies a command line by walking every simple command of its bash parse tree and
 * taking the worst. What cannot be proven read-only is never read_only.
 */
export function classifyWith(parser: BashParser, command: string, targetType: string): Classification {
  if (command.includes("\0")) return rejected("the command contains a NUL byte", command);
  if (Buffer.byteLength(command) > MAX_COMMAND_BYTES) {
    return rejected(
      `the command is longer than ${MAX_COMMAND_BYTES} bytes; split it or put it in a reviewed script`,
      quoteSegment(command),
    );
  }
  if (command.trim() === "") return rejected("the command is empty", command);
  // Byte-exact: the parsers see exactly the text bash receives (`bash --noprofile --norc -c`).
  let parsed: ParsedScript;
  try {
    parsed = parser.parse(command);
  } catch (error) {
    return rejected(`the command cannot be parsed: ${(error as Error).message}`, quoteSegment(command));
  }
  const localCommands = new Set<string>();
  const segments: Segment[] = walkScript(parsed, { parser, targetType, localCommands });
  const commands = [...localCommands];
  if (segments.length === 0 && !proveScript(parsed, "bash", (script) => parser.parse(script))) {
    return {
      risk: "read_only",
      reasons: [`${quoteSegment(command)} runs no command`],
      segments: [],
      commands,
    };
  }
  const walked: Risk = worstOf(segments);
  if (walked === "read_only") {
    const unproven = proveScript(parsed, "bash", (script) => parser.parse(script));
    if (unproven) {
      const reason = `${quoteSegment(command)} cannot be proven read-only: ${unproven} (config_mutation)`;
      segments.push({ text: command, risk: "config_mutation", reasons: [reason] });
      return { risk: "config_mutation", reasons: [reason], segments, commands };
    }
  }
  const risk: Risk = walked;
  const reasons: string[] = [];
  for (const segment of segments) {
    if (segment.risk !== risk) continue;
    for (const reason of segment.reasons) if (!reasons.includes(reason)) reasons.push(reason);
  }
  return { risk, reasons, segments, commands };
}
