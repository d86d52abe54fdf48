import type { JailGrant } from "../jail-grant.ts";
import { fileReadOutside } from "./outside-jail.ts";
import { type Piece, SHELL_READ } from "./piece.ts";
import { INSIDE_WHEN_SHARED } from "./tools/grant-helpers.ts";

/**
 * Text filters that cannot use a granted resource: they read their input and the files they name
 * (opening a socket path fails with ENXIO) and write their output; none connects, execs or starts
 * a program in the spellings their specs prove. `awk` (gawk's /inet/…), `sed` (`e`), `rg` (`--pre`)
 * and `sort` helpers are left out on purpose. Builtins here run in the shell itself.
 */
export const PURE_FILTERS: ReadonlySet<string> = new Set([
  "grep",
  "egrep",
  "fgrep",
  "head",
  "tail",
  "sort",
  "wc",
  "cut",
  "tr",
  "uniq",
  "column",
  "jq",
  "cat",
  "tac",
  "nl",
  "rev",
  "fold",
  "paste",
  "expand",
  "unexpand",
  "echo",
  "printf",
  "true",
  "false",
  ":",
  "test",
  "[",
  "cd",
  "pwd",
  "openssl x509",
]);

function isFilter(piece: Piece): boolean {
  return PURE_FILTERS.has(piece.name) || PURE_FILTERS.has(`${piece.name} ${piece.first}`);
}

/** Shells proven only for the text they run (`bash -c '…'`): each command of it is a piece of its own. */
const SHELLS: ReadonlySet<string> = new Set(["bash", "sh", "dash"]);

/** Grants a piece cannot borrow from another: a network, a service's socket, a run outside the jail. */
function powerKey(grant: JailGrant): string | null {
  switch (grant.resource) {
    case "network":
      return "network";
    case "socket":
      return `socket:${grant.service}`;
    case "unjailed":
      return `unjailed:${grant.needs}`;
    default:
      return null;
  }
}

function powerOf(grants: readonly JailGrant[]): string[] {
  return [...new Set(grants.map(powerKey).filter((key): key is string => key !== null))].sort();
}

/**
 * Grants are per tool, not per command: the jail opens a resource to every process of the run, so
 * a piece that did not need it would borrow it (`docker ps; psql -h /run/…/pg`, `curl …; git remote
 * show origin`). A command whose pieces need a network, socket or unjailed grant is proven only if
 * every other piece is a pure text filter (PURE_FILTERS) or needs exactly the same of those grants
 * (`dig a; dig b`, `docker ps; docker images`). Otherwise: run the pieces separately.
 */
export function borrowedGrant(pieces: readonly Piece[]): string | null {
  const union = powerOf(pieces.flatMap((piece) => piece.grants));
  if (union.length === 0) return null;
  const key = union.join(",");
  const needing = pieces.find((piece) => powerOf(piece.grants).length > 0);
  for (const piece of pieces) {
    if (piece.name === SHELL_READ) continue; // judged beside a run outside the jail: outside-jail.ts
    const own = powerOf(piece.grants);
    if (own.join(",") === key) continue;
    if (own.length === 0 && SHELLS.has(piece.name)) continue;
    if (own.length === 0 && isFilter(piece)) {
      const outside = union.some((k) => k.startsWith("unjailed:"));
      const reads = outside ? fileReadOutside(piece) : null;
      if (!reads) continue;
      return `\`${piece.name}\` would ${reads} outside the jail beside \`${needing?.name ?? "another piece"}\` (a run outside the jail is the whole command's); let it filter only what \`${needing?.name ?? "that piece"}\` prints, or run it as a separate command`;
    }
    const what = union.map((k) => (k.startsWith("unjailed:") ? `a run outside the jail (${k.slice(9)})` : k));
    return `\`${piece.name}\` would run with ${what.join(" and ")} that ${
      own.length > 0 ? "another piece" : `\`${needing?.name ?? "another piece"}\``
    } needs (the jail opens a grant to the whole command); run \`${needing?.name ?? "that piece"}\` on its own, or with only text filters (grep, head, jq …) after it, and the rest as a separate command`;
  }
  return null;
}

/**
 * The pieces as the command runs them: as proven, unless another piece would borrow a run outside
 * the jail (borrowedGrant) — then every piece whose spec only prefers that run goes back inside the
 * jail with the grants INSIDE_WHEN_SHARED names, and borrowedGrant judges the result. `df -h | grep
 * sda` and `df -h; findmnt` run outside; `uptime; df -h` runs jailed (df then prints the jail's mount
 * table, and the result says so); `dmesg; df -h` still asks, as dmesg cannot read inside the jail.
 */
export function runTogether(pieces: readonly Piece[]): readonly Piece[] {
  if (borrowedGrant(pieces) === null) return pieces;
  return pieces.map((piece) => ({
    ...piece,
    grants: piece.grants.flatMap((grant) =>
      grant.resource === "unjailed" ? [...(INSIDE_WHEN_SHARED.get(grant.spec) ?? [grant])] : [grant],
    ),
  }));
}
