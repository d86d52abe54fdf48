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

/**
 * Values that name a file the program opens: a time zone or locale may be a path (`TZ=:/dev/watchdog`,
 * `TZ=/tmp/fifo`, `LC_ALL=/tmp/x`), and glibc opens it. Only names are proven: a zone under
 * /usr/share/zoneinfo or a POSIX rule (`TZ=Europe/Berlin`, `TZ=CET-1CEST,M3.5.0,M10.5.0/3`), a
 * locale name (`C.UTF-8`), a terminal type; no leading `/`, no `..`, fixed text.
 */
const NAMED_VALUES: Readonly<Record<string, RegExp>> = {
  TZ: /^:?(?!\/)(?!.*\.\.)[A-Za-z0-9_+\-,.<>/]*$/,
  TERM: /^[A-Za-z0-9_.+-]*$/,
};
const LOCALE_VALUE = /^[A-Za-z0-9_.@:-]*$/;

function valueVerdict(name: string, value: string | null): string | null {
  const shape = NAMED_VALUES[name] ?? (/^(LANG|LANGUAGE|LC_)/.test(name) ? LOCALE_VALUE : null);
  if (!shape) return null;
  if (value === null)
    return `\`${name}\` set at run time could name any file the program then opens; write the value out`;
  return shape.test(value)
    ? null
    : `\`${name}=${value}\` names a file the program would open (a device or a FIFO blocks or acts); use a zone, locale or terminal name`;
}

export function checkEnvironmentAssignment(name: string, staticValue: string | null): string | null {
  if (ALLOWED.has(name)) return valueVerdict(name, staticValue);
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
