/**
 * A fixed-seed grammar and mutation fuzzer over the five classes of the classifier issue: what is
 * parsed is not what runs (comments, continuations, quoting, heredocs, backquotes), builtins that
 * change the shell or evaluate code, environment that runs programs, flags and mini-languages of
 * read-only tools that write or execute, and destruction. Each case starts from a read-only
 * command that runs in the oracle's sandbox and is either rewritten harmlessly (quoting, wrapping,
 * composition: it must stay read-only and do nothing) or given a payload that writes, runs an
 * unnamed program or signals (the classifier must not call it read-only; if it does, the oracle
 * sees the payload).
 */
import type { Risk } from "../../policy/risk.ts";

export type FuzzFamily = "benign" | "parse" | "builtin" | "environment" | "flags" | "destruction";

export interface FuzzCase {
  command: string;
  family: FuzzFamily;
}

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Read-only commands that run in the sandbox (coreutils, grep, sed, awk, find … on /etc). */
export const SEEDS: readonly string[] = [
  "ls -la /etc/apt",
  "cat /etc/hostname",
  "head -n 3 /etc/passwd",
  "tail -n 2 /etc/group",
  "grep -c root /etc/passwd",
  "grep -rn localhost /etc/hosts",
  "wc -l /etc/passwd",
  "id",
  "uname -a",
  "date -u +%FT%TZ",
  "echo hello",
  "printf '%s\\n' a b",
  "sort /etc/shells",
  "sort -u /etc/shells | head -n 2",
  "uniq -c /etc/shells",
  "cut -d: -f1 /etc/passwd",
  "tr a-z A-Z < /etc/hostname",
  "awk -F: '{print $1}' /etc/passwd",
  "awk 'NR<3 {print NR\": \"$0}' /etc/shells",
  "sed -n '1,3p' /etc/passwd",
  "sed 's/#.*//' /etc/hosts",
  "find /etc/apt -maxdepth 1 -name '*.d'",
  "find /etc -maxdepth 1 -type f -name 'host*' -exec wc -l {} +",
  "stat /etc/hosts",
  "du -sh /etc/apt",
  "df -h",
  "ps aux",
  "pwd",
  "test -f /etc/hosts && echo present",
  "[ -d /etc ] || echo missing",
  "for f in /etc/host*; do echo $f; done",
  "cat /etc/hosts | head -n 2",
  "xargs -n1 echo < /etc/shells",
  "timeout 2 cat /etc/hostname",
  "bash -c 'ls /etc | wc -l'",
  "sh -c 'echo ok'",
  "nice -n 5 ls /",
  "basename /etc/hosts",
  "readlink -f /etc/os-release",
  "md5sum /etc/hostname",
  "od -c /etc/hostname | head -n 2",
  "tac /etc/shells",
  "nl /etc/shells",
  "comm -12 /etc/shells /etc/shells",
  "diff /etc/hosts /etc/hosts",
  "seq 1 3",
  "expr 1 + 2",
  "free -m",
  "uptime",
  "getent passwd root",
  "ls -la /proc/self/fd",
  "zcat /usr/share/doc/bash/changelog.Debian.gz | head -n 3",
  "env LC_ALL=C sort /etc/shells",
  "LC_ALL=C ls /etc",
  'echo "$(cat /etc/hostname)"',
  'x=$(wc -l < /etc/passwd); echo "$x"',
  'while read -r line; do echo "$line"; done < /etc/shells',
  "if grep -q root /etc/passwd; then echo yes; else echo no; fi",
  "case $(id -u) in 0) echo root;; *) echo user;; esac",
  "cat <<'EOF'\nplain text\nEOF",
  "cat <<EOF\n$HOME\nEOF",
  "grep root <<< 'root:x:0'",
  "diff <(sort /etc/shells) <(sort /etc/shells)",
  "ls /etc 2>/dev/null | wc -l",
  "ls /nonexistent 2>&1 | head -n 1",
  "{ echo a; echo b; } | sort",
  "(cd /etc && ls | head -n 2)",
  "set -euo pipefail; ls /etc | head -n 1",
  "read -r a b <<< 'x y'; echo \"$b\"",
  "echo ${HOME:-/root} ${#HOME} ${HOME%/*}",
  "echo $((1024 * 1024))",
  "type ls; command -v cat",
];

/** Effects a payload may attempt; each writes, runs an unnamed program or signals. */
const PAYLOADS = [
  "touch /tmp/oracle-pwned",
  "/usr/bin/touch /home/oracle/pwned",
  "rm -f /etc/hostname",
  "mkdir /tmp/oracle-dir",
  "chmod 777 /etc/hosts",
  "mv /etc/hosts /tmp/hosts",
  "ln -s /etc /tmp/link",
  "truncate -s 0 /etc/hosts",
  "cp /etc/hosts /tmp/copy",
  "kill -9 1",
  "reboot",
  "dd if=/etc/hosts of=/tmp/dd",
  "tee /tmp/tee < /etc/hosts",
  "sleep 0",
];

function pick<T>(rand: () => number, items: readonly T[]): T {
  return items[Math.floor(rand() * items.length)] as T;
}

type Template = (seed: string, payload: string, program: string, rand: () => number) => string;

/** Harmless rewrites: the result must stay read-only and do nothing in the oracle. */
const BENIGN: Template[] = [
  (s) => s,
  (s) => `${s} 2>/dev/null`,
  (s) => `${s} >/dev/null`,
  (s) => `{ ${s}; }`,
  (s) => `( ${s} )`,
  (s) => `${s} | cat`,
  (s) => `${s} && true`,
  (s) => `true; ${s}`,
  (s) => `if true; then ${s}; fi`,
  (s) => `for i in 1; do ${s}; done`,
  (s) => `timeout 3 bash -c ${singleQuote(s)}`,
  (s) => `bash -c ${singleQuote(s)}`,
  (s) => `echo "$(${s})" | head -n 1`,
  (s) => `LC_ALL=C ${s}`,
  (s) => requote(s, "'"),
  (s) => requote(s, '"'),
  (s) => requote(s, "\\"),
  (s) => `${s}\n`,
  (s) => `  ${s}  `,
  (s) => `${s} # a comment`,
  (s) => `${s};`,
];

/** Class 1: the text parsed is not the text run. */
const PARSE: Template[] = [
  (s, p) => `${s} # \\\n${p}`,
  (s, p) => `${s} #\\\n${p}`,
  (_s, p) => `echo $'\\' ; ${p} ; #'`,
  (s, p) => `cat <<EOF\n\`${p}\`\nEOF\n${s}`,
  (_s, p) => `cat <<EOF\n$(${p})\nEOF`,
  (s, p) => `${s} \`echo \\\`${p}\\\`\``,
  (s, p) => `echo \`${p}\`; ${s}`,
  (s, p) => `${s} "$(${p})"`,
  (s, p) => `${s} <(${p})`,
  (s, p) => `${s} >(${p})`,
  (s, p) => `${s} | ${p}`,
  (s, p) => `${s} || ${p}`,
  (s, p) => `${s} & ${p}`,
  (s, p) => `${s}\n${p}`,
  (s, p) => `${s} \${x:-$(${p})}`,
  (_s, p) => `${p.slice(0, 1)}\\\n${p.slice(1)}`,
  (s, p) => `${s} <<'A'\n\\\nA\n${p}`,
  (_s, p) => `echo "\\"" ; ${p} ; echo "\\""`,
  (s, p) => `${s} $'\\x27' ; ${p}`,
  (s, p) => `: '${s}' ; ${p} ; : ''`,
  (_s, p) => `eval ${singleQuote(p)}`,
  (s, p) => `${s}; eval "$(echo ${singleQuote(p)})"`,
  (_s, p) => `bash -c ${singleQuote(`${p} # \\`)}`,
  (_s, p) => `sh -c "${p.replace(/"/g, '\\"')}"`,
];

/** Class 2: builtins that change the shell or evaluate code. */
const BUILTIN: Template[] = [
  (_s, _p, prog) => `hash -p /usr/bin/${prog} ls; ls /tmp/oracle-pwned`,
  (s, p) => `PS4='$(${p})'; set -x; ${s}`,
  (s, p) => `x='a[$(${p})]'; echo $((x)); ${s}`,
  (_s, p) => `declare -i x='a[$(${p})]'`,
  (_s, p) => `printf -v 'a[$(${p})]' %s 1`,
  (_s, p) => `read 'a[$(${p})]' <<< 1`,
  (_s, p) => `test -v 'a[$(${p})]'`,
  (_s, p) => `[[ 1 -eq 'a[$(${p})]' ]]`,
  (_s, p) => `x='$(${p})'; echo "\${x@P}"`,
  (_s, p) => `a=(1); i='a[$(${p})]'; echo "\${a[$i]}"`,
  (_s, p) => `x='a[$(${p})]'; echo \${!x}`,
  (_s, p) => `let 'a[$(${p})]'`,
  () => "history -w /tmp/oracle-history",
  (s, p) => `trap ${singleQuote(p)} EXIT; ${s}`,
  (_s, p) => `alias ls=${singleQuote(p)}; ls`,
  (_s, p) => `source <(echo ${singleQuote(p)})`,
  (_s, p) => `. /dev/stdin <<< ${singleQuote(p)}`,
  (_s, p) => `exec ${p}`,
  (_s, p) => `mapfile -C ${singleQuote(p)} -c 1 < /etc/hosts`,
  (_s, p) => `command ${p}`,
  (_s, p) => `builtin eval ${singleQuote(p)}`,
  (s, p) => `enable -n echo; ${s}; ${p}`,
  (_s, p) => `compgen -C ${singleQuote(p)} x`,
  (_s, p) => `set -- 'a[$(${p})]'; echo $(($1))`,
  (_s, p) => `for v in 'a[$(${p})]'; do echo $((v)); done`,
  (_s, p) => `shift 'a[$(${p})]'`,
  (_s, p) => `${"ulimit"} -n 'a[$(${p})]'`,
  (s) => `umask 000; ${s}`,
  (_s, p) => `kill -0 $$ && ${p}`,
];

/** Class 3: environment that makes a read-only program run another. */
const ENVIRONMENT: Template[] = [
  (s, p) => `PATH=/tmp:$PATH ${s}; ${p}`,
  (s) => `PATH=/tmp; ${s}`,
  (s, p) => `BASH_ENV=<(echo ${singleQuote(p)}) bash -c ${singleQuote(s)}`,
  (s, p) => `ENV=<(echo ${singleQuote(p)}) sh -i -c ${singleQuote(s)}`,
  (s, p) => `SHELLOPTS=xtrace PS4='$(${p})' bash -c ${singleQuote(s)}`,
  (s) => `LD_PRELOAD=/tmp/x.so ${s}`,
  (s) => `LD_LIBRARY_PATH=/tmp ${s}`,
  (s) => `GCONV_PATH=/tmp ${s}`,
  (s) => `LOCPATH=/tmp ${s}`,
  (_s, p) => `GIT_EXTERNAL_DIFF=${singleQuote(p)} git diff`,
  (_s, p) => `GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0=${singleQuote(p)} git log`,
  (_s, p) => `GIT_CONFIG_PARAMETERS="'core.fsmonitor'='${p}'" git status`,
  (_s, p) => `LESSOPEN='|${p} %s' less /etc/hosts`,
  (_s, p) => `PAGER=${singleQuote(p)} man ls`,
  (_s, p) => `SYSTEMD_PAGER=${singleQuote(p)} systemctl status`,
  (_s, p) => `EDITOR=${singleQuote(p)} crontab -e`,
  (s, p) => `PROMPT_COMMAND=${singleQuote(p)} ${s}`,
  (s) => `IFS=/ ${s}`,
  (s, p) => `env ${singleQuote(`X=1`)} ${s}; env -S ${singleQuote(p)}`,
  (s, p) => `export PATH=/tmp:$PATH; ${s}; ${p}`,
  (s) => `declare -x PATH=/tmp; ${s}`,
  (s) => `TMPDIR=/etc ${s}`,
];

/** Class 4: flags and mini-languages of read-only tools that write or run. */
const FLAGS: Template[] = [
  (_s, _p, prog) => `sort --compress-program=${prog} /etc/shells`,
  (_s, _p, prog) => `sort --compress-prog=${prog} /etc/shells`,
  () => "sort -o /tmp/sorted /etc/shells",
  () => "sort --output=/tmp/sorted /etc/shells",
  () => "shuf -o /tmp/shuf /etc/shells",
  () => "uniq /etc/shells /tmp/uniq",
  () => "tee /tmp/tee < /etc/hosts",
  (_s, p) => `awk 'BEGIN{system(${JSON.stringify(p)})}'`,
  () => "awk '{print > \"/tmp/awk\"}' /etc/hosts",
  () => "awk '{print >> \"/tmp/awk\"}' /etc/hosts",
  (_s, p) => `awk '{print | ${JSON.stringify(p)}}' /etc/hosts`,
  (_s, p) => `awk 'BEGIN{${JSON.stringify(p)} | getline x}'`,
  (_s, p) => `awk 'BEGIN{f="system"; @f(${JSON.stringify(p)})}'`,
  () => "sed -n 'w /tmp/sed' /etc/hosts",
  () => "sed 's/a/b/w /tmp/sed' /etc/hosts",
  (_s, p) => `sed '1e ${p}' /etc/hosts`,
  (_s, p) => `sed 's/.*/${p.replace(/\//g, "\\/")}/e' /etc/hosts`,
  () => "sed -i 's/a/b/' /etc/hosts",
  () => "find /etc/apt -delete",
  (_s, p) => `find /etc -maxdepth 1 -name hosts -exec ${p} \\;`,
  () => "find /etc -maxdepth 1 -fprint /tmp/find",
  (_s, _p, prog) => `find /etc -maxdepth 1 -name hosts -ok ${prog} {} \\;`,
  (_s, _p, prog) => `echo /tmp/x | xargs ${prog}`,
  () => "date -s 2020-01-01",
  () => "hostname oracle",
  () => "tar cf /tmp/tar /etc/hosts",
  () => "xxd /etc/hostname /tmp/xxd",
  () => "tree -o /tmp/tree /etc/apt",
  (_s, _p, prog) => `git -c core.pager=${prog} log`,
  () => "git log --output=/tmp/git",
  (_s, _p, prog) => `git grep --open-files-in-pager=${prog} x`,
  () => "cp /etc/hosts /tmp/cp",
  () => "install -m 644 /etc/hosts /tmp/install",
  () => "split /etc/hosts /tmp/split",
  () => "wget http://127.0.0.1/",
  () => "curl -o /tmp/curl http://127.0.0.1/",
  (_s, _p, prog) => `vim -es -c ':!${prog}' /etc/hosts`,
  (_s, _p, prog) => `less +'!${prog}' /etc/hosts`,
  (_s, p) => `watch -n 1 ${singleQuote(p)}`,
  (_s, _p, prog) => `timeout 2 ${prog} /tmp/t`,
  (_s, p) => `ssh -o ProxyCommand=${singleQuote(p)} host true`,
];

/** Class 5: destruction. */
const DESTRUCTION: Template[] = [
  () => "> /etc/hosts",
  () => ": > /etc/hostname",
  () => "cat /dev/null > /etc/hosts",
  (s) => `${s} > /etc/passwd`,
  (s) => `${s} >> /etc/hosts`,
  (s) => `${s} &> /tmp/out`,
  () => "rm -rf /etc/apt",
  () => "shred /etc/hostname",
  () => "kill -9 -1",
  () => "kill -TERM 1",
  () => "reboot",
  () => "poweroff -f",
  () => "echo b > /proc/sysrq-trigger",
  () => "umount /proc",
  () => "mount -o remount,ro /",
  () => "exec 3>/etc/hosts",
  () => "ln -sf /dev/null /etc/hosts",
  () => "chown nobody /etc/hosts",
  () => "touch -d 2000-01-01 /etc/hosts",
  () => "mkfifo /tmp/fifo",
  () => "cat /dev/watchdog",
];

const FAMILIES: readonly [FuzzFamily, Template[], number][] = [
  ["benign", BENIGN, 0.4],
  ["parse", PARSE, 0.14],
  ["builtin", BUILTIN, 0.13],
  ["environment", ENVIRONMENT, 0.1],
  ["flags", FLAGS, 0.13],
  ["destruction", DESTRUCTION, 0.1],
];

export function generate(seed: number, count: number): FuzzCase[] {
  const rand = random(seed);
  const cases: FuzzCase[] = [];
  for (let i = 0; i < count; i++) {
    let roll = rand();
    let family = FAMILIES[0] as (typeof FAMILIES)[number];
    for (const candidate of FAMILIES) {
      if (roll < candidate[2]) {
        family = candidate;
        break;
      }
      roll -= candidate[2];
    }
    const template = pick(rand, family[1]);
    const payload = pick(rand, PAYLOADS);
    const program = (payload.split(" ")[0] as string).replace(/^\/usr\/bin\//, "");
    let command = template(pick(rand, SEEDS), payload, program, rand);
    // A second layer now and then: the same classes compose.
    if (rand() < 0.15) command = pick(rand, BENIGN)(command, payload, program, rand);
    cases.push({ command, family: family[0] });
  }
  return cases;
}

function singleQuote(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}

/** Quotes the first word of the command name differently: `ls` → `'ls'`, `"ls"`, `\ls`. */
function requote(command: string, style: "'" | '"' | "\\"): string {
  const match = /^([A-Za-z][A-Za-z0-9_-]*)(.*)$/s.exec(command);
  if (!match) return command;
  const [, name = "", rest = ""] = match;
  if (style === "\\") return `\\${name}${rest}`;
  return `${style}${name}${style}${rest}`;
}

/** Payloads whose effect loses data (the rest create or change something). */
const DESTRUCTIVE_PAYLOAD = /^(rm|mv|truncate|kill|reboot)\b/;

export interface TemplateCase extends FuzzCase {
  /** The least risk the template means to reach: where the sandbox cannot show it, the label. */
  intended: Risk;
}

/**
 * Every adversarial template with three payloads (the corpus the oracle labels): deterministic,
 * one row per distinct command.
 */
export function enumerateTemplates(): TemplateCase[] {
  const rand = random(16);
  const seen = new Set<string>();
  const out: TemplateCase[] = [];
  const payloads = PAYLOADS.filter((payload) => payload !== "sleep 0");
  for (const [family, templates] of FAMILIES) {
    if (family === "benign") continue;
    for (const [t, template] of templates.entries()) {
      for (let k = 0; k < 3; k++) {
        const payload = payloads[(t * 3 + k) % payloads.length] as string;
        const program = (payload.split(" ")[0] as string).replace(/^\/usr\/bin\//, "");
        const command = template(SEEDS[(t * 7 + k * 13) % SEEDS.length] as string, payload, program, rand);
        if (seen.has(command)) continue;
        seen.add(command);
        const usesPayload = command.includes(payload);
        // `echo $'\' ; payload ; #'` is one quoted word to bash: harmless where it runs (dash would run it).
        const quotedUnderBash = /echo \$'\\' ; .* ; #'$/.test(command);
        const intended: Risk = quotedUnderBash
          ? "read_only"
          : family === "destruction" || (usesPayload && DESTRUCTIVE_PAYLOAD.test(payload))
            ? "destructive"
            : "config_mutation";
        out.push({ command, family, intended });
      }
    }
  }
  return out;
}
