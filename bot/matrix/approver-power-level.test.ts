import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { getApproval } from "../../store/approvals.ts";
import {
  type ChatHarness,
  queuedJobs,
  requestExecutionApproval,
} from "../../test-support/bot/chat-harness.ts";
import { eventually } from "../../test-support/bot/eventually.ts";
import { type MatrixRoom, startMatrixRoom } from "../../test-support/bot/matrix-room.ts";
import type { MatrixDouble } from "../../test-support/matrix-double/matrix-double.ts";
import { membersAtLeast } from "./power-level-members.ts";
import type { RoomEvent } from "./sync-schema.ts";

const BOT = "@oikos:double.test";
const ALICE = "@alice:double.test";
const BOB = "@bob:double.test";
const CAROL = "@carol:double.test";
const DAVE = "@dave:double.test";

// Room state as the Client-Server spec shapes it (m.room.create, m.room.member, m.room.power_levels
// content: `users`, `users_default`), not as our adapter happens to read it.
const state = (events: { type: string; state_key: string; sender?: string; content: object }[]) =>
  events.map(
    (e, i): RoomEvent => ({
      event_id: `$${i}`,
      sender: e.sender ?? ALICE,
      type: e.type,
      state_key: e.state_key,
      content: e.content as Record<string, unknown>,
    }),
  );
const join = (user: string) => ({ type: "m.room.member", state_key: user, content: { membership: "join" } });

describe("approvers by Matrix power level: who counts", () => {
  test("joined members at the level or above, from users, else users_default; never the bot, never who left", () => {
    const room = state([
      { type: "m.room.create", state_key: "", content: { room_version: "11" } },
      {
        type: "m.room.power_levels",
        state_key: "",
        content: { users: { [ALICE]: 100, [CAROL]: 50, [DAVE]: 50, [BOT]: 100 }, users_default: 0 },
      },
      join(ALICE),
      join(BOB),
      join(CAROL),
      join(BOT),
      { type: "m.room.member", state_key: DAVE, content: { membership: "leave" } },
    ]);
    assert.deepEqual(membersAtLeast(room, 50, BOT), [ALICE, CAROL]);
    assert.deepEqual(membersAtLeast(room, 0, BOT), [ALICE, BOB, CAROL]);
    assert.deepEqual(membersAtLeast(room, 101, BOT), []);
  });

  test("users_default counts for everyone not listed; no power-levels event: the creator alone has 100", () => {
    const generous = state([
      { type: "m.room.power_levels", state_key: "", content: { users: { [BOB]: 0 }, users_default: 50 } },
      join(BOB),
      join(CAROL),
    ]);
    assert.deepEqual(membersAtLeast(generous, 50, BOT), [CAROL]);
    const bare = state([
      { type: "m.room.create", state_key: "", sender: ALICE, content: {} },
      join(ALICE),
      join(BOB),
    ]);
    assert.deepEqual(membersAtLeast(bare, 50, BOT), [ALICE]);
  });
});

// approvals.rules `{ minPowerLevel: 50 }` on Matrix (issue #32): the adapter reads the room's power
// levels when someone decides; an operator below the level is refused with the group named, the card
// waits for one of the members at the level, and one of them completes the quorum.
describe("approvers by Matrix power level on Matrix", () => {
  let matrix: MatrixRoom;
  let double: MatrixDouble;
  let h: ChatHarness;
  let room = "";

  before(async () => {
    // DAVE has the level but is not in the room: he is not waited for.
    matrix = await startMatrixRoom({
      users: [ALICE, BOB, CAROL, DAVE],
      room: { powerLevels: { [CAROL]: 50, [DAVE]: 50 }, members: [BOB, CAROL] },
      access: { operators: [ALICE, BOB, CAROL], admins: [ALICE] },
      harness: {
        approvalRules: [{ approvals: 2, approverGroups: [{ kind: "matrix_power_level", atLeast: 50 }] }],
      },
    });
    ({ double, h, room } = matrix);
  });
  after(async () => {
    await matrix.close();
    assert.deepEqual(double.violations, [], "every event the bot sent passes the spec schemas");
  });

  const db = () => h.store.db;
  const bodies = () => matrix.bodies();

  test("an operator below the level is refused; the card waits for one of the members at it; a member completes it", async () => {
    const root = double.message(BOB, room, "grow the nfs export");
    const session = await eventually("session", () =>
      db().selectFrom("sessions").selectAll().where("thread", "=", root).executeTakeFirst(),
    );
    const { approvalId, executionId } = await requestExecutionApproval(h, session.id, {
      target: "host:nas",
      command: "zfs set quota=2T tank/share",
      risk: "config_mutation",
      purpose: "more room",
    });
    const card = await eventually("card", async () => {
      const row = await db()
        .selectFrom("chat_cards")
        .select("message_id")
        .where("subject_id", "=", approvalId)
        .executeTakeFirst();
      return row?.message_id;
    });
    double.react(BOB, room, card, "✅");
    await eventually(
      "bob refused, the group named",
      () =>
        bodies().some((b) =>
          b.includes(
            `You may not approve ${approvalId}: approvals.rules leaves it to ${ALICE}, ${CAROL} (members of: power level ≥ 50 in this room); ask one of them.`,
          ),
        ) || undefined,
    );
    double.react(ALICE, room, card, "✅");
    await eventually(
      "waiting line names the member left and the group",
      () =>
        bodies().some((b) =>
          b.includes(`1 of 2 approvals — waiting for one of ${CAROL} (power level ≥ 50 in this room)`),
        ) || undefined,
    );
    assert.equal((await getApproval(db(), approvalId))?.status, "pending");
    assert.ok(!(await queuedJobs(h, "execute")).length, "nothing queued");
    double.react(CAROL, room, card, "✅");
    await eventually(
      "queued",
      async () =>
        (await queuedJobs(h, "execute")).some(
          (j) => (j as { executionId: string }).executionId === executionId,
        ) || undefined,
    );
    assert.equal((await getApproval(db(), approvalId))?.status, "approved");
  });
});
