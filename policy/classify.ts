import type { BashParser, ParsedScript } from "./bash-parser.ts";
import { loadBashParser } from "./bash-parser.ts";
import { createDualParser } from "./dual-parser.ts";
import type { ShellDialect } from "./guest-shell.ts";
import { type JailGrant, unionGrants } from "./jail-grant.ts";
import type { LintResult } from "./lint.ts";
import { lintParsed, MAX_COMMAND_BYTES } from "./lint.ts";
import { outsideJailHazard } from "./proof/outside-jail.ts";
import type { Piece } from "./proof/piece.ts";
import { borrowedGrant, runTogether } from "./proof/pieces.ts";
import { proveScript } from "./proof/prove.ts";
import type { Classification, Risk, Segment } from "./risk.ts";
import { quoteSegment } from "./risk.ts";
import { elsewhereReason, type RunsElsewhere } from "./runs-elsewhere.ts";
import { loadSecondParser } from "./second-parser.ts";
import { walkScript, worstOf } from "./walk.ts";

export type { Classification, Risk, Segment } from "./risk.ts";

/** The loaded bash grammar with everything that needs it. All methods are synchronous. */
export interface Classifier {
  /**
   * `dialect`: the shell the target runs the command with (policy/guest-shell.ts): bash (default), a
   * POSIX sh (the proof grades it by sh's rules), or Windows cmd.exe, which the classifier does not read.
   */
  classify(command: string, targetType?: string, dialect?: ShellDialect): Classification;
  lint(command: string): LintResult;
  /**
   * classify and lint from one parse (each parser reads the command once): what the run gate asks
   * of every command. The same results as the two calls apart.
   */
  inspect(command: string, targetType?: string, dialect?: ShellDialect): Inspection;
  parse(command: string): ParsedScript;
  /** Size of the grammar's wasm heap (grows only: tests use it to prove trees are freed). */
  wasmHeapBytes(): number;
}

export interface Inspection {
  classification: Classification;
  lint: LintResult;
}

let loaded: Promise<Classifier> | undefined;

/** Loads the grammar once per process and returns the shared classifier. */
export function loadClassifier(): Promise<Classifier> {
  loaded ??= loadBashParser().then((first) => createClassifier(createDualParser(first, loadSecondParser())));
  return loaded;
}

export function createClassifier(parser: BashParser): Classifier {
  return {
    classify: (command, targetType = "host", dialect = "bash") =>
      classifyWith(parser, command, targetType, dialect),
    lint: (command) => lintParsed(command, (source) => parser.parse(source)),
    inspect: (command, targetType = "host", dialect = "bash") => {
      const once = memoized(parser);
      return {
        classification: classifyWith(once, command, targetType, dialect),
        lint: lintParsed(command, (source) => once.parse(source)),
      };
    },
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
export function classifyWith(
  shared: BashParser,
  command: string,
  targetType: string,
  dialect: ShellDialect = "bash",
): Classification {
  if (command.includes("\0")) return rejected("the command contains a NUL byte", command);
  if (Buffer.byteLength(command) > MAX_COMMAND_BYTES) {
    return rejected(
      `the command is longer than ${MAX_COMMAND_BYTES} bytes; split it or put it in a reviewed script`,
      quoteSegment(command),
    );
  }
  if (command.trim() === "") return rejected("the command is empty", command);
  if (dialect === "windows") return unreadWindowsCommand(command);
  // The walk and the proof both parse nested scripts (`bash -c '…'`): once per classification.
  const parser = memoized(shared);
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
  const walked: Risk = worstOf(segments);
  const programs = new Set<string>();
  const grants: JailGrant[] = [];
  const pieces: Piece[] = [];
  let together: readonly Piece[] = pieces;
  const elsewhere: RunsElsewhere[] = [];
  if (walked === "read_only") {
    const reboots: string[] = [];
    const disproof = proveScript(
      parsed,
      dialect,
      (script) => parser.parse(script),
      0,
      programs,
      undefined,
      reboots,
      grants,
      pieces,
      elsewhere,
    );
    // a run outside the jail that another piece would share: back inside where a spec allows it
    together = runTogether(pieces);
    const unproven = disproof ?? borrowedGrant(together) ?? outsideJailHazard(together);
    if (unproven) {
      // What can open the watchdog can reboot the machine: destructive, whatever else it does.
      const risk: Risk = reboots.length > 0 ? "destructive" : "config_mutation";
      const why = reboots[0] ?? unproven;
      const reason = `${quoteSegment(command)} cannot be proven read-only: ${why} (${risk})`;
      segments.push({ text: command, risk, reasons: [reason] });
      const away = elsewhere.at(-1);
      return away && risk === "config_mutation" && unproven === elsewhereReason(away)
        ? { risk, reasons: [reason], segments, commands, elsewhere: away }
        : { risk, reasons: [reason], segments, commands };
    }
  }
  if (segments.length === 0) {
    return {
      risk: "read_only",
      reasons: [`${quoteSegment(command)} runs no command`],
      segments,
      commands,
      programs: [],
      grants: [],
    };
  }
  const risk: Risk = walked;
  const reasons: string[] = [];
  for (const segment of segments) {
    if (segment.risk !== risk) continue;
    for (const reason of segment.reasons) if (!reasons.includes(reason)) reasons.push(reason);
  }
  if (risk === "read_only")
    return {
      risk,
      reasons,
      segments,
      commands,
      programs: [...programs],
      grants: unionGrants(grants, ...together.map((piece) => piece.grants)),
    };
  const unreadable =
    risk === "destructive" ? segments.find((s) => s.risk === risk && s.unreadable)?.unreadable : undefined;
  return unreadable
    ? { risk, reasons, segments, commands, unreadable }
    : { risk, reasons, segments, commands };
}

/**
 * A command for a Windows guest runs under cmd.exe (policy/guest-shell.ts): the bash grammar cannot
 * say what it does, so it is graded by the worst it could do and never rides a window — the operator
 * reads and types each one (decide-run.ts, `unreadable`).
 */
function unreadWindowsCommand(command: string): Classification {
  const reason = `${quoteSegment(command)} runs under cmd.exe on a Windows guest, which oikos does not read (destructive until the operator has read it)`;
  return {
    risk: "destructive",
    reasons: [reason],
    segments: [{ text: command, risk: "destructive", reasons: [reason], unreadable: "windows_command" }],
    commands: [],
    unreadable: "windows_command",
  };
}

function memoized(parser: BashParser): BashParser {
  const parses = new Map<string, ParsedScript>();
  return {
    wasmHeapBytes: () => parser.wasmHeapBytes(),
    parse(source: string): ParsedScript {
      let parsed = parses.get(source);
      if (!parsed) {
        parsed = parser.parse(source);
        parses.set(source, parsed);
      }
      return parsed;
    },
  };
}
