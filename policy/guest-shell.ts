/**
 * Which shell a Proxmox guest has, and so how oikos runs a command there and how the classifier
 * grades it. Pure: discovery and the worker read the facts (the guest config's `ostype`, the probe's
 * output) and record what is decided here on the guest's entity.
 *
 *  - `bash`: the usual wrapper (`env … bash --noprofile --norc -c`), graded as bash, jailed when asked;
 *  - `sh` (dash, a POSIX sh) and `ash` (busybox: Alpine): `env -u ENV sh -c`, graded by the proof's
 *    POSIX dialect; no jail (it runs under bash only), so a read-only command never runs unasked;
 *  - `cmd`: a Windows guest, through the guest agent as `cmd.exe /d /c`: the classifier reads bash and
 *    cannot speak for cmd.exe, so every command needs the operator;
 *  - `none`: nothing oikos can start a command with: the guest is not runnable.
 */
export const GUEST_SHELLS = ["bash", "sh", "ash", "cmd", "none"] as const;
export type GuestShell = (typeof GUEST_SHELLS)[number];

/** How the shell was learned: presumed from the config's ostype, or probed inside the guest. */
export const GUEST_SHELL_SOURCES = ["ostype", "probe"] as const;
export type GuestShellSource = (typeof GUEST_SHELL_SOURCES)[number];

export const GUEST_OSES = ["linux", "windows", "unknown"] as const;
export type GuestOs = (typeof GUEST_OSES)[number];

/** Entity attributes (routing: they decide how a command reaches the guest, policy/routing.ts). */
export const GUEST_SHELL_ATTRIBUTE = "guest.shell";
export const GUEST_SHELL_SOURCE_ATTRIBUTE = "guest.shell_source";
export const GUEST_OS_ATTRIBUTE = "guest.os";
export const GUEST_PROBED_AT_ATTRIBUTE = "guest.probed_at";

/** How a command is graded and wrapped on a guest with this shell. */
export type ShellDialect = "bash" | "posix" | "windows";

export function shellDialect(shell: GuestShell | null): ShellDialect {
  if (shell === "sh" || shell === "ash") return "posix";
  if (shell === "cmd") return "windows";
  return "bash";
}

/**
 * Container templates whose distribution always ships bash (Debian's is Essential; the others install
 * it in their base system). Alpine (busybox ash, bash only when added) and `unmanaged` are probed.
 */
const BASH_CONTAINER_OSTYPES = new Set([
  "debian",
  "devuan",
  "ubuntu",
  "centos",
  "fedora",
  "opensuse",
  "archlinux",
  "gentoo",
  "nixos",
]);

/** The OS family from the config's ostype (qm.conf: l24, l26, win*, solaris, wxp, w2k*, other). */
export function osFromOstype(kind: "lxc" | "qemu", ostype: string | null): GuestOs {
  if (kind === "lxc") return "linux";
  if (ostype === null) return "unknown";
  if (/^(win|wxp|w2k|wvista)/.test(ostype)) return "windows";
  if (ostype === "l24" || ostype === "l26") return "linux";
  return "unknown";
}

/** What the ostype alone says about the shell; null when only a probe can tell. */
export function shellFromOstype(kind: "lxc" | "qemu", ostype: string | null): GuestShell | null {
  if (osFromOstype(kind, ostype) === "windows") return "cmd";
  if (kind === "lxc" && ostype !== null && BASH_CONTAINER_OSTYPES.has(ostype)) return "bash";
  return null;
}

/**
 * The probe, run with `sh -c` (so it runs where bash is missing): whether bash is installed and what
 * `sh` is (busybox's ash links sh to busybox). POSIX sh only; it prints `key=value` lines.
 */
export const SHELL_PROBE = [
  "if command -v bash >/dev/null 2>&1; then echo bash=yes; else echo bash=no; fi",
  's=$(command -v sh 2>/dev/null); r=$(readlink -f "$s" 2>/dev/null); [ -n "$r" ] || r=$s; echo "sh=$r"',
].join("; ");

/**
 * The probe's answer: bash when installed; else busybox ash or a plain POSIX sh. `none` when the guest
 * could not start the probe at all (the program to start was missing: exit 126/127, or lxc-attach /
 * the agent said it failed to exec it); null when the answer is inconclusive (the guest stopped, the
 * node did not answer) — then nothing is recorded.
 */
export function shellFromProbe(result: {
  exitCode: number | null;
  stdout: string;
  stderr?: string;
}): GuestShell | null {
  if (result.exitCode !== 0) {
    const cannotStart =
      result.exitCode === 126 ||
      result.exitCode === 127 ||
      /Failed to exec(ute)?\b/.test(result.stderr ?? "");
    return cannotStart ? "none" : null;
  }
  const facts = new Map(
    result.stdout
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line.includes("="))
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)] as const),
  );
  if (facts.get("bash") === "yes") return "bash";
  if (!facts.has("sh")) return null;
  return /busybox/.test(facts.get("sh") ?? "") ? "ash" : "sh";
}

/** The QEMU guest agent's guest-get-osinfo `id` (`mswindows` on Windows). */
export function osFromAgentId(id: string | undefined): GuestOs {
  if (id === undefined) return "unknown";
  return id === "mswindows" ? "windows" : "linux";
}

/** The recorded shell of a guest entity, and whether a probe confirmed it. */
export function recordedShell(attributes: Record<string, unknown>): {
  shell: GuestShell | null;
  probed: boolean;
} {
  const value = attributes[GUEST_SHELL_ATTRIBUTE];
  const shell = (GUEST_SHELLS as readonly unknown[]).includes(value) ? (value as GuestShell) : null;
  return { shell, probed: shell !== null && attributes[GUEST_SHELL_SOURCE_ATTRIBUTE] === "probe" };
}

/** Said to the operator and the model: why a guest's shell decides what it may run unasked. */
export function shellWords(shell: GuestShell): string {
  switch (shell) {
    case "bash":
      return "bash";
    case "sh":
      return "a POSIX sh without bash";
    case "ash":
      return "busybox ash without bash";
    case "cmd":
      return "Windows (cmd.exe through the guest agent)";
    case "none":
      return "no shell oikos can start";
  }
}

/**
 * Why the read-only jail cannot hold a command on a guest with this shell (it runs under bash), or
 * null: the run gate treats such a guest as one that cannot jail, so a read-only command asks the
 * operator unless the operator allowed read-only commands unjailed there (policy/jail.ts).
 */
export function shellJailReason(shell: GuestShell | null): string | null {
  if (shell === "sh" || shell === "ash" || shell === "cmd")
    return `the guest has ${shellWords(shell)}, and the read-only jail runs under bash`;
  return null;
}
