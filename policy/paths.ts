/** Paths whose overwrite breaks a machine: writing them is destructive, not a config change. */

const HARMLESS_DEVICES = new Set([
  "/dev/null",
  "/dev/zero",
  "/dev/full",
  "/dev/random",
  "/dev/urandom",
  "/dev/stdout",
  "/dev/stderr",
  "/dev/stdin",
  "/dev/tty",
  "/dev/console",
]);

const SYSTEM_FILES = new Set([
  "/etc/passwd",
  "/etc/shadow",
  "/etc/group",
  "/etc/gshadow",
  "/etc/sudoers",
  "/etc/fstab",
  "/etc/crypttab",
  "/etc/pam.d",
  "/etc/ld.so.preload",
  "/etc/crontab",
  "/proc/sysrq-trigger",
]);

const SYSTEM_TREES = [
  "/boot",
  "/bin",
  "/sbin",
  "/lib",
  "/lib32",
  "/lib64",
  "/usr/bin",
  "/usr/sbin",
  "/usr/lib",
  "/usr/libexec",
  "/etc/pam.d",
  // Writing here grants root or runs code as root at the next boot, cron tick or sudo.
  "/etc/sudoers.d",
  "/etc/cron.d",
  "/etc/cron.hourly",
  "/etc/cron.daily",
  "/etc/cron.weekly",
  "/etc/cron.monthly",
  "/etc/systemd/system",
  "/usr/local/bin",
  "/usr/local/sbin",
];

/** Whoever can write this logs in as that user. */
const LOGIN_KEY_FILE = /(^|\/)\.ssh\/authorized_keys2?$/;

/** Top-level directories that a recursive change (rm -r, chmod -R, chown -R) must not touch. */
const TOP_LEVEL_TREES = new Set([
  "/",
  "/etc",
  "/usr",
  "/var",
  "/var/lib",
  "/home",
  "/root",
  "/srv",
  "/opt",
  "/boot",
  "/bin",
  "/sbin",
  "/lib",
  "/lib64",
  "/mnt",
  "/dev",
  "/proc",
  "/sys",
  "/*",
]);

/** Collapses `//`, `.` and `..` and drops a trailing slash: `/etc/../etc//passwd` is `/etc/passwd`. */
export function normalisePath(path: string): string {
  if (!path.startsWith("/")) return path;
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return `/${parts.join("/")}`;
}

export function isHarmlessDevice(path: string): boolean {
  const p = normalisePath(path);
  return HARMLESS_DEVICES.has(p) || p.startsWith("/dev/fd/") || p.startsWith("/dev/pts/");
}

/** A block device, raw memory or other device node other than the harmless ones. */
export function isDevicePath(path: string): boolean {
  const p = normalisePath(path);
  return p.startsWith("/dev/") && !isHarmlessDevice(p) && !p.startsWith("/dev/shm/");
}

export function isSystemFile(path: string): boolean {
  const p = normalisePath(path);
  if (SYSTEM_FILES.has(p) || LOGIN_KEY_FILE.test(p)) return true;
  return SYSTEM_TREES.some((tree) => p === tree || p.startsWith(`${tree}/`));
}

/** Writing here is destructive: a device node or a file the system needs to boot or log in. */
export function isCriticalWriteTarget(path: string): boolean {
  return isDevicePath(path) || isSystemFile(path);
}

export function isTopLevelTree(path: string): boolean {
  if (path === "/*" || path === "/.*") return true;
  return TOP_LEVEL_TREES.has(normalisePath(path.replace(/\/\*$/, "") || "/"));
}
