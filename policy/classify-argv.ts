import { expandArgvBraces } from "./brace-expansion.ts";
import type { Arg, RuleContext } from "./command-view.ts";
import { argsText, finding, unreadableFinding } from "./command-view.ts";
import { visibleDestructiveWord } from "./dynamic-names.ts";
import {
  basename,
  initScriptAsService,
  isOutsideSystemBin,
  outsideSystemBinFinding,
} from "./program-path.ts";
import { mayOpenWatchdog } from "./proof/devices.ts";
import { helpIsSafe, onlyHelpOrVersion } from "./proof/help.ts";
import type { Stdin } from "./redirects.ts";
import { writeTo } from "./redirects.ts";
import type { Finding } from "./risk.ts";
import { quoteSegment } from "./risk.ts";
import { RULES } from "./rules/index.ts";
import { evaluateRule } from "./rules/rule.ts";
import type { WalkState } from "./walk-state.ts";
import { MAX_DEPTH, PLACEHOLDER } from "./walk-state.ts";

/**
 * Judges one argv by its command's rule (`RULES`): names decided at run time, the `{}` placeholder,
 * the watchdog device, shell functions, init scripts and programs outside the system's bin
 * folders first; wrappers and scripts the rule finds inside are judged again, one level deeper.
 */
export function classifyArgv(
  argv: Arg[],
  state: WalkState,
  depth: number,
  stdin: Stdin | null,
  elsewhere: boolean,
): Finding[] {
  // `zfs {destroy,-r} tank/x` runs `zfs destroy -r tank/x`: judge the words bash makes of it
  const expanded = expandArgvBraces(argv);
  if (!expanded) return judgeArgv(argv, state, depth, stdin, elsewhere);
  const judged =
    expanded.argv === argv
      ? judgeArgv(argv, state, depth, stdin, elsewhere)
      : classifyArgv(expanded.argv, state, depth + 1, stdin, elsewhere);
  if (!expanded.uncertain) return judged;
  // like a name decided at run time: any verb visible in the braces may be what runs
  const verb = visibleDestructiveWord(argv);
  const q = quoteSegment(argsText(argv));
  return [
    verb
      ? finding(
          "destructive",
          `${q} holds brace text whose expansion oikos cannot be sure of, and \`${verb}\` is visible (destructive); write the words out`,
        )
      : finding(
          "config_mutation",
          `${q} holds brace text whose expansion oikos cannot be sure of (config_mutation); write the words out`,
        ),
    ...judged,
  ];
}

function judgeArgv(
  argv: Arg[],
  state: WalkState,
  depth: number,
  stdin: Stdin | null,
  elsewhere: boolean,
): Finding[] {
  const head = argv[0];
  if (!head) return [];
  const whole = argsText(argv);
  const q = quoteSegment(whole);
  if (depth > MAX_DEPTH) return [finding("reject", `${q} nests commands more than ${MAX_DEPTH} levels deep`)];
  // `zfs {destroy,-r} tank/x` runs `zfs destroy -r tank/x`: judge the words bash makes of it
  if (head.dynamic !== "none") {
    const verb = visibleDestructiveWord(argv);
    return [
      unreadableFinding(
        "run_time_command",
        verb
          ? `${q}: the command name \`${head.raw}\` is decided at run time and \`${verb}\` is visible (destructive)`
          : `${q}: the command name \`${head.raw}\` is decided at run time, so oikos cannot tell what it changes (destructive)`,
      ),
    ];
  }
  if (head.value === PLACEHOLDER) {
    return [
      finding(
        "reject",
        `${q}: the command name \`{}\` is filled in at run time from input oikos cannot see; run the commands directly`,
      ),
    ];
  }
  const name = basename(head.value);
  if (!elsewhere) state.env.localCommands.add(name);
  const watchdog = argv.slice(1).find((arg) => arg.dynamic === "none" && mayOpenWatchdog(arg.value));
  if (watchdog) {
    return [
      finding(
        "destructive",
        `${q} opens \`${watchdog.value}\`: the watchdog starts, and the machine reboots unless it is fed (destructive)`,
      ),
    ];
  }
  if (state.functions.has(head.value)) {
    return [
      finding("read_only", `${q} calls the shell function \`${head.value}\`, classified where it is defined`),
    ];
  }
  const asService = initScriptAsService(argv);
  if (asService) return classifyArgv(asService, state, depth + 1, stdin, elsewhere);
  const outsideSystemBin = isOutsideSystemBin(head.value);
  const pathFinding = outsideSystemBin ? [outsideSystemBinFinding(q, head.value)] : [];
  // Families named by prefix: `mkfs.<fs>`, `fsck.<fs>`.
  const rule = RULES.get(name) ?? RULES.get(name.replace(/^(mkfs|fsck)\..*$/, "$1"));
  if (!rule) {
    if (outsideSystemBin) return pathFinding;
    return [
      finding(
        "config_mutation",
        `${q}: \`${name}\` is an unknown command, so it cannot be proven read-only (config_mutation)`,
      ),
    ];
  }
  if (onlyHelpOrVersion(argv.slice(1)) && helpIsSafe(name))
    return [finding("read_only", `${q} prints its usage or version (read-only)`)];
  const view = { name, args: argv.slice(1), text: whole };
  const ctx: RuleContext = {
    classifyArgv: (inner, away = false) => classifyArgv(inner, state, depth + 1, stdin, elsewhere || away),
    classifyScript: (script, origin, dynamic, away = false) =>
      state.classifyScript(script, origin, dynamic, depth + 1, elsewhere || away),
    writeTo,
    stdinScript: stdin,
    targetType: state.env.targetType,
  };
  return [...pathFinding, ...evaluateRule(rule, view, ctx)];
}
