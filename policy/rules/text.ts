import type { Arg, CommandView, RuleContext } from "../command-view.ts";
import {
  finding,
  hasOption,
  literalArg,
  optionValue,
  positionals,
  unreadableFinding,
} from "../command-view.ts";
import { isTopLevelTree } from "../paths.ts";
import type { Finding } from "../risk.ts";
import { quoteSegment } from "../risk.ts";
import type { CommandRule } from "./rule.ts";

/** Tools whose arguments are programs (sed, awk, find) and archivers. */

/** Interpreters that run a program from a file, `-c`/`-e` code or stdin (the stdin-script check adds tclsh). */
export const SCRIPT_INTERPRETERS = [
  "python",
  "python2",
  "python3",
  "perl",
  "ruby",
  "node",
  "php",
  "lua",
  "pwsh",
];

function findRefine(view: CommandView, ctx: RuleContext): Finding[] {
  const findings: Finding[] = [];
  const q = quoteSegment(view.text);
  const args = view.args;
  for (let i = 0; i < args.length; i++) {
    const token = (args[i] as Arg).value;
    if (token === "-delete") {
      findings.push(finding("destructive", `${q}: \`-delete\` deletes every file it matches (destructive)`));
    } else if (token === "-exec" || token === "-execdir" || token === "-ok" || token === "-okdir") {
      const inner: Arg[] = [];
      let j = i + 1;
      for (; j < args.length; j++) {
        const value = (args[j] as Arg).value;
        if (value === ";" || value === "+") break;
        inner.push(args[j] as Arg);
      }
      if (inner.length > 0) findings.push(...ctx.classifyArgv(inner));
      i = j;
    } else if (token === "-fprint" || token === "-fprint0" || token === "-fprintf" || token === "-fls") {
      const file = args[i + 1];
      if (file) findings.push(ctx.writeTo(file, `${q} (\`${token}\`)`));
    }
  }
  return findings;
}

// `s/a\/b/c/e`: an escaped delimiter is part of the pattern, not its end.
const SED_EXECUTES =
  /(^|[;\n{])\s*[0-9$,/!\s]*[ewW](\s|$)|s(.)(?:\\.|(?!\3).)*\3(?:\\.|(?!\3).)*\3[gpIiMm0-9]*[ew]/;

/** What a sed script runs: the text of `e command`, and the replacement of `s/…/…/e`. */
function sedCommands(script: string): string[] {
  const commands: string[] = [];
  for (const match of script.matchAll(/(?:^|[;\n{])\s*[0-9$,/!\s]*e\s+([^;\n}]+)/g))
    commands.push(match[1] ?? "");
  for (const match of script.matchAll(/s(.)((?:\\.|(?!\1).)*)\1((?:\\.|(?!\1).)*)\1[gpIiMm0-9]*e/g)) {
    commands.push((match[3] ?? "").replace(/\\(.)/g, "$1"));
  }
  return commands;
}

function sedRefine(view: CommandView, ctx: RuleContext): Finding[] {
  const q = quoteSegment(view.text);
  const findings: Finding[] = [];
  const args = view.args;
  const scripts: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const value = (args[i] as Arg).value;
    if (value === "-e" || value === "--expression") scripts.push(args[i + 1]?.value ?? "");
    else if (value.startsWith("--expression=")) scripts.push(value.slice(13));
  }
  const explicitScript = scripts.length > 0 || hasOption(args, ["-f", "--file"], false) !== undefined;
  const pos = positionals(args, ["-e", "--expression", "-f", "--file", "-l", "--line-length"]);
  if (!explicitScript && pos[0]) scripts.push(pos[0].value);
  const files = explicitScript ? pos : pos.slice(1);
  const scriptFile = optionValue(args, ["-f", "--file"]);
  if (scriptFile) {
    findings.push(
      finding(
        "config_mutation",
        `${q} runs the sed script in \`${scriptFile.raw}\`, which oikos cannot inspect (config_mutation)`,
      ),
    );
  }
  for (const script of scripts) {
    for (const command of sedCommands(script))
      findings.push(...ctx.classifyScript(command, view.text, "none"));
  }
  if (scripts.some((script) => SED_EXECUTES.test(script))) {
    findings.push(
      finding("config_mutation", `${q}: the sed script executes commands or writes files (config_mutation)`),
    );
  }
  const inPlace =
    args.some((arg) => /^-[a-zA-Z]*i/.test(arg.value) && !arg.value.startsWith("--")) ||
    args.some((arg) => arg.value === "--in-place" || arg.value.startsWith("--in-place="));
  if (inPlace) {
    if (files.length === 0)
      findings.push(finding("config_mutation", `${q} edits files in place (config_mutation)`));
    for (const file of files) findings.push(ctx.writeTo(file, `${q} (in-place edit)`));
  }
  return findings;
}

function awkRefine(view: CommandView, ctx: RuleContext): Finding[] {
  const q = quoteSegment(view.text);
  const args = view.args;
  if (hasOption(args, ["-f", "--file"], false)) {
    return [
      finding("config_mutation", `${q} runs an awk program file oikos cannot inspect (config_mutation)`),
    ];
  }
  const findings: Finding[] = [];
  if (
    args.some((arg) => arg.value === "-i" || arg.value === "inplace" || arg.value === "--include=inplace")
  ) {
    findings.push(finding("config_mutation", `${q} edits files in place (config_mutation)`));
  }
  const program = positionals(args, ["-F", "-v", "--assign", "--field-separator", "-i", "--include"])[0];
  if (!program) return findings;
  const source = program.value;
  // Each system(…) / "cmd" | getline / print | "cmd": rebuild the shell text, with computed parts as `x`.
  const calls: { text: string; computed: boolean }[] = [];
  for (const match of source.matchAll(/system\s*\(((?:"(?:[^"\\]|\\.)*"|[^)"])*)\)/g)) {
    calls.push(shellTextOf(match[1] ?? ""));
  }
  for (const match of source.matchAll(/("(?:[^"\\]|\\.)*")\s*\|\s*getline|\|&?\s*("(?:[^"\\]|\\.)*")/g)) {
    calls.push(shellTextOf(match[1] ?? match[2] ?? ""));
  }
  const pipeCount = (source.match(/\|\s*getline|\|&|print[^;}\n]*\|/g) ?? []).length;
  const pipeCalls = calls.length - (source.match(/system\s*\(/g) ?? []).length;
  if (
    calls.some((call) => call.computed) ||
    pipeCount > pipeCalls ||
    (/system\s*\(/.test(source) && calls.length === 0)
  ) {
    findings.push(
      finding(
        "config_mutation",
        `${q}: the awk program runs shell commands built at run time (config_mutation)`,
      ),
    );
  }
  for (const call of calls) {
    findings.push(...ctx.classifyScript(call.text, `${view.name} system(${call.text})`, "none"));
  }
  // `@f("cmd")` calls a function by name (`f = "system"`): any string may be a command.
  if (source.includes("@")) {
    findings.push(
      finding("config_mutation", `${q}: the awk program calls functions by name (config_mutation)`),
    );
    for (const literal of source.matchAll(/"((?:[^"\\]|\\.)*)"/g)) {
      const text = (literal[1] ?? "").replace(/\\(.)/g, "$1");
      findings.push(
        ...ctx.classifyScript(text, `${view.name} ${text}`, "none").filter((f) => f.risk === "destructive"),
      );
    }
  }
  if (/\bprintf?\b[^;}\n]*?>/.test(source)) {
    const target = source.match(/\bprintf?\b[^;}\n]*?>>?\s*"([^"]+)"/)?.[1];
    findings.push(
      target
        ? ctx.writeTo(literalArg(target), `${q} (awk print redirect)`)
        : finding("config_mutation", `${q}: the awk program writes to a file (config_mutation)`),
    );
  }
  return findings;
}

/** `"rm -f " $1` becomes `rm -f x`: literal strings kept, computed parts replaced by a placeholder word. */
function shellTextOf(expression: string): { text: string; computed: boolean } {
  let text = "";
  let computed = false;
  let last = 0;
  for (const match of expression.matchAll(/"((?:[^"\\]|\\.)*)"/g)) {
    const between = expression.slice(last, match.index).trim();
    if (between !== "") {
      computed = true;
      text += "x";
    }
    text += (match[1] ?? "").replace(/\\(.)/g, "$1");
    last = (match.index ?? 0) + match[0].length;
  }
  if (expression.slice(last).trim() !== "") {
    computed = true;
    text += "x";
  }
  return { text, computed };
}

const VISIBLY_DESTRUCTIVE_CODE =
  /\b(rm\s+-[a-z]*[rf]|rmtree|os\.remove|os\.unlink|unlink\s*\(|rmdirSync|rmSync|unlinkSync|mkfs|wipefs|dd\s+if=|reboot|shutdown|poweroff|drop\s+(table|database)|truncate\s+table|zfs\s+destroy|zpool\s+destroy)\b/i;

/** `python3 -c '…'`, `perl -e '…'`: still unprovable, but visibly destructive code is destructive. */
/**
 * An interpreter's inline program (`python3 -c`, `perl -e`) is text oikos does not read: it is
 * graded by the worst it could do, and the card says oikos cannot tell. An installed program file
 * (`python3 /opt/scripts/x.py`, `php occ …`) is the operator's own: one approval.
 */
function inlineCodeRefine(view: CommandView): Finding[] {
  const q = quoteSegment(view.text);
  const code = view.args.find((_arg, i) => i > 0 && /^-[a-zA-Z]*[ceE]$/.test(view.args[i - 1]?.value ?? ""));
  if (code) {
    const match = VISIBLY_DESTRUCTIVE_CODE.exec(code.value);
    return [
      unreadableFinding(
        "inline_program",
        match
          ? `${q}: the inline code visibly runs \`${match[0]}\` (destructive)`
          : `${q} runs a program written inline, which oikos cannot read (destructive)`,
      ),
    ];
  }
  return [];
}

function tarArchive(view: CommandView, letters: string): Arg | undefined {
  const file = view.args.find((arg) => arg.value.startsWith("--file="));
  if (file) return { ...file, value: file.value.slice(7) };
  const flag = view.args.findIndex((arg) => arg.value === "-f" || arg.value === "--file");
  if (flag >= 0) return view.args[flag + 1];
  // Bundled letters (`czf x.tgz`, `-cvf x.tar`): the archive is the argument after the bundle.
  return letters.includes("f") ? view.args[1] : undefined;
}

const TAR_RUNS_PROGRAMS =
  /^(--to-command|--checkpoint-action|--use-compress-program|--info-script|--new-volume-script|--rsh-command|-I|-F)(=|$)/;

function tarRefine(view: CommandView, ctx: RuleContext): Finding[] {
  const runs = view.args.find((arg) => TAR_RUNS_PROGRAMS.test(arg.value));
  if (runs) {
    const q = quoteSegment(view.text);
    const program = runs.value.includes("=")
      ? runs.value.slice(runs.value.indexOf("=") + 1).replace(/^exec=/, "")
      : "";
    const inner = program ? ctx.classifyScript(program, view.text, runs.dynamic) : [];
    return [
      finding(
        "config_mutation",
        `${q}: \`${runs.value.split("=")[0]}\` makes tar run a program (config_mutation)`,
      ),
      ...inner,
      ...tarModeRefine(view, ctx),
    ];
  }
  return tarModeRefine(view, ctx);
}

function tarModeRefine(view: CommandView, ctx: RuleContext): Finding[] {
  const q = quoteSegment(view.text);
  const first = view.args[0]?.value ?? "";
  const letters = first.startsWith("--") ? "" : first.replace(/^-/, "");
  const long = (flag: string) => view.args.some((arg) => arg.value === flag);
  const listing = letters.includes("t") || long("--list");
  const extracting = letters.includes("x") || long("--extract") || long("--get");
  if (extracting) {
    const dir = view.args.findIndex((arg) => arg.value === "-C" || arg.value === "--directory");
    const target =
      dir >= 0
        ? view.args[dir + 1]?.value
        : view.args.find((a) => a.value.startsWith("--directory="))?.value.slice(12);
    if (target && isTopLevelTree(target)) {
      return [
        finding("destructive", `${q} extracts over \`${target}\`, overwriting system files (destructive)`),
      ];
    }
    return [finding("config_mutation", `${q} extracts files (config_mutation)`)];
  }
  if (listing) return [finding("read_only", `${q} only lists an archive (read-only)`)];
  const archive = tarArchive(view, letters);
  if (archive && archive.value !== "-") return [ctx.writeTo(archive, q)];
  return [finding("config_mutation", `${q} creates or changes an archive (config_mutation)`)];
}

export const TEXT_RULES: CommandRule[] = [
  {
    names: ["find"],
    what: "searches files",
    risk: "read_only",
    bundles: false,
    refine: findRefine,
    examples: [
      ["find /var/log -name '*.gz' -mtime +30", "read_only"],
      ["find / -delete", "destructive"],
      ["find /tmp -name x -exec rm {} \\;", "destructive"],
      ["find . -type f -exec grep -l foo {} +", "read_only"],
      ["find . -fprint /tmp/list", "config_mutation"],
    ],
  },
  {
    names: ["sed", "gsed"],
    what: "edits text",
    risk: "read_only",
    refine: sedRefine,
    examples: [
      ["sed -n '1,20p' /etc/fstab", "read_only"],
      ["sed -i 's/a/b/' /etc/nginx/nginx.conf", "config_mutation"],
      ["sed -i.bak 's/x/y/' app.conf", "config_mutation"],
      ["sed -i '/bob/d' /etc/passwd", "destructive"],
      ["sed 's/x/y/w out.txt' in.txt", "config_mutation"],
      ["sed 's/x/rm -rf \\/x/e' in.txt", "destructive"],
      ["sed '1e reboot' in.txt", "destructive"],
      ["sed -f script.sed in.txt", "config_mutation"],
    ],
  },
  {
    names: ["awk", "gawk", "mawk", "nawk"],
    what: "processes text",
    risk: "read_only",
    refine: awkRefine,
    examples: [
      ["awk '{print $1}' /etc/passwd", "read_only"],
      ["awk '{system(\"rm -f \" $1)}' list", "destructive"],
      ["awk 'BEGIN{system(\"reboot\")}'", "destructive"],
      ["awk '{print > \"/tmp/out\"}' x", "config_mutation"],
      ["awk -F: '$3 >= 1000 {print $1}' /etc/passwd", "read_only"],
    ],
  },
  {
    names: [...SCRIPT_INTERPRETERS, "deno", "bun", "java"],
    what: "runs a program oikos cannot inspect",
    risk: "config_mutation",
    refine: inlineCodeRefine,
    flags: { readOnly: ["--version", "-V"] },
    examples: [
      ["python3 --version", "read_only"],
      ["python3 -c 'print(1)'", "destructive"],
      ["python3 -c 'import os; os.remove(\"x\")'", "destructive"],
      ["perl -e 'unlink glob \"*.log\"'", "destructive"],
      ["perl script.pl", "config_mutation"],
      ["python3 -m json.tool x.json", "config_mutation"],
    ],
  },
  {
    names: ["jq", "gojq", "csvlook"],
    what: "only reads",
    risk: "read_only",
    examples: [["jq .items config.json", "read_only"]],
  },
  {
    names: ["xmllint"],
    what: "only reads",
    risk: "read_only",
    refine: (view, ctx) => {
      // xmllint takes single-dash long options (`-noout`), so only a standalone flag is `-o`.
      const at = view.args.findIndex((arg) => ["-o", "-output", "--output"].includes(arg.value));
      const output =
        view.args[at + 1] && at >= 0 ? view.args[at + 1] : optionValue(view.args, ["--output", "-output"]);
      return output ? [ctx.writeTo(output, quoteSegment(view.text))] : [];
    },
    examples: [
      ["xmllint --format x.xml", "read_only"],
      ["xmllint -noout x.xml", "read_only"],
      ["xmllint -o /tmp/y.xml x.xml", "config_mutation"],
      ["xmllint --output /tmp/y.xml --format x.xml", "config_mutation"],
      ["xmllint --output /etc/passwd x.xml", "destructive"],
    ],
  },
  {
    names: ["yq"],
    what: "only reads",
    risk: "read_only",
    flags: { mutating: ["-i", "--inplace"] },
    examples: [
      ["yq '.a' x.yml", "read_only"],
      ["yq -i '.a = 1' x.yml", "config_mutation"],
    ],
  },
  {
    names: ["tar", "bsdtar"],
    what: "works with archives",
    risk: "read_only",
    wrapper: true,
    refine: tarRefine,
    examples: [
      ["tar tzf backup.tgz", "read_only"],
      ["tar -czf /backup/etc.tgz /etc", "config_mutation"],
      ["tar xzf app.tgz -C /opt/app", "config_mutation"],
      ["tar -xf evil.tar -C /", "destructive"],
      ["tar -cf /dev/sda /etc", "destructive"],
      ["tar tf x.tar --checkpoint=1 --checkpoint-action=exec='rm -rf /srv'", "destructive"],
      ["tar czf - /etc | ssh b 'cat > etc.tgz'", "config_mutation"],
    ],
  },
  {
    names: ["openssl"],
    what: "inspects certificates and keys",
    risk: "read_only",
    bundles: false,
    flags: { mutating: ["-out", "-keyout"] },
    examples: [
      ["openssl x509 -in cert.pem -noout -dates", "read_only"],
      ["openssl req -new -key k.pem -out req.csr", "config_mutation"],
    ],
  },
];
