/**
 * Environment assignments a read-only command may carry (`LC_ALL=C sort`, `TZ=UTC date`): locale,
 * time zone, terminal size and colour, and the few client settings that only choose where to read.
 * Nothing that loads code, picks programs, pagers, editors, config files or search paths.
 */
const ALLOWED = new Set([
  "LANG",
  "LANGUAGE",
  "LC_ALL",
  "LC_CTYPE",
  "LC_COLLATE",
  "LC_MESSAGES",
  "LC_NUMERIC",
  "LC_TIME",
  "LC_MONETARY",
  "TZ",
  "TERM",
  "COLUMNS",
  "LINES",
  "NO_COLOR",
  "SYSTEMD_COLORS",
  "SYSTEMD_URLIFY",
  "PGHOST",
  "PGPORT",
  "PGUSER",
  "PGDATABASE",
  "PGCONNECT_TIMEOUT",
  "PGSSLMODE",
]);

/** Pager variables are proven only when they turn the pager off. */
const PAGERS = new Set(["PAGER", "SYSTEMD_PAGER", "GIT_PAGER", "MANPAGER"]);

export function checkEnvironmentAssignment(name: string, staticValue: string | null): string | null {
  if (ALLOWED.has(name)) return null;
  if (PAGERS.has(name) && (staticValue === "" || staticValue === "cat")) return null;
  return (
    `the environment variable \`${name}\` is not on the read-only list ` +
    "(locale, TZ, TERM, COLUMNS, NO_COLOR …): it may change what the program loads or runs"
  );
}

/**
 * Shell variables a read-only command may assign (`for h in …`, `read ds`): lower-case names,
 * which no shell or common program reads as configuration.
 */
export function checkScratchVariable(name: string): string | null {
  if (/^[a-z_][a-z0-9_]*$/.test(name) && name !== "auto_resume" && name !== "histchars") return null;
  return `assigning \`${name}\` may change how the shell or a program behaves; only lower-case scratch variables are proven`;
}
