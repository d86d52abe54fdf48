import type { CommandView, RuleContext } from "../command-view.ts";
import { finding } from "../command-view.ts";
import type { Finding } from "../risk.ts";
import { quoteSegment } from "../risk.ts";
import type { CommandRule } from "./rule.ts";

/**
 * Editors. Never read-only (their commands run shells); what their startup commands run is
 * judged too: `vim -es -c ':!rm -rf /srv'` is as destructive as the `rm` it runs.
 */
const SHELL_ESCAPE = /(?:^|[|:\s])(?:silent!?\s+|r(?:ead)?\s+|w(?:rite)?\s+)?!(.+)$/s;

function startupCommands(view: CommandView): string[] {
  const commands: string[] = [];
  for (let i = 0; i < view.args.length; i++) {
    const token = view.args[i]?.value ?? "";
    if ((token === "-c" || token === "--cmd" || token === "-S") && view.args[i + 1])
      commands.push(view.args[++i]?.value ?? "");
    else if (token.startsWith("+") && token.length > 1) commands.push(token.slice(1));
  }
  return commands;
}

function editorRefine(view: CommandView, ctx: RuleContext): Finding[] {
  const findings: Finding[] = [];
  for (const command of startupCommands(view)) {
    const shellEscape = SHELL_ESCAPE.exec(command);
    if (!shellEscape) continue;
    findings.push(
      finding(
        "config_mutation",
        `${quoteSegment(view.text)}: \`${command}\` runs a shell command (config_mutation)`,
      ),
      ...ctx.classifyScript(shellEscape[1] ?? "", view.text, "none"),
    );
  }
  return findings;
}

export const EDITOR_RULES: CommandRule[] = [
  {
    names: ["vi", "vim", "nvim", "ex", "view", "nano", "emacs"],
    what: "edits files",
    risk: "config_mutation",
    refine: editorRefine,
    examples: [
      ["vim /etc/hosts", "config_mutation"],
      ["vim -es -c ':!rm -rf /srv' /etc/hosts", "destructive"],
      ["vi +'!reboot' x", "destructive"],
      ["ex -c 'silent !zfs destroy tank' x", "destructive"],
    ],
  },
];
