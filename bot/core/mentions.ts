import type { RoomAccessConfig } from "./access-rules.ts";
import type { CardMentions } from "./card.ts";

export type { MentionRule } from "./access-rules.ts";

const MATRIX_USER = /^@[^\s:]+:\S+$/;
const SLACK_USER = /^[UW][A-Z0-9]{2,}$/;
const SLACK_GROUP = /^S[A-Z0-9]{2,}$/;

/** Whose id this is on `platform`: config lists mix Matrix, Slack and terminal names. */
export function mentionOn(platform: string, raw: string): { user: string } | { group: string } | null {
  const id = raw
    .trim()
    .replace(/^<[@!](subteam\^)?/, "")
    .replace(/(\|[^>]*)?>$/, "");
  if (platform === "matrix") return MATRIX_USER.test(id) ? { user: id } : null;
  if (platform === "slack") {
    if (SLACK_USER.test(id)) return { user: id };
    return SLACK_GROUP.test(id) ? { group: id } : null;
  }
  return MATRIX_USER.test(id) || SLACK_USER.test(id) || SLACK_GROUP.test(id) || id === ""
    ? null
    : { user: id };
}

/** The ids among `raw` that belong to `platform`, users and groups apart, without `self`. */
export function mentionsOf(platform: string, raw: readonly string[], self?: string): CardMentions {
  const users = new Set<string>();
  const groups = new Set<string>();
  for (const item of raw) {
    const m = mentionOn(platform, item);
    if (!m) continue;
    if ("user" in m && m.user !== self) users.add(m.user);
    if ("group" in m) groups.add(m.group);
  }
  return { users: [...users], groups: [...groups] };
}

/** What the room's rule resolves to on `platform` (undefined: mention nobody). */
export function roomMentions(
  config: RoomAccessConfig,
  platform: string,
  room: string,
  self?: string,
): CardMentions | undefined {
  const local = config.rooms?.[room];
  const rule = local?.mention ?? config.mention ?? "approvers";
  if (rule === "none") return undefined;
  const raw =
    rule === "approvers"
      ? [
          ...config.admins,
          ...config.operators,
          ...(local?.admins ?? []),
          ...(local?.operators ?? []),
          ...[local?.operatorGroup ?? config.operatorGroup].filter((g): g is string => g !== undefined),
        ]
      : rule;
  const mentions = mentionsOf(platform, raw, self);
  return mentions.users.length + mentions.groups.length > 0 ? mentions : undefined;
}
