import type { Config } from "../app/config.ts";
import type { RoomAccessConfig } from "./core/access.ts";

/**
 * Who may do what, from config: the global operators and admins (everywhere), the Matrix power
 * level and Slack user group as global defaults, and `chat.rooms` for each room's own people.
 */
export function roomAccessConfig(chat: Config["chat"]): RoomAccessConfig {
  return {
    operators: chat.operators,
    admins: chat.admins,
    mention: chat.mention,
    rooms: chat.rooms,
    ...(chat.matrix.minPowerLevel !== undefined ? { minPowerLevel: chat.matrix.minPowerLevel } : {}),
    ...(chat.slack.operatorGroup !== undefined ? { operatorGroup: chat.slack.operatorGroup } : {}),
  };
}
