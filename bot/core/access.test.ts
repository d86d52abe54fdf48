import assert from "node:assert/strict";
import { test } from "node:test";
import { RoomAccess, type RoomAccessConfig } from "./access.ts";
import type { ChatAdapter } from "./chat-adapter.ts";

const ROOM_A = "!a:example.org";
const ROOM_B = "!b:example.org";

// The platform side of the port only: who holds which power level in which room, and who is in
// which user group. Posting is never reached by an access decision.
function platform(input: {
  powerLevels?: Record<string, Record<string, number>>;
  groups?: Record<string, string[]>;
}): ChatAdapter {
  const unused = async (): Promise<never> => {
    throw new Error("access decisions never post");
  };
  return {
    platform: "test",
    selfId: "@oikos:example.org",
    start: unused,
    stop: unused,
    post: unused,
    edit: unused,
    react: unused,
    ...(input.powerLevels
      ? { powerLevel: async (room: string, user: string) => input.powerLevels?.[room]?.[user] }
      : {}),
    ...(input.groups
      ? {
          isInUserGroup: async (user: string, group: string) =>
            input.groups?.[group]?.includes(user) ?? false,
        }
      : {}),
  };
}

const config: RoomAccessConfig = {
  operators: ["@fleet-op:example.org"],
  admins: ["@fleet-admin:example.org"],
  rooms: {
    [ROOM_A]: { operators: ["@erin:example.org"], admins: ["@dave:example.org"] },
  },
};

test("a room's own operators and admins count in that room only; the global ones count everywhere", async () => {
  const access = new RoomAccess(config);
  const adapter = platform({});
  const level = (room: string, user: string) => access.level(adapter, room, `@${user}:example.org`);
  assert.equal(await level(ROOM_A, "erin"), "operator");
  assert.equal(await level(ROOM_B, "erin"), "none");
  assert.equal(await level(ROOM_A, "dave"), "admin");
  assert.equal(await level(ROOM_B, "dave"), "none");
  for (const room of [ROOM_A, ROOM_B, "!unlisted:example.org"]) {
    assert.equal(await level(room, "fleet-op"), "operator");
    assert.equal(await level(room, "fleet-admin"), "admin");
  }
});

test("the bot itself has no access even when listed", async () => {
  const access = new RoomAccess({ ...config, rooms: { [ROOM_A]: { admins: ["@oikos:example.org"] } } });
  assert.equal(await access.level(platform({}), ROOM_A, "@oikos:example.org"), "none");
});

test("a per-room minimum power level applies to its room; other rooms fall back to the global one", async () => {
  const powerLevels = {
    [ROOM_A]: { "@carol:example.org": 50, "@mod:example.org": 80 },
    [ROOM_B]: { "@carol:example.org": 50, "@mod:example.org": 80 },
  };
  const adapter = platform({ powerLevels });
  const withoutGlobal = new RoomAccess({
    operators: [],
    admins: [],
    rooms: { [ROOM_A]: { minPowerLevel: 50 } },
  });
  assert.equal(await withoutGlobal.level(adapter, ROOM_A, "@carol:example.org"), "operator");
  assert.equal(await withoutGlobal.level(adapter, ROOM_B, "@carol:example.org"), "none");

  const stricterRoom = new RoomAccess({
    operators: [],
    admins: [],
    minPowerLevel: 50,
    rooms: { [ROOM_A]: { minPowerLevel: 75 } },
  });
  assert.equal(await stricterRoom.level(adapter, ROOM_A, "@carol:example.org"), "none");
  assert.equal(await stricterRoom.level(adapter, ROOM_A, "@mod:example.org"), "operator");
  assert.equal(await stricterRoom.level(adapter, ROOM_B, "@carol:example.org"), "operator");
});

test("a per-room Slack user group replaces the global one in that channel only", async () => {
  const adapter = platform({ groups: { S0FLEET: ["U0FLEET"], S0DB: ["U0DBA"] } });
  const access = new RoomAccess({
    operators: [],
    admins: [],
    operatorGroup: "S0FLEET",
    rooms: { C0DB: { operatorGroup: "S0DB" } },
  });
  assert.equal(await access.level(adapter, "C0DB", "U0DBA"), "operator");
  assert.equal(await access.level(adapter, "C0DB", "U0FLEET"), "none");
  assert.equal(await access.level(adapter, "C0OPS", "U0FLEET"), "operator");
  assert.equal(await access.level(adapter, "C0OPS", "U0DBA"), "none");
});
