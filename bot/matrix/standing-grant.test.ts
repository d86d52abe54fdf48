import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { getApproval } from "../../store/approvals.ts";
import { getStandingGrant, grantMadeBy } from "../../store/standing-grants.ts";
import {
  type ChatHarness,
  createChatHarness,
  grantBasisFor,
  queuedJobs,
  requestExecutionApproval,
  runUnderGrant,
} from "../../test-support/bot/chat-harness.ts";
import { eventually } from "../../test-support/bot/eventually.ts";
import { startMatrixBot } from "../../test-support/bot/matrix-bot.ts";
import { MatrixDouble } from "../../test-support/matrix-double/matrix-double.ts";
import type { MatrixAdapter } from "./matrix-adapter.ts";

const BOT = "@oikos:double.test";
const ALICE = "@alice:double.test";
const BOB = "@bob:double.test";
const MALLORY = "@mallory:double.test";
const TARGET = "lxc:bridges";
const COMMAND = "systemctl restart whatsapp-bridge";

// Standing grants (♾️) on Matrix (issue #32): the card offers ♾️ only where a grant may be made; the
// reaction approves this run and records the grant; a run under it posts a card naming the grant;
// `!approvals` lists it and revokes it. Every event the bot sends passes the double's spec schemas.
describe("standing grants on Matrix", () => {
  let double: MatrixDouble;
  let h: ChatHarness;
  let adapter: MatrixAdapter;
  let room = "";

  before(async () => {
    double = await MatrixDouble.start();
    const botToken = double.registerUser(BOT);
    for (const user of [ALICE, BOB, MALLORY]) double.registerUser(user);
    room = double.createRoom({ creator: ALICE });
    double.invite(room, ALICE, BOT);
    h = await createChatHarness({ operators: [ALICE, BOB], admins: [ALICE] });
    adapter = await startMatrixBot(h, double, {
      accessToken: botToken,
      rooms: [room],
      allowedInviters: [ALICE],
    });
  });
  after(async () => {
    await adapter.stop();
    await h.close();
    await double.close();
    assert.deepEqual(double.violations, [], "every event the bot sent passes the spec schemas");
  });

  const db = () => h.store.db;
  const bodies = () => double.sentBy(BOT).map((e) => JSON.stringify(e.content));
  const newSession = async (text: string) => {
    const root = double.message(ALICE, room, text);
    const session = await eventually("session", () =>
      db().selectFrom("sessions").selectAll().where("thread", "=", root).executeTakeFirst(),
    );
    return { id: session.id, thread: root };
  };
  const cardEventOf = (approvalId: string) =>
    eventually("card", async () => {
      const row = await db()
        .selectFrom("chat_cards")
        .select("message_id")
        .where("subject_id", "=", approvalId)
        .executeTakeFirst();
      return row?.message_id;
    });
  const reactionsOnCard = (eventId: string) =>
    double
      .relations(eventId, "m.annotation")
      .filter((e) => e.sender === BOT)
      .map((e) => (e.content["m.relates_to"] as { key: string }).key);

  let grantId = "";
  test("♾️ on the card approves this run and grants the same command; the card says until when", async () => {
    const session = await newSession("restart the whatsapp bridge");
    const { approvalId, executionId } = await requestExecutionApproval(h, session.id, {
      target: TARGET,
      command: COMMAND,
      risk: "config_mutation",
      purpose: "the bridge hangs",
      grantBasis: grantBasisFor(TARGET, COMMAND),
    });
    const card = await cardEventOf(approvalId);
    await eventually("♾️ offered", () => reactionsOnCard(card).includes("♾️") || undefined);
    double.react(MALLORY, room, card, "♾️");
    double.react(ALICE, room, card, "♾️");
    const grant = await eventually("grant", () => grantMadeBy(db(), approvalId));
    grantId = grant.id;
    assert.equal(grant.granted_by, ALICE, "the stranger's ♾️ did not count");
    assert.equal((await getApproval(db(), approvalId))?.decided_by, ALICE);
    await eventually(
      "queued",
      async () =>
        (await queuedJobs(h, "execute")).some(
          (j) => (j as { executionId: string }).executionId === executionId,
        ) || undefined,
    );
    await eventually(
      "card names the grant",
      () => bodies().some((b) => b.includes(`standing grant ${grant.id} by ${ALICE}`)) || undefined,
    );
  });

  test("a run under the grant posts its own card: ran under ♾️ grant g-…, by @alice, until …", async () => {
    const session = await newSession("daily restart");
    const { approvalId } = await runUnderGrant(h, session.id, grantId, { target: TARGET, command: COMMAND });
    await cardEventOf(approvalId);
    await eventually(
      "grant card",
      () =>
        bodies().some((b) => b.includes(`ran under ♾️ grant ${grantId}, by ${ALICE}, until `)) || undefined,
    );
  });

  test("no ♾️ where no grant may be made; a ♾️ there approves nothing", async () => {
    const session = await newSession("free some space");
    const { approvalId, executionId } = await requestExecutionApproval(h, session.id, {
      target: TARGET,
      command: "bash ./cleanup.sh",
      risk: "config_mutation",
      purpose: "disk full",
    });
    const card = await cardEventOf(approvalId);
    await eventually("reactions", () => reactionsOnCard(card).includes("✅") || undefined);
    assert.ok(!reactionsOnCard(card).includes("♾️"));
    double.react(ALICE, room, card, "♾️");
    await eventually("told why", () => bodies().some((b) => b.includes("Not granted")) || undefined);
    assert.equal((await getApproval(db(), approvalId))?.status, "pending");
    const jobs = (await queuedJobs(h, "execute")) as { executionId: string }[];
    assert.ok(!jobs.some((j) => j.executionId === executionId));
  });

  test("`!approvals` lists the grant and revokes it; then it is gone from the list", async () => {
    double.message(BOB, room, "!approvals");
    await eventually(
      "listed",
      () => bodies().some((b) => b.includes(grantId) && b.includes("Standing grants (1)")) || undefined,
    );
    double.message(BOB, room, `!approvals revoke ${grantId}`);
    await eventually(
      "revoked",
      async () => (await getStandingGrant(db(), grantId))?.ended_by === BOB || undefined,
    );
    double.message(ALICE, room, "!grants");
    await eventually("empty", () => bodies().some((b) => b.includes("No standing grants")) || undefined);
  });
});
