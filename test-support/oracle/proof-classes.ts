/**
 * The classes of issue #34, generated: each form is a command the read-only proof once called
 * read_only while bash did something else. Every attack runs in the oracle's sandbox whatever the
 * classifier says (so the test shows the oracle sees its effect, and would fail with the fix
 * reverted), and every look-alike must stay read_only with no effect. Fixtures: runner.ts
 * buildFixtures (/srv/oracle-glob with files `-a`, `-delete`, `b`; /srv/oracle-payload holding
 * `x[$(touch …)]`; /srv/oracle-repo whose core.fsmonitor runs touch; /srv/oracle-fifo, a FIFO nobody
 * writes), /dev/pts/0, /dev/input/event0.
 */
export type ProofClass =
  | "dev_tcp"
  | "arithmetic"
  | "globs"
  | "joined_lines"
  | "terminals"
  | "background"
  | "endless"
  | "git_config"
  | "outside_lookups";

export interface ClassAttack {
  class: ProofClass;
  command: string;
}

const TCP_TARGETS = ["/dev/tcp/127.0.0.1/9", "/dev/udp/127.0.0.1/9"];
const REDIRECTIONS = ["<", "0<", "3<", "<>", "3<>", "5<"];

const TOUCH = "x[$(touch /tmp/oracle-arith)]";
/** Text bash assigns itself, from a file or from the command's own words. */
const ASSIGNERS: readonly [setup: string, name: string][] = [
  [`: '${TOUCH}';`, "_"],
  ["read -r < /srv/oracle-payload;", "REPLY"],
  ["[[ $(cat /srv/oracle-payload) =~ (.*) ]];", "BASH_REMATCH"],
  ["[[ $(cat /srv/oracle-payload) =~ (.*) ]];", "BASH_REMATCH[1]"],
];
const ARITHMETIC: readonly ((name: string) => string)[] = [
  (name) => `echo $((${name}))`,
  (name) => `echo $[${name}]`,
  (name) => `[[ ${name} -eq 1 ]]`,
  (name) => `[[ 1 -lt $${name.replace(/\[.*$/, "")} ]]`,
];

const JOINED = [
  'echo "$\\\n(touch /tmp/oracle-joined)"',
  'printf "%s" "a$\\\n(touch /tmp/oracle-joined)"',
  'for x in "$\\\n(touch /tmp/oracle-joined)"; do :; done',
];

export function classAttacks(): ClassAttack[] {
  const out: ClassAttack[] = [];
  for (const target of TCP_TARGETS) {
    for (const redirection of REDIRECTIONS)
      out.push({ class: "dev_tcp", command: `cat ${redirection}${target}` });
    out.push({ class: "dev_tcp", command: `{ head -c1; } 3<${target}` });
  }
  for (const [setup, name] of ASSIGNERS)
    for (const context of ARITHMETIC) out.push({ class: "arithmetic", command: `${setup} ${context(name)}` });
  for (const prefix of ["cd /srv/oracle-glob && ", "cd /srv/oracle-glob; "]) {
    out.push({ class: "globs", command: `${prefix}find . -name *` });
    out.push({ class: "globs", command: `${prefix}uniq -- *[ab]` });
  }
  for (const command of JOINED) out.push({ class: "joined_lines", command });
  for (const device of ["/dev/pts/0", "/dev/input/event0"]) {
    out.push({ class: "terminals", command: `head -c1 ${device}` });
    out.push({ class: "terminals", command: `od -An -N1 < ${device}` });
    out.push({ class: "terminals", command: `read -r -n1 x < ${device}` });
  }
  for (const command of [
    "sleep 1 & echo x",
    "( sleep 1 ) & echo x",
    "for i in 1; do sleep 1 & done",
    "{ sleep 1; } & :",
  ])
    out.push({ class: "background", command });
  for (const command of [
    "sort /dev/zero",
    "cat /dev/zero | sort",
    "tail -n1 /dev/zero",
    // tools that run outside the jail by name, in their repeat modes
    "netstat -c",
    "netstat -tulpnc",
    "lsof -n -r1 /etc/hostname",
    // outside the jail nothing bounds the shell around the tool or the filters beside it
    "lsof -n -i -r",
    "while true; do dmesg; done",
    "dmesg < /srv/oracle-fifo",
    "x=$(< /srv/oracle-fifo); ss -tnp",
    "dmesg | cat /srv/oracle-fifo",
    "dmesg | tail -f /srv/oracle-payload",
  ])
    out.push({ class: "endless", command });
  for (const sub of ["status", "diff", "ls-files -m", "status --short"])
    out.push({ class: "git_config", command: `git -C /srv/oracle-repo ${sub}` });
  // What runs outside the jail by name has the host's network: a name it resolves is a DNS query.
  for (const command of [
    "ss -tp oracle-lookup.example",
    "ss -tnp dst oracle-lookup.example",
    "ss -tnp '( src oracle-lookup.example )'",
    "lsof -n -i @oracle-lookup.example",
    "lsof -nP -iTCP@oracle-lookup.example:22",
    "fuser -n tcp 22,oracle-lookup.example",
    "fuser 22,oracle-lookup.example/tcp",
    // a state name anywhere but after `state` is a host to ss
    "ss -tp established",
  ])
    out.push({ class: "outside_lookups", command });
  return out;
}

/** Look-alikes that must stay read_only and do nothing in the sandbox. */
export const CLASS_LOOK_ALIKES: readonly string[] = [
  "cat /srv/oracle-payload",
  "n=5; echo $((n + 1)) $[n * 2]",
  "echo $((0x10 + 16#ff))",
  "[[ $? -eq 0 ]] && echo ok",
  'read -r line < /srv/oracle-payload; echo "$line"',
  "find /srv/oracle-glob -name '*'",
  "ls -- /srv/oracle-glob/*",
  "uniq -- /srv/oracle-glob/b",
  "echo a \\\n b",
  'echo "a \\\nb"',
  "head -c 4 /dev/urandom | od -An",
  "tr -dc a-z < /dev/urandom | head -c 8",
  "cat /etc/hostname; wait",
  "git -C /srv/oracle-repo --no-optional-locks -c core.fsmonitor=false status",
  "git -C /srv/oracle-repo -c core.fsmonitor=false diff --no-textconv --no-ext-diff",
  "git -C /srv/oracle-repo log --no-show-signature --oneline",
  "ss -tnp dst 127.0.0.1",
  "ss -tnp state established '( dport = :ssh or sport = :22 )'",
  "lsof -n -i @127.0.0.1:22",
  "lsof -n +L1",
  "netstat -tulpn",
  "lsof -n -c bash",
];
