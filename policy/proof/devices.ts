import type { ProofContext, Verdict } from "./context.ts";
import type { ProofWord } from "./proof-word.ts";

/**
 * Devices whose opening acts: a watchdog arms (and reboots the machine unless fed), a tape
 * rewinds, a console takes a terminal. A read-only command names none of them, however the path
 * is spelled: `//dev/watchdog`, `/etc/../dev/watchdog`, `/proc/1/root/dev/watchdog`, a relative
 * `dev/watchdog` (the working directory may be `/`: containers start there), `~/../../dev/…`, a
 * glob that matches one, or a path through `/proc/PID/cwd|fd|map_files` that could be anything.
 */

/** Data streams: reading them acts on nothing. */
export const DATA_STREAM = /^\/dev\/(null|zero|full|u?random|stdin|fd\/[0-9]+)$/;
/** Disks and partitions by kernel name: reading one reads sectors and nothing else. */
const DISK =
  /^\/dev\/((sd|hd|vd|xvd)[a-z]+[0-9]*|nvme[0-9]+(n[0-9]+(p[0-9]+)?)?|(md|loop|zd|mmcblk|nbd|rbd)[0-9]+(p[0-9]+)?|dm-[0-9]+|sg[0-9]+|bcache[0-9]+)$/;
/** Disks by the names udev, device-mapper, ZFS and md give them, and the directories of those names. */
const DISK_NAME =
  /^\/dev\/(disk(\/by-[a-z-]+(\/[^/]+)?)?|mapper(\/[^/]+)?|zvol(\/[^/].*)?|block(\/[0-9]+:[0-9]+)?|md(\/[^/]+)?)$/;
/**
 * The kernel's own directories under /dev. Everything else one level down is an LVM volume
 * (`/dev/pve/root`); these hold terminals (`pts`), keyboards and mice (`input`), sound and cameras,
 * serial ports whose opening resets the board behind them, and bash's `/dev/tcp` and `/dev/udp`.
 */
const KERNEL_DIRS = new Set([
  "pts",
  "input",
  "snd",
  "bus",
  "net",
  "vfio",
  "dri",
  "cpu",
  "usb",
  "char",
  "serial",
  "v4l",
  "bsg",
  "mqueue",
  "shm",
  "hugepages",
  "fd",
  "dma_heap",
  "infiniband",
  "tcp",
  "udp",
  "disk",
  "mapper",
  "block",
  "zvol",
  "md",
  "watchdog",
  "gpiochip",
  "i2c",
  "spi",
]);
const LVM_VOLUME = /^\/dev\/([A-Za-z0-9+_.-]+)\/[A-Za-z0-9+_.-]+$/;

/**
 * Devices a read-only command may open for reading: data streams and disks. Opening anything else
 * can act: a watchdog arms, a tape rewinds, a serial port resets the board behind it, a terminal
 * or input device hands over keystrokes (reading one steals them), and bash's `/dev/tcp/HOST/PORT`
 * and `/dev/udp/…` open a connection in any redirection, input included.
 */
export function isReadableDevice(path: string): boolean {
  if (!path.startsWith("/dev/")) return true;
  if (DATA_STREAM.test(path) || DISK.test(path) || DISK_NAME.test(path)) return true;
  const volume = LVM_VOLUME.exec(path);
  return volume !== null && !KERNEL_DIRS.has(volume[1] as string);
}

/** Paths that stand for acting devices, or for whatever another process has open, to test globs against. */
const ACTING_SAMPLES = [
  "/dev/watchdog",
  "/dev/watchdog0",
  "/dev/mem",
  "/dev/kmem",
  "/dev/port",
  "/dev/kmsg",
  "/dev/st0",
  "/dev/nst0",
  "/dev/console",
  "/dev/tty0",
  "/dev/rtc0",
  "/dev/cpu_dma_latency",
  "/dev/char/10:130",
  "/dev/tcp/h/1",
  "/dev/udp/h/1",
  "/dev/pts/0",
  "/dev/tty1",
  "/dev/ttyS0",
  "/dev/ttyUSB0",
  "/dev/ttyACM0",
  "/dev/input/event0",
  "/dev/input/mice",
  "/dev/hidraw0",
  "/dev/vcs1",
  "/dev/vcsa",
  "/dev/uinput",
  "/dev/video0",
  "/dev/snd/pcmC0D0c",
  "/dev/serial/by-id/usb-x",
  "/dev/ptmx",
  "/proc/1/root/dev/watchdog",
  "/proc/self/root/dev/watchdog",
  "/proc/1/cwd/watchdog",
  "/proc/1/fd/3",
  "/proc/1/map_files/1-2",
];

/** The magic links of /proc: `root` is `/`; `cwd`, `fd` and `map_files` lead anywhere. */
const PROC_LINK = /^\/proc\/[^/]+\/(root|cwd|fd|map_files)$/;
const OWN_STDIO = /^\/proc\/(self|thread-self)\/fd\/[012]$/;
/** Stands for a path through a /proc link whose target the text cannot tell. */
export const OPAQUE = "/proc/?/opaque";

/**
 * The absolute path `text` names, lexically: `//` and `.` collapse, `..` climbs, `/proc/PID/root`
 * is `/`, and a path on through `/proc/PID/cwd|fd|map_files` is OPAQUE. A relative path (or
 * `~…`) is read from `/` with any leading `..` dropped, since the working directory may be `/`
 * and `..` climbs to it from anywhere.
 */
export function absolutePath(text: string): string {
  const body = text.startsWith("/") ? text : text.replace(/^~[^/]*(\/|$)/, "");
  let out: string[] = [];
  const parts = body.split("/");
  for (let k = 0; k < parts.length; k++) {
    const part = parts[k] as string;
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
    const link = PROC_LINK.exec(`/${out.join("/")}`);
    if (link?.[1] === "root") out = [];
    else if (link && parts.slice(k + 1).some((rest) => rest !== "" && rest !== ".")) {
      const path = `/${[...out, ...parts.slice(k + 1)].filter((p) => p !== "").join("/")}`;
      return OWN_STDIO.test(path) ? path : OPAQUE;
    }
  }
  return `/${out.join("/")}`;
}

/**
 * Why the text, as a path, could open an acting device; null when it cannot. After a symlink,
 * `..` climbs from the link's target, not lexically (`/sys/class/watchdog/watchdog0/subsystem/
 * ../../../../dev/watchdog` is the watchdog): the part after the last `..` is read from `/` too.
 */
function pathVerdict(text: string): Verdict {
  // Only a path naming `dev` or `proc` (or climbing with `..`) can end in /dev or /proc.
  if (!MAY_NAME_DEVICE.test(text)) return null;
  for (const reading of readings(text)) {
    const verdict = lexicalVerdict(reading, text);
    if (verdict) return verdict;
  }
  return null;
}

const MAY_NAME_DEVICE = /dev|proc|\.\./;

/** The path as written, and, when `..` follows a name that may be a symlink, its tail from `/`. */
function readings(text: string): string[] {
  const climb = text.lastIndexOf("../");
  const before = climb >= 0 ? text.slice(0, climb).replace(/[./]/g, "") : "";
  return before === "" ? [text] : [`/${text.slice(climb + 3)}`, text];
}

function lexicalVerdict(candidate: string, text: string): Verdict {
  const path = absolutePath(candidate);
  if (path === OPAQUE) {
    return `\`${text}\` goes through another process's /proc links, which can lead to any file or device`;
  }
  if (!isReadableDevice(path)) return `\`${text}\` ${whyActing(path)}`;
  return null;
}

/** What opening a device that is not a data stream or a disk may do, in words. */
function whyActing(path: string): string {
  if (/^\/dev\/(tcp|udp)\//.test(path))
    return `is bash's ${path.slice(0, 8)}: any redirection from or to it opens a network connection`;
  if (/^\/dev\/(pts\/|tty|console|ptmx|input\/|hidraw|vcs|uinput|serial\/)/.test(path))
    return `is the terminal or input device ${path}: reading it takes keystrokes meant for someone else`;
  return `is the device ${path}, whose opening can act (a watchdog arms, a tape rewinds, a serial port resets what is behind it)`;
}

/**
 * The path-like parts of an argument: itself, an option's value (`--file=/x`, `-f/x`), `@file`,
 * and an operand's value (`dd if=/x`).
 */
export function pathParts(value: string): string[] {
  if (value.startsWith("@")) return [value.slice(1)];
  const operand = /^[A-Za-z_][A-Za-z0-9_]*=(.*)$/s.exec(value);
  if (operand) return [value, operand[1] as string];
  if (!value.startsWith("-")) return [value];
  const eq = value.indexOf("=");
  if (eq >= 0) return [value.slice(eq + 1)];
  const attached = /^-[A-Za-z0-9]+?([/.~].*)$/.exec(value);
  return attached ? [attached[1] as string] : [];
}

/**
 * Why a word of a read-only command could open an acting device: a fixed path to one, or a glob
 * or a run-time word whose fixed tail after `..` leads to one. Null when it cannot.
 */
export function deviceVerdict(word: ProofWord): Verdict {
  if (word.static) {
    for (const part of pathParts(word.value)) {
      const verdict = pathVerdict(part);
      if (verdict) return verdict;
    }
    return null;
  }
  // A run-time prefix may be empty, and `..` climbs from it: the fixed tail alone is a path too.
  const tail = word.raw.replace(/^.*(\$[A-Za-z0-9_@*#?$!-]+|[`"'})])/s, "");
  if (tail.startsWith("/") && !/[*?[{]/.test(tail)) {
    const verdict = pathVerdict(tail);
    if (verdict) return verdict;
  }
  // A fixed prefix into /dev, then run-time text (`/dev/$name`): any device there.
  const prefix = /^["']?([^$`"'*?[{\\]*)/.exec(word.raw)?.[1] ?? "";
  if (prefix !== "" && pathParts(`${prefix}x`).some((part) => pathVerdict(part))) {
    return `\`${word.raw}\` names a device only known at run time (\`${prefix}…\`)`;
  }
  return globMayReachDevices(word.value) ? `\`${word.raw}\` could match a device whose opening acts` : null;
}

/** Whether a glob (relative ones read from `/`) could match an acting device or a /proc magic link. */
export function globMayReachDevices(pattern: string): boolean {
  if (!/[*?[{]/.test(pattern)) return false;
  if (/[@!+]\(/.test(pattern)) return true;
  // A sequence `{a..z}` or `{0..9}` yields words of any shape: as broad as `*`.
  const path = absolutePath(pattern.replace(/\{[^{}/]*\.\.[^{}/]*\}/g, "*"));
  if (path === OPAQUE) return true;
  let source = "";
  for (let i = 0; i < path.length; i++) {
    const c = path[i] as string;
    if (c === "*") source += "[^/]*";
    else if (c === "?") source += "[^/]";
    else if (c === "{") source += "(";
    else if (c === "}") source += ")";
    else if (c === "," && source.includes("(")) source += "|";
    else if (c === "[") {
      const close = path.indexOf("]", i + 2);
      if (close < 0) return true;
      source += `[${path
        .slice(i + 1, close)
        .replace(/^!/, "^")
        .replace(/\\/g, "\\\\")}]`;
      i = close;
    } else source += c.replace(/[.+^$()|\\]/g, "\\$&");
  }
  let regex: RegExp;
  try {
    regex = new RegExp(`^${source}$`);
  } catch {
    return true;
  }
  return ACTING_SAMPLES.some((sample) => regex.test(sample));
}

/**
 * Whether a starting point or listed path could hold device files below it: `/`, `/dev…`,
 * `/proc…` (its magic links), or a word only known at run time.
 */
export function mayHoldDevices(word: ProofWord): boolean {
  if (!word.static) return true;
  const path = absolutePath(word.value);
  // `.` is the working directory, home for a login; a relative name reaches devices only by naming them.
  return path === "/" ? word.value.startsWith("/") : /^\/(dev|proc)(\/|$)/.test(path);
}

/** Whether a path the command names may be the watchdog, whose opening reboots the machine. */
export function mayOpenWatchdog(text: string): boolean {
  if (!MAY_NAME_DEVICE.test(text)) return false;
  return pathParts(text).some((part) =>
    readings(part).some((reading) => {
      const path = absolutePath(reading);
      return path === OPAQUE || /^\/dev\/watchdog[0-9]*$/.test(path);
    }),
  );
}

/**
 * `deviceVerdict`, and when the word may be the watchdog the reason is also recorded on the
 * context: a command that can reboot the machine is destructive, not merely unproven.
 */
export function reachesDevice(word: ProofWord, ctx: ProofContext): Verdict {
  const verdict = deviceVerdict(word);
  if (verdict && (word.static ? mayOpenWatchdog(word.value) : true)) ctx.reboots.push(verdict);
  return verdict;
}

/** Records that the command can open the watchdog (a tree or input that holds it) and returns why. */
export function mayReboot(reason: string, ctx: ProofContext): Verdict {
  ctx.reboots.push(reason);
  return reason;
}
