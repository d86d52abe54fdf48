import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { silentLogger } from "../../base/logger.ts";
import { type ChatHarness, createChatHarness } from "../../test-support/bot/chat-harness.ts";
import { eventually } from "../../test-support/bot/eventually.ts";
import { startMatrixBot } from "../../test-support/bot/matrix-bot.ts";
import { MatrixDouble } from "../../test-support/matrix-double/matrix-double.ts";
import { KvStorageProvider } from "./kv-storage-provider.ts";
import type { MatrixAdapter } from "./matrix-adapter.ts";
import { SdkMatrixApi } from "./matrix-api.ts";
import { RoomJoins } from "./room-joins.ts";

const BOT = "@oikos:double.test";
const ALICE = "@alice:double.test";
const MALLORY = "@mallory:double.test";

// A homeserver sends a room's recent history with the bot's join (Synapse does; so does the
// double). Those messages were written before oikos was there: context, never a request. What
// is written after the join is a request, also when oikos was down at the time.
describe("matrix: messages from before the bot joined are history, not requests", () => {
  let double: MatrixDouble;
  let h: ChatHarness;
  let adapter: MatrixAdapter;
  let botToken = "";
  let home = "";
  let late = "";
  let lateNote = "";
  let rooms: string[] = [];

  const start = async () => {
    adapter = await startMatrixBot(h, double, { accessToken: botToken, rooms, allowedInviters: [ALICE] });
  };
  const sessionFor = (thread: string) =>
    h.store.db.selectFrom("sessions").select("id").where("thread", "=", thread).executeTakeFirst();
  const recorded = (eventId: string) =>
    h.store.db
      .selectFrom("chat_events")
      .select("event_id")
      .where("event_id", "=", eventId)
      .executeTakeFirst();
  const botPostsIn = (room: string) => double.sentBy(BOT).filter((e) => e.room_id === room);

  before(async () => {
    double = await MatrixDouble.start();
    botToken = double.registerUser(BOT);
    double.registerUser(ALICE);
    double.registerUser(MALLORY);
    home = double.createRoom({ creator: ALICE, members: [MALLORY] });
    late = double.createRoom({ creator: ALICE, members: [MALLORY] });
    rooms = [home, late];
    double.invite(home, ALICE, BOT);
    h = await createChatHarness({ operators: [ALICE], admins: [ALICE] });
    await start();
  });
  after(async () => {
    await adapter.stop();
    await h.close();
    await double.close();
    assert.deepEqual(double.violations, []);
  });

  test("the backlog that comes with a join mid-run starts nothing; the first message after it does", async () => {
    // The bot runs (its room synced, its token stored) and is not yet in `late`.
    const warmup = double.message(ALICE, home, "!oikos approvals");
    await eventually("the running bot handles its room", () => recorded(warmup));
    const asked = double.message(ALICE, late, "restart nginx on the proxy");
    lateNote = double.message(ALICE, late, "!oikos approvals");
    const stranger = double.message(MALLORY, late, "delete the backups");
    double.invite(late, ALICE, BOT);
    await eventually("joined", () => double.state.room(late).members.get(BOT) === "join");
    const after = double.message(ALICE, late, "check disk space on the nas");
    await eventually("the message after the join starts a session", () => sessionFor(after));
    for (const old of [asked, lateNote, stranger]) {
      assert.equal(await sessionFor(old), undefined, "a message from before the join starts no task");
      assert.equal(await recorded(old), undefined, "nor is it handled as a chat event");
    }
    const answered = botPostsIn(late).map((e) => String(e.content.body));
    assert.ok(
      !answered.some((b) => /only take instructions|approval/i.test(b)),
      `no refusal, no command answer for old messages: ${answered.join(" | ")}`,
    );
  });

  test("after a restart: messages sent while oikos was down (after the join) are handled once, the old backlog still not", async () => {
    await adapter.stop();
    const whileDown = double.message(ALICE, late, "and rotate the logs on the nas");
    await start();
    await eventually("the message sent while down starts a session", () => sessionFor(whileDown));
    assert.equal(await recorded(lateNote), undefined);
  });

  test("a room the bot joins at start (added to its rooms while it was down) brings only history", async () => {
    await adapter.stop();
    const added = double.createRoom({ creator: ALICE });
    const old = double.message(ALICE, added, "reboot the router");
    double.invite(added, ALICE, BOT);
    rooms = [home, late, added];
    await start();
    const fresh = double.message(ALICE, added, "what is the uptime of the router?");
    await eventually("the new message starts a session", () => sessionFor(fresh));
    assert.equal(await sessionFor(old), undefined);
  });

  test("a rejoin moves the line: what was said while the bot was out is history", async () => {
    await adapter.stop();
    double.state.setMembership(late, BOT, BOT, "leave");
    const whileOut = double.message(ALICE, late, "upgrade the kernel on the proxy");
    double.invite(late, ALICE, BOT);
    await start();
    await eventually("rejoined", () => double.state.room(late).members.get(BOT) === "join");
    const back = double.message(ALICE, late, "how full is /var on the proxy?");
    await eventually("the message after the rejoin starts a session", () => sessionFor(back));
    assert.equal(await sessionFor(whileOut), undefined);
  });

  test("a deployment from before joins were recorded reads the join time from the room's state", async () => {
    const storage = new KvStorageProvider(h.store.db, "probe");
    const api = new SdkMatrixApi({
      homeserverUrl: double.url,
      accessToken: botToken,
      storage,
      logger: silentLogger(),
    });
    const joins = new RoomJoins({ storage, api, logger: silentLogger() });
    const member = double.state.room(late).state.get(`m.room.member\u0000${BOT}`)!;
    assert.equal(await joins.joinedAt(late, BOT), member.origin_server_ts);
    assert.equal(
      await storage.readValue(`joined_at:${late}`),
      String(member.origin_server_ts),
      "and stores it",
    );
  });
});
