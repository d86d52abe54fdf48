import type { Verdict } from "./context.ts";

/**
 * Which HTTP GETs run with nobody asked. A GET is not a read on a homelab: Shelly switches a relay
 * with `/relay/0?turn=off`, Tasmota runs `cm?cmnd=Power%20Off`, Pi-hole stops blocking with
 * `api.php?disable=300`, routers reboot from `/cgi-bin/reboot.cgi`. The rule, in order:
 *
 *  1. http or https only, the address written in the command (no curl globbing: `{a,b}`, `[1-9]`
 *     make many requests);
 *  2. no path segment and no query value holds an action word (`ACTION_STEMS` anywhere in a word:
 *     reboot, restart, shutdown, delete, disable …; `ACTION_WORDS` as a whole word, camelCase
 *     split: on, off, set, run, cmd, start, stop, reset …);
 *  3. a query string only with parameters that choose what to read (`QUERY_NAMES`: query, limit,
 *     format, since …) — `turn=`, `cmnd=`, `disable=`, `action=` are not among them.
 *
 * Anything else needs an approval, like a POST.
 */
export const ACTION_STEMS = [
  "reboot",
  "restart",
  "shutdown",
  "poweroff",
  "factory",
  "delete",
  "remove",
  "destroy",
  "disable",
  "enable",
  "toggle",
  "upgrade",
  "install",
  "trigger",
  "upload",
  "restore",
  "logout",
  "reload",
  "execute",
  "command",
  "cmnd",
];
export const ACTION_WORDS = new Set([
  "on",
  "off",
  "set",
  "run",
  "cmd",
  "cm",
  "do",
  "go",
  "start",
  "stop",
  "halt",
  "pause",
  "resume",
  "reset",
  "save",
  "apply",
  "turn",
  "power",
  "write",
  "send",
  "add",
  "new",
  "edit",
  "clear",
  "create",
  "commit",
  "action",
  "act",
  "open",
  "close",
  "play",
  "scan",
  "sync",
  "push",
  "fire",
  "test",
  "update",
  "format",
  "wipe",
  "purge",
  "flush",
  "kill",
  "exec",
  "import",
  "backup",
  "lock",
  "unlock",
  "block",
  "ban",
  "mute",
]);
export const QUERY_NAMES = new Set([
  "query",
  "q",
  "search",
  "filter",
  "format",
  "limit",
  "offset",
  "page",
  "per_page",
  "size",
  "start",
  "end",
  "step",
  "since",
  "until",
  "time",
  "from",
  "to",
  "fields",
  "sort",
  "order",
  "pretty",
  "verbose",
  "json",
  "summary",
]);

/** Why a GET of this URL could act on the device behind it, or null. */
export function getActs(url: string): Verdict {
  if (/[{}[\]]/.test(url)) return `\`${url}\`: curl expands braces and brackets into many requests`;
  const withoutScheme = url.replace(/^https?:\/\//i, "");
  const slash = withoutScheme.indexOf("/");
  const rest = slash < 0 ? "" : withoutScheme.slice(slash);
  const [pathPart = "", ...queryParts] = rest.replace(/#.*$/s, "").split("?");
  const path = decode(pathPart);
  const action = actionIn(path);
  if (action)
    return `\`${url}\`: the path names an action (\`${action}\`), and a GET there acts on the device`;
  const query = queryParts.join("?");
  if (query === "") return null;
  for (const pair of query.split(/[&;]/)) {
    if (pair === "") continue;
    const [name = "", ...value] = pair.split("=");
    const key = decode(name).toLowerCase();
    if (!QUERY_NAMES.has(key))
      return `\`${url}\`: the query parameter \`${key}\` may tell the device to act; only parameters that choose what to read (${[...QUERY_NAMES].slice(0, 6).join(", ")} …) run with nobody asked`;
    const valueAction = actionIn(decode(value.join("=")));
    if (valueAction) return `\`${url}\`: the query names an action (\`${valueAction}\`)`;
  }
  return null;
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

/** The first action word in text: a stem anywhere in a word, or a short word whole (`resetCounters` has `reset`). */
function actionIn(text: string): string | null {
  const lower = text.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  for (const stem of ACTION_STEMS) if (lower.includes(stem)) return stem;
  for (const word of lower.split(/[^a-z0-9]+/)) if (ACTION_WORDS.has(word)) return word;
  return null;
}
