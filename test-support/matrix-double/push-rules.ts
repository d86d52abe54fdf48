// The Matrix spec's server-default push rules (Client-Server API, "Push Notifications" → "Predefined
// Rules", v1.9+ — matrix-org/matrix-spec content/client-server-api/modules/push.md) and the
// evaluation the spec defines, so a test can ask what a homeserver with default settings does with
// an event oikos sends: does it notify this user? Transcribed from the spec, not from our code.

type Action = "notify" | { set_tweak: string; value?: unknown };

export type PushCondition =
  | { kind: "event_match"; key: string; pattern: string }
  | { kind: "event_property_is"; key: string; value: string | number | boolean | null }
  | { kind: "event_property_contains"; key: string; value: string | number | boolean | null }
  | { kind: "contains_display_name" }
  | { kind: "room_member_count"; is: string }
  | { kind: "sender_notification_permission"; key: string };

export interface PushRule {
  rule_id: string;
  default: boolean;
  enabled: boolean;
  /** override / underride rules. */
  conditions?: PushCondition[];
  /** content rules: a glob matched at word boundaries of content.body. */
  pattern?: string;
  actions: Action[];
}

/** The kinds in the order the spec checks them; room and sender rules have no defaults. */
export interface PushRuleset {
  override: PushRule[];
  content: PushRule[];
  room: PushRule[];
  sender: PushRule[];
  underride: PushRule[];
}

const SOUND = { set_tweak: "sound", value: "default" } as const;
const HIGHLIGHT = { set_tweak: "highlight" } as const;

/** The server-default rules for `userId`, in the spec's order within each kind. */
export function defaultPushRules(userId: string): PushRuleset {
  const localpart = userId.slice(1, userId.indexOf(":"));
  const rule = (
    rule_id: string,
    conditions: PushCondition[],
    actions: Action[],
    enabled = true,
  ): PushRule => ({
    rule_id,
    default: true,
    enabled,
    conditions,
    actions,
  });
  return {
    override: [
      rule(".m.rule.master", [], [], false),
      rule(
        ".m.rule.suppress_notices",
        [{ kind: "event_match", key: "content.msgtype", pattern: "m.notice" }],
        [],
      ),
      rule(
        ".m.rule.invite_for_me",
        [
          { kind: "event_match", key: "type", pattern: "m.room.member" },
          { kind: "event_match", key: "content.membership", pattern: "invite" },
          { kind: "event_match", key: "state_key", pattern: userId },
        ],
        ["notify", SOUND],
      ),
      rule(".m.rule.member_event", [{ kind: "event_match", key: "type", pattern: "m.room.member" }], []),
      rule(
        ".m.rule.is_user_mention",
        [{ kind: "event_property_contains", key: "content.m\\.mentions.user_ids", value: userId }],
        ["notify", SOUND, HIGHLIGHT],
      ),
      rule(
        ".m.rule.contains_display_name",
        [{ kind: "contains_display_name" }],
        ["notify", SOUND, HIGHLIGHT],
      ),
      rule(
        ".m.rule.is_room_mention",
        [
          { kind: "event_property_is", key: "content.m\\.mentions.room", value: true },
          { kind: "sender_notification_permission", key: "room" },
        ],
        ["notify", HIGHLIGHT],
      ),
      rule(
        ".m.rule.roomnotif",
        [
          { kind: "event_match", key: "content.body", pattern: "@room" },
          { kind: "sender_notification_permission", key: "room" },
        ],
        ["notify", HIGHLIGHT],
      ),
      rule(
        ".m.rule.tombstone",
        [
          { kind: "event_match", key: "type", pattern: "m.room.tombstone" },
          { kind: "event_match", key: "state_key", pattern: "" },
        ],
        ["notify", HIGHLIGHT],
      ),
      rule(".m.rule.reaction", [{ kind: "event_match", key: "type", pattern: "m.reaction" }], []),
      rule(
        ".m.rule.room.server_acl",
        [
          { kind: "event_match", key: "type", pattern: "m.room.server_acl" },
          { kind: "event_match", key: "state_key", pattern: "" },
        ],
        [],
      ),
      rule(
        ".m.rule.suppress_edits",
        [{ kind: "event_property_is", key: "content.m\\.relates_to.rel_type", value: "m.replace" }],
        [],
      ),
    ],
    content: [
      {
        rule_id: ".m.rule.contains_user_name",
        default: true,
        enabled: true,
        pattern: localpart,
        actions: ["notify", SOUND, HIGHLIGHT],
      },
    ],
    room: [],
    sender: [],
    underride: [
      rule(
        ".m.rule.call",
        [{ kind: "event_match", key: "type", pattern: "m.call.invite" }],
        ["notify", { set_tweak: "sound", value: "ring" }],
      ),
      rule(
        ".m.rule.encrypted_room_one_to_one",
        [
          { kind: "room_member_count", is: "2" },
          { kind: "event_match", key: "type", pattern: "m.room.encrypted" },
        ],
        ["notify", SOUND],
      ),
      rule(
        ".m.rule.room_one_to_one",
        [
          { kind: "room_member_count", is: "2" },
          { kind: "event_match", key: "type", pattern: "m.room.message" },
        ],
        ["notify", SOUND],
      ),
      rule(".m.rule.message", [{ kind: "event_match", key: "type", pattern: "m.room.message" }], ["notify"]),
      rule(
        ".m.rule.encrypted",
        [{ kind: "event_match", key: "type", pattern: "m.room.encrypted" }],
        ["notify"],
      ),
    ],
  };
}

/** What the evaluator needs to know of the room and of the user the event would notify. */
export interface PushContext {
  userId: string;
  /** The user's display name in the room (contains_display_name). */
  displayName: string;
  memberCount: number;
  /** The room's m.room.power_levels content (sender_notification_permission). */
  powerLevels: {
    users?: Record<string, number>;
    users_default?: number;
    notifications?: Record<string, number>;
  };
}

export interface PushVerdict {
  /** The first enabled rule that matched, or null when none did (then the server must not notify). */
  rule: string | null;
  notify: boolean;
  highlight: boolean;
}

/** Rules the spec deprecates in v1.7: enabled only for an event without an `m.mentions` property. */
const LEGACY_MENTION_RULES = new Set([
  ".m.rule.contains_display_name",
  ".m.rule.roomnotif",
  ".m.rule.contains_user_name",
]);

/**
 * The spec's evaluation: the kinds in order (override, content, room, sender, underride), rules in
 * order within a kind; disabled rules never match; the first match decides its actions. An event
 * the user sent themselves never notifies them.
 */
export function evaluatePushRules(
  ruleset: PushRuleset,
  event: Record<string, unknown>,
  ctx: PushContext,
): PushVerdict {
  if (event.sender === ctx.userId) return { rule: null, notify: false, highlight: false };
  const hasMentions = propertyAt(event, "content.m\\.mentions") !== undefined;
  const kinds = [ruleset.override, ruleset.content, ruleset.room, ruleset.sender, ruleset.underride];
  for (const rules of kinds) {
    for (const rule of rules) {
      if (!rule.enabled) continue;
      if (hasMentions && LEGACY_MENTION_RULES.has(rule.rule_id)) continue;
      const matched =
        rule.pattern !== undefined
          ? bodyMatches(event, rule.pattern)
          : (rule.conditions ?? []).every((condition) => conditionHolds(condition, event, ctx));
      if (!matched) continue;
      const highlight = rule.actions.some(
        (a) => typeof a === "object" && a.set_tweak === "highlight" && a.value !== false,
      );
      return { rule: rule.rule_id, notify: rule.actions.includes("notify"), highlight };
    }
  }
  return { rule: null, notify: false, highlight: false };
}

function conditionHolds(condition: PushCondition, event: Record<string, unknown>, ctx: PushContext): boolean {
  switch (condition.kind) {
    case "event_match": {
      const value = propertyAt(event, condition.key);
      if (typeof value !== "string") return false;
      return condition.key === "content.body"
        ? atWordBoundaries(globBody(condition.pattern)).test(value)
        : new RegExp(`^${globBody(condition.pattern)}$`, "iu").test(value);
    }
    case "event_property_is": {
      const value = propertyAt(event, condition.key);
      return isScalar(value) && value === condition.value;
    }
    case "event_property_contains": {
      const value = propertyAt(event, condition.key);
      return Array.isArray(value) && value.some((item) => isScalar(item) && item === condition.value);
    }
    case "contains_display_name": {
      const body = propertyAt(event, "content.body");
      return (
        typeof body === "string" &&
        ctx.displayName !== "" &&
        atWordBoundaries(escaped(ctx.displayName)).test(body)
      );
    }
    case "room_member_count":
      return compareCount(ctx.memberCount, condition.is);
    case "sender_notification_permission": {
      const levels = ctx.powerLevels;
      const sender = String(event.sender ?? "");
      const senderLevel = levels.users?.[sender] ?? levels.users_default ?? 0;
      const needed = levels.notifications?.[condition.key] ?? 50;
      return senderLevel >= needed;
    }
  }
}

/** A content rule: its pattern against content.body at word boundaries. */
function bodyMatches(event: Record<string, unknown>, pattern: string): boolean {
  const body = propertyAt(event, "content.body");
  return typeof body === "string" && atWordBoundaries(globBody(pattern)).test(body);
}

/** Non-compound canonical JSON values: strings, integers, booleans and null. */
function isScalar(value: unknown): value is string | number | boolean | null {
  return (
    value === null ||
    typeof value === "string" ||
    typeof value === "boolean" ||
    (typeof value === "number" && Number.isInteger(value))
  );
}

/**
 * A dot-separated property path (spec appendix): `.` separates names, `\.` is a literal dot and
 * `\\` a literal backslash; any other escape is kept as written.
 */
export function propertyAt(event: Record<string, unknown>, path: string): unknown {
  const names: string[] = [];
  let name = "";
  for (let i = 0; i < path.length; i++) {
    const c = path[i];
    if (c === "\\" && (path[i + 1] === "." || path[i + 1] === "\\")) {
      name += path[i + 1];
      i++;
    } else if (c === ".") {
      names.push(name);
      name = "";
    } else name += c;
  }
  names.push(name);
  let at: unknown = event;
  for (const part of names) {
    if (at === null || typeof at !== "object" || Array.isArray(at) || !Object.hasOwn(at, part))
      return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}

/** Glob-style matching (spec appendix): `*` zero or more characters, `?` exactly one. */
function globBody(pattern: string): string {
  return [...pattern].map((c) => (c === "*" ? "[\\s\\S]*" : c === "?" ? "[\\s\\S]" : escaped(c))).join("");
}

function escaped(text: string): string {
  return text.replace(/[\\^$.|?*+()[\]{}]/g, "\\$&");
}

/**
 * content.body (and the display name): a match must start and end at a word boundary — the start
 * or end of the value, or a character outside [A-Za-z0-9_]. Case-insensitive, as the spec asks.
 */
function atWordBoundaries(body: string): RegExp {
  return new RegExp(`(?:^|(?<=[^A-Za-z0-9_]))${body}(?:$|(?=[^A-Za-z0-9_]))`, "iu");
}

function compareCount(count: number, is: string): boolean {
  const match = /^(==|<=|>=|<|>)?(\d+)$/.exec(is);
  if (!match) return false;
  const n = Number(match[2]);
  switch (match[1] ?? "==") {
    case "<":
      return count < n;
    case ">":
      return count > n;
    case "<=":
      return count <= n;
    case ">=":
      return count >= n;
    default:
      return count === n;
  }
}

/**
 * What a homeserver with the default rules does for `userId` with an event the double holds: the
 * room's members, power levels and the user's display name (their membership's `displayname`, else
 * the localpart, as servers default it) come from the double's room state.
 */
export function defaultPushVerdict(
  state: {
    rooms: ReadonlyMap<
      string,
      {
        members: ReadonlyMap<string, string>;
        state: ReadonlyMap<string, { content: Record<string, unknown> }>;
      }
    >;
  },
  event: {
    room_id: string;
    sender: string;
    type: string;
    content: Record<string, unknown>;
    state_key?: string;
  },
  userId: string,
): PushVerdict {
  const room = state.rooms.get(event.room_id);
  if (!room) throw new Error(`no room ${event.room_id}`);
  const membership = room.state.get(`m.room.member\u0000${userId}`)?.content;
  const displayName =
    typeof membership?.displayname === "string"
      ? membership.displayname
      : userId.slice(1, userId.indexOf(":"));
  const memberCount = [...room.members.values()].filter((m) => m === "join").length;
  const powerLevels = (room.state.get("m.room.power_levels\u0000")?.content ??
    {}) as PushContext["powerLevels"];
  return evaluatePushRules(
    defaultPushRules(userId),
    {
      type: event.type,
      sender: event.sender,
      content: event.content,
      ...(event.state_key !== undefined ? { state_key: event.state_key } : {}),
    },
    { userId, displayName, memberCount, powerLevels },
  );
}
