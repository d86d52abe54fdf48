import type { PreviewKind } from "./types.ts";

/**
 * A later command of a line acts on the target as the earlier ones leave it (issue #37): every part
 * is previewed against the target as it is now, so a part is only shown when nothing earlier in the
 * line changes what it acts on. Pure: decided from what each shown part touches, resolved (paths,
 * device:inode), and from which earlier commands changed the target in ways oikos cannot show.
 */

export interface OrderedPart {
  statement: number;
  command: string;
  kind: PreviewKind;
  /** Resolved paths it writes or removes and reads, and the inodes it writes; none: no file effect known. */
  touches: { writes: readonly string[]; reads: readonly string[]; inodes: readonly string[] } | null;
}

export interface OrderedNotice {
  statement: number;
  command: string;
}

/** Unit files: a service's state is read from them, so a service part after a write there depends on it. */
const UNIT_DIRS = ["/etc/systemd", "/run/systemd", "/lib/systemd", "/usr/lib/systemd", "/etc/init.d"];

function related(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}

/**
 * For each part (same order as given): null when it can be shown, else why it is not previewed.
 * `notices` are the statements that change the target but are not previewed (their effect unknown).
 */
export function dependentParts(
  parts: readonly OrderedPart[],
  notices: readonly OrderedNotice[],
): (string | null)[] {
  const out: (string | null)[] = [];
  const written: {
    paths: readonly string[];
    inodes: readonly string[];
    command: string;
    statement: number;
  }[] = [];
  // Earlier parts not shown are unknown effects too: what they change was read before what precedes them.
  const unknowns: OrderedNotice[] = [...notices];
  for (const [index, part] of parts.entries()) {
    const unknown = unknowns.find((n) => n.statement < part.statement);
    if (unknown) {
      out.push(
        `it runs after \`${oneLine(unknown.command)}\`, which changes the target first in ways oikos does not preview, so what it acts on may differ from what oikos sees now`,
      );
      continue;
    }
    const touches = part.touches;
    let why: string | null = null;
    for (const earlier of written) {
      if (touches === null) {
        const unitFile = earlier.paths.find((path) => UNIT_DIRS.some((dir) => related(path, dir)));
        if (part.kind !== "service" || unitFile) {
          why = `it runs after \`${oneLine(earlier.command)}\`, which changes ${unitFile ? `\`${unitFile}\`` : "files"} first, and what it acts on may read them`;
        }
      } else {
        const path = [...touches.writes, ...touches.reads].find((p) =>
          earlier.paths.some((e) => related(p, e)),
        );
        const inode = touches.inodes.find((n) => earlier.inodes.includes(n));
        if (path !== undefined || inode !== undefined) {
          const what = path ?? `the file ${inode}`;
          if (earlier.statement === part.statement) {
            // One command acting twice on one file (two names of it): none of its parts is shown.
            why = `it changes \`${what}\` more than once (under two names), so each change would be shown against the file as it is now`;
            parts.forEach((other, j) => {
              if (j < index && other.statement === part.statement) {
                out[j] = why;
                unknowns.push(other);
              }
            });
          } else
            why = `it acts on \`${what}\`, which \`${oneLine(earlier.command)}\` earlier in the line changes first`;
        }
      }
      if (why) break;
    }
    out.push(why);
    if (why !== null || touches === null) unknowns.push(part);
    else
      written.push({
        paths: touches.writes,
        inodes: touches.inodes,
        command: part.command,
        statement: part.statement,
      });
  }
  return out;
}

function oneLine(command: string): string {
  const line = command.replace(/\s+/g, " ").trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
