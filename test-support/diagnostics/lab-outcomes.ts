import { loadClassifier } from "../../policy/classify.ts";
import { type JailGrant, runsUnjailed, unionGrants } from "../../policy/jail-grant.ts";
import { type HiddenKind, hiddenByJail } from "../../policy/jail-hidden.ts";
import { DIAGNOSTICS } from "./corpus.ts";
import type { DiagnosticsLab } from "./lab.ts";
import { type LabRun, runInLab } from "./lab-runner.ts";
import type { DiagnosticRow } from "./schema.ts";

/**
 * What the daily-diagnostics lab finds for each runnable row (jobs/ssh/jail-diagnostics.test.ts
 * asserts it; `npm run bench` reports diagnostics_autorun_ratio from it): the row runs with the
 * grants the proof gives it (the classifier's, not the corpus's labels), once unjailed and once in
 * a jail of its own, as in production, on the lab's real resources.
 *
 *  - same: stdout, stderr and exit status equal after normalising only the documented volatile
 *    fields (VOLATILE: clocks, load and usage figures, other processes of the moment);
 *  - reported: the jail changed the answer, and the jailed result says so in data (policy/jail-
 *    hidden.ts) — only rows listed in KNOWN_DIFFERENCES with why;
 *  - fails_closed: the jail cannot make the grant here and the command did not run, the result
 *    naming the grant (other processes' descriptors and the kernel log are read unjailed by their
 *    specs now, so no row of the corpus should);
 *  - unjailed_by_spec: runs outside the jail by name ("unjailed: needs X"); the control runs it
 *    jailed anyway with the host's network namespace, to show it cannot see there;
 *  - asks: the proof does not let it run unasked (not read_only);
 *  - not_installed: the unjailed run exits 127;
 *  - silent_lie: a difference the jailed result does not report.
 */
/** Normalisers of fields that move between two runs whatever the jail does. */
/** Figures become 0 and column padding (which follows the figures' widths) one space. */
const digits = (text: string) =>
  text
    .replace(/\d+([.,]\d+)*/g, "0")
    .split("\n")
    .map((line) => line.replace(/ +/g, " ").trim())
    .join("\n");
const lines = (text: string) => text.split("\n");
export const VOLATILE: Record<string, (text: string) => string> = {
  // clocks, load averages, memory and CPU figures, I/O counters
  // (and the count of logged-in users, whose plural follows the figure)
  uptime: (text) => digits(text).replace(/\busers\b/g, "user"),
  w: (text) => digits(text).replace(/\busers\b/g, "user"),
  "free -h": digits,
  "vmstat 1 5": digits,
  "iostat -x 1 3": digits,
  // the interface's packet and byte counters (traffic in the lab's namespace between the two runs)
  "ip -s link show eth0": digits,
  "cat /proc/loadavg": digits,
  // top's and ps's process rows are the busiest processes of that moment: the header and the count
  "top -bn1 | head -n 20": (text) =>
    lines(text)
      // a figure of 10 or more takes the space top pads with after a comma or colon ("5.0 us,  2.0 sy" /
      // "12.5 us,10.0 sy"; "%Cpu(s):  0.0 us" / "%Cpu(s):100.0 us")
      .map((line, i) => (i < 7 ? digits(line).replace(/,\s*/g, ", ").replace(/:\s*/g, ": ") : "row"))
      .join("\n"),
  // (ps sizes its PID column from kernel.pid_max, which inside the jail is its PID namespace's own)
  "ps aux --sort=-%mem | head": (text) =>
    lines(text)
      .map((line, i) => (i === 0 ? line.replace(/ +/g, " ") : "row"))
      .join("\n"),
  "ps -eo pid,ppid,cmd,%mem,%cpu --sort=-%cpu | head": (text) =>
    lines(text)
      .map((line, i) => (i === 0 ? line.replace(/ +/g, " ").trim() : "row"))
      .join("\n"),
  // other processes write under /var while the rows run: sizes move, and with them sort -h's order
  "du -sh /var/lib/vz": (text) => lines(digits(text)).sort().join("\n"),
  "du -h --max-depth=1 /var/log | sort -h": (text) => lines(digits(text)).sort().join("\n"),
  // rsync's transfer statistics (bytes, rate, speedup)
  "rsync -n -av /srv/data/ /mnt/backup/data/": (text) => text.replace(/^(sent|total size) .*$/gm, "$1"),
  "rsync -avn --delete /srv/a/ /srv/b/": (text) => text.replace(/^(sent|total size) .*$/gm, "$1"),
  // getaddrinfo orders the wildcard addresses by the addresses the network namespace has
  "sshd -T": (text) => lines(text).sort().join("\n"),
  // socket counters of the namespace, which the run's own sockets move
  "ss -s": digits,
};

/**
 * Why a partition editor's or a mkfs's answer cannot be the same jailed: it is quiet only with a
 * writable descriptor of the disk, no kernel mechanism keeps such a descriptor from writing (a block
 * device's read-only flag, BLKROSET, is the whole machine's), and sending one outside the jail would
 * rest on its options alone (`print`, `-n`).
 */
const NO_WRITABLE_READ_ONLY =
  "no writable descriptor of a block device refuses writes, and outside the jail it would rest on its options alone";
const PARTED = `parted opens the device read-write first, then says it fell back to read-only — ${NO_WRITABLE_READ_ONLY}`;

/**
 * Rows whose answer the jail changes, why, and what the jailed result must report (policy/jail-
 * hidden.ts). Each is a limit of containment, said so in data and words — never silently.
 */
export const KNOWN_DIFFERENCES: Record<string, { why: string; reports: HiddenKind }> = {
  "ethtool eth0": {
    why:
      "ethtool's netlink queries of wake-on-LAN and link modes need CAP_NET_ADMIN; it stays jailed, since " +
      "outside the jail an old ethtool's ioctl for a name that is no interface loads the module of that name",
    reports: "capability",
  },
  "parted /dev/sda print": { why: PARTED, reports: "read_only_device" },
  "parted -s /dev/sda unit GB print": { why: PARTED, reports: "read_only_device" },
  "mke2fs -n /dev/sdb1": {
    why:
      "mke2fs opens the device read-write and exclusively even with -n, and fails where it cannot; " +
      `the jail grants it read-only — ${NO_WRITABLE_READ_ONLY}`,
    reports: "read_only_device",
  },
  "ping -c 3 192.168.1.1": {
    why:
      "ping starts in the jail (its file capability is in the bounding set with the network grant), but " +
      'here net.ipv4.ping_group_range is the kernel\'s "1 0" (no systemd sets it): no ICMP datagram ' +
      "socket, and a raw one needs CAP_NET_RAW in the machine's own namespace; where systemd's range " +
      "holds, it answers jailed (jobs/ssh/jail-ping.test.ts)",
    reports: "capability",
  },
};

/**
 * Rows left out of the per-file time budget (the whole file must run in seconds on two cores), with
 * what they cost here; OIKOS_DIAGNOSTICS_ALL=1 runs them too.
 */
export const SLOW: Record<string, string> = {
  "apt-get -s upgrade":
    "17-23 s per run on this machine (apt solves the whole upgrade without a package cache)",
  "apt list --upgradable": "4-8 s per run on this machine (no package cache)",
};

export type Outcome =
  | { row: DiagnosticRow; kind: "same" }
  | { row: DiagnosticRow; kind: "reported"; note: string }
  | { row: DiagnosticRow; kind: "fails_closed"; why: string }
  | { row: DiagnosticRow; kind: "unjailed_by_spec"; needs: string; blindInJail: string }
  | { row: DiagnosticRow; kind: "asks"; why: string }
  | { row: DiagnosticRow; kind: "not_installed" }
  | { row: DiagnosticRow; kind: "silent_lie"; diff: string };

const combined = (result: LabRun, normalise: (text: string) => string) =>
  `${normalise(result.stdout)}\n--stderr--\n${normalise(result.stderr)}\n--exit ${result.exitCode}`;

function firstDifference(a: string, b: string): string {
  const left = lines(a);
  const right = lines(b);
  const at = left.findIndex((line, i) => line !== right[i]);
  const i = at < 0 ? left.length : at;
  return `line ${i}: unjailed ${JSON.stringify(left[i])} / jailed ${JSON.stringify(right[i])}`;
}

/**
 * Loop devices other than the lab's own come and go while the rows run (other test files attach
 * theirs: a shared machine, and CI runs files side by side), so every listing of block devices
 * leaves them out — a paragraph about one (`fdisk -l`, `parted -l`) and any line naming one.
 */
export function withoutForeignLoops(text: string, disk: string): string {
  const ownNumber = /loop(\d+)$/.exec(disk)?.[1];
  const foreign = (line: string) =>
    [...line.matchAll(/\bloop(\d+)(p\d+)?\b/g)].some((match) => match[1] !== ownNumber);
  return text
    .split(/\n\n/)
    .filter((paragraph) => !foreign(paragraph.split("\n")[0] ?? ""))
    .map((paragraph) =>
      paragraph
        .split("\n")
        .filter((line) => !foreign(line))
        .join("\n"),
    )
    .join("\n\n");
}

/** Runs `work` over `items` with at most `width` at once (the machine has two cores). */
async function pool<T, R>(items: readonly T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await work(items[i] as T);
  };
  await Promise.all(Array.from({ length: width }, worker));
  return results;
}

/** Runs every runnable row (`all`: the slow ones too) on `lab`, four at a time. */
export async function runDiagnosticsLab(
  lab: DiagnosticsLab,
  options: { all?: boolean } = {},
): Promise<{ outcomes: Outcome[]; timing: [number, string][] }> {
  const classifier = await loadClassifier();
  const timing: [number, string][] = [];
  const rows = DIAGNOSTICS.filter((row) => row.lab.runs === "here" && (options.all || !SLOW[row.command]));
  const outcomes = await pool(rows, 4, async (row): Promise<Outcome> => {
    const where = row.lab.runs === "here" ? row.lab : undefined;
    const command = (where?.command ?? row.command).replace(
      /\{\{[a-z]+\}\}/g,
      (placeholder) => lab.placeholders[placeholder] ?? placeholder,
    );
    const netns = where?.fixture === "net_namespace" ? lab.netns : undefined;
    const classified = classifier.classify(command, "host");
    if (classified.risk !== "read_only")
      return { row, kind: "asks", why: `${classified.risk}: ${classified.reasons.join("; ")}` };
    const grants: JailGrant[] = unionGrants(classified.grants ?? []);
    const started = performance.now();
    const plain = await runInLab(command, { jail: false, netns });
    timing.push([performance.now() - started, command]);
    if (plain.exitCode === 127) return { row, kind: "not_installed" };
    if (runsUnjailed(grants)) {
      const needs = grants.flatMap((grant) => (grant.resource === "unjailed" ? [grant.needs] : []));
      const anyway = await runInLab(command, { jail: true, grants: [{ resource: "netlink" }], netns });
      const inJail = combined(anyway, (text) => text);
      const outside = combined(plain, (text) => text);
      return {
        row,
        kind: "unjailed_by_spec",
        needs: needs.join(", "),
        // what the jail made of it: its first complaint, or where its answer (the jail's own) differs
        blindInJail:
          inJail === outside
            ? ""
            : (lines(anyway.stderr).find((line) => line.trim() !== "") ?? firstDifference(outside, inJail)),
      };
    }
    const jailed = await runInLab(command, { jail: true, grants, netns });
    if (jailed.jail?.state === "failed") {
      if (jailed.stdout !== "") throw new Error(`${command}: the command ran although its jail failed`);
      return {
        row,
        kind: "fails_closed",
        why: `${jailed.jail.resource ?? jailed.jail.kind}: ${jailed.jail.reason}`,
      };
    }
    if (jailed.jail?.state !== "jailed")
      throw new Error(`${command}: no word from the jail: ${jailed.stderr}`);
    const own = VOLATILE[row.command] ?? ((text: string) => text);
    const normalise = (text: string) => own(withoutForeignLoops(text, lab.disk));
    const a = combined(plain, normalise);
    const b = combined(jailed, normalise);
    if (a === b) return { row, kind: "same" };
    const net = jailed.jail?.state === "jailed" ? jailed.jail.facts.net : "private";
    const { hidden, note } = hiddenByJail({ result: jailed, grants, net, command });
    const known = KNOWN_DIFFERENCES[row.command];
    if (note !== null && known !== undefined && hidden.some((item) => item.kind === known.reports))
      return { row, kind: "reported", note };
    return {
      row,
      kind: "silent_lie",
      diff: `${firstDifference(a, b)}${note ? ` (reported: ${note})` : ""}`,
    };
  });
  return { outcomes, timing };
}

/**
 * The share of the whole corpus that runs with nobody asked and gives the same answer jailed: read
 * only with exactly its expected grants (the proof), and, where the lab runs it, the same output or
 * sent unjailed by its spec (a row that fails closed or that the jail changes does not count; a row
 * this machine cannot run counts on the proof alone).
 */
export function diagnosticsAutorunRatio(
  outcomes: readonly Outcome[],
  autoRuns: (row: DiagnosticRow) => boolean,
): number {
  const byCommand = new Map(outcomes.map((outcome) => [outcome.row.command, outcome.kind]));
  const counted = DIAGNOSTICS.filter((row) => {
    if (!autoRuns(row)) return false;
    const kind = byCommand.get(row.command);
    return kind === undefined || kind === "same" || kind === "unjailed_by_spec" || kind === "not_installed";
  });
  return counted.length / DIAGNOSTICS.length;
}
