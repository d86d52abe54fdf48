import type { Arg, CommandView, RuleContext } from "../command-view.ts";
import { finding, optionValue, positionals } from "../command-view.ts";
import type { Finding } from "../risk.ts";
import { quoteSegment } from "../risk.ts";

/** Where SQL clients take statements from the command line, and the files they write besides stdout. */

export const INLINE_SQL_OPTIONS = ["-c", "--command", "-e", "--execute"];

/** Every value of an option given as `-c x`, `-Xc x`, `--command x` or `--command=x` (psql runs each `-c`). */
export function allOptionValues(args: readonly Arg[], flags: readonly string[]): Arg[] {
  const out: Arg[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as Arg;
    const token = arg.value;
    if (token === "--") break;
    for (const flag of flags) {
      const bundleEnding =
        flag.length === 2 && /^-[A-Za-z0-9]+$/.test(token) && token.endsWith(flag[1] as string);
      if (token === flag || bundleEnding) {
        const next = args[i + 1];
        if (next) out.push(next);
        i++;
        break;
      }
      if (flag.startsWith("--") && token.startsWith(`${flag}=`)) {
        out.push({ ...arg, value: token.slice(flag.length + 1) });
        break;
      }
      if (flag.length === 2 && !flag.startsWith("--") && token.startsWith(flag) && token.length > 2) {
        out.push({ ...arg, value: token.slice(2) });
        break;
      }
    }
  }
  return out;
}

/** All SQL or client commands given on the command line: every `-c`, sqlite3's `-cmd` and its SQL argument. */
export function sqlTexts(view: CommandView): Arg[] {
  if (view.name === "sqlite3") {
    const sql = positionals(view.args, ["-cmd", "-separator"])[1];
    return [...allOptionValues(view.args, ["-cmd"]), ...(sql ? [sql] : [])];
  }
  if (view.name === "redis-cli") return [];
  return allOptionValues(view.args, INLINE_SQL_OPTIONS);
}

/** psql `-o file` / `-L file` write the results or a session log to a file. */
export function clientFileWrites(view: CommandView, ctx: RuleContext): Finding[] {
  if (view.name !== "psql") return [];
  const q = quoteSegment(view.text);
  const findings: Finding[] = [];
  for (const flags of [
    ["-o", "--output"],
    ["-L", "--log-file"],
  ]) {
    const file = optionValue(view.args, flags);
    if (!file) continue;
    if (file.value.startsWith("|"))
      findings.push(...ctx.classifyScript(file.value.slice(1), view.text, file.dynamic));
    else findings.push(ctx.writeTo(file, q));
  }
  return findings;
}

/** psql `\o file`, `\g file`, `\w file`, `\copy … to 'file'`; `\o |cmd` and `\g |cmd` run a shell. */
export function metaCommandWrites(view: CommandView, sql: Arg, ctx: RuleContext): Finding[] {
  const q = quoteSegment(view.text);
  const findings: Finding[] = [];
  for (const match of sql.value.matchAll(/\\(o|out|g|gx|w|write|copy)\b[ \t]*([^\n\\]*)/g)) {
    const target = (match[2] ?? "").trim();
    if (match[1] === "copy") {
      if (/\bprogram\b/i.test(target) || /\bto\b/i.test(target))
        findings.push(
          finding("config_mutation", `${q}: \`\\copy\` writes a file or runs a program (config_mutation)`),
        );
      continue;
    }
    if (target === "") continue;
    if (target.startsWith("|")) findings.push(...ctx.classifyScript(target.slice(1), view.text, sql.dynamic));
    else
      findings.push(
        finding(
          "config_mutation",
          `${q}: \`\\${match[1]} ${target}\` writes query output to a file (config_mutation)`,
        ),
      );
  }
  return findings;
}
