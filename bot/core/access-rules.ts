// Who may act in a room and who its cards mention, as configured (chat.operators, chat.rooms, chat.mention).

/**
 * Who a card that waits for a decision calls, per room: `approvers` (everyone listed who may
 * approve there, and the room's Slack operator group), a named on-call list, or `none`.
 */
export type MentionRule = "approvers" | "none" | readonly string[];

/** Who may do what in one room, or (as the global part of {@link RoomAccessConfig}) everywhere. */
export interface AccessRules {
  /** User ids allowed to talk to the agent and approve. */
  operators?: readonly string[];
  /** User ids allowed to run admin commands; admins are operators too. */
  admins?: readonly string[];
  /** Matrix: members at or above this power level are operators in the room. */
  minPowerLevel?: number;
  /** Slack: members of this user group (S…) are operators. */
  operatorGroup?: string;
  /** Who cards that wait for a decision mention here (default: the global rule, else `approvers`). */
  mention?: MentionRule;
}

export interface RoomAccessConfig extends AccessRules {
  /** Fleet-wide people: operators (and admins) in every room, listed in `rooms` or not. */
  operators: readonly string[];
  admins: readonly string[];
  /**
   * Per room (Matrix room id or Slack channel id): its own operators and admins on top of the
   * global ones; its power level or user group replaces the global one in that room only.
   */
  rooms?: Readonly<Record<string, AccessRules>>;
}
