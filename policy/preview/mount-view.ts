/**
 * The probes' view of the target's mounts (issue #37). A probe runs inside the read-only jail, whose
 * view is the machine's with every mount remounted read-only — except what the jail mounts for its
 * own commands (today a private, empty /tmp, /var/tmp and /dev/shm; a private scratch once the jail
 * shows the real ones). There the probe sees something else than the approved command will, which
 * runs unjailed: a path under such a mount is not previewed. "Writable in a jailed view" is how that
 * is told, whatever the jail engine names its mounts.
 */

export interface MountEntry {
  point: string;
  writable: boolean;
}

/** `/proc/self/mountinfo` (proc(5)): mount point is field 5 (octal escapes), per-mount options field 6. */
export function parseMountInfo(stdout: string): MountEntry[] | null {
  const mounts: MountEntry[] = [];
  for (const line of stdout.split("\n")) {
    if (line.trim() === "") continue;
    const fields = line.split(" ");
    const point = fields[4];
    const options = fields[5];
    if (point === undefined || options === undefined || !point.startsWith("/")) return null;
    mounts.push({ point: unescapeOctal(point), writable: options.split(",").includes("rw") });
  }
  return mounts.length > 0 ? mounts : null;
}

function unescapeOctal(text: string): string {
  return text.replace(/\\([0-7]{3})/g, (_, code: string) => String.fromCharCode(Number.parseInt(code, 8)));
}

function under(path: string, point: string): boolean {
  return point === "/" || path === point || path.startsWith(`${point}/`);
}

/** The mount holding `path` (absolute, resolved): the longest mount point above it, the last mounted there. */
export function mountOf(mounts: readonly MountEntry[], path: string): MountEntry | null {
  let best: MountEntry | null = null;
  for (const mount of mounts) {
    if (!under(path, mount.point)) continue;
    if (best === null || mount.point.length >= best.point.length) best = mount;
  }
  return best;
}

/**
 * What the probes' view hides from them: `jailed` false (the probes ran unjailed) means the view is
 * the command's own. Else a mount writable in the jail is the jail's own.
 */
export interface ProbeView {
  jailed: boolean;
  mounts: readonly MountEntry[];
}

/** The mount point of the jail's own mount that holds `path`, or null when the probe sees the real one. */
export function privateMountAt(view: ProbeView, path: string): string | null {
  if (!view.jailed) return null;
  const mount = mountOf(view.mounts, path);
  return mount?.writable ? mount.point : null;
}

/** The jail's own mounts at or below `root` (an `rm -r` there reaches into them). */
export function privateMountsUnder(view: ProbeView, root: string): string[] {
  if (!view.jailed) return [];
  const visible = new Map<string, MountEntry>();
  for (const mount of view.mounts) visible.set(mount.point, mount);
  return [...visible.values()]
    .filter((mount) => mount.writable && mount.point !== root && under(mount.point, root))
    .map((mount) => mount.point);
}

/** Paths the machine itself serves (not files an edit or rm is previewed on). */
export function isKernelPath(path: string): boolean {
  return /^\/(proc|sys|dev)(\/|$)/.test(path) && !/^\/dev\/shm(\/|$)/.test(path);
}
