import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { getApproval } from "../../store/approvals.ts";
import { getStandingGrant, grantMadeBy } from "../../store/standing-grants.ts";
import { cardMessageOf, executeQueued, sessionOfThread } from "../../test-support/bot/awaited-rows.ts";
import {
  grantBasisFor,
  requestExecutionApproval,
  runUnderGrant,
} from "../../test-support/bot/chat-harness.ts";
import { eventually } from "../../test-support/bot/eventually.ts";
import { MATRIX_BOT, type MatrixRoom, startMatrixRoom } from "../../test-support/bot/matrix-room.ts";

const ALICE = "@alice:double.test";
const BOB = "@bob:double.test";
const MALLORY = "@mallory:double.test";
const TARGET = "lxc:bridges";
const COMMAND = "systemctl restart whatsapp-bridge";

// Standing grants (♾️) on Matrix (issue #32): the card offers ♾️ only where a grant may be made; the
// reaction approves this run and records the grant; a run under it posts a card naming the grant;
// `!approvals` lists it and revokes it. Every event the bot sends passes the double's spec schemas.
describe("standing grants on Matrix", () => {
  let m: MatrixRoom;

  before(async () => {
    m = await startMatrixRoom({
      users: [ALICE, BOB, MALLORY],
      access: { operators: [ALICE, BOB], admins: [ALICE] },
    });
  });
  after(async () => {
    await m.close();
    assert.deepEqual(m.double.violations, [], "every event the bot sent passes the spec schemas");
  });

  const db = () => m.h.store.db;
  // the whole content, so a line only in formatted_body counts too
  const shown = () => m.double.sentBy(MATRIX_BOT).map((e) => JSON.stringify(e.content));
  const newSession = async (text: string) => {
    const root = m.double.message(ALICE, m.room, text);
    return { id: (await sessionOfThread(m.h, root)).id, thread: root };
  };
  const reactionsOnCard = (eventId: string) =>
    m.double
      .relations(eventId, "m.annotation")
      .filter((e) => e.sender === MATRIX_BOT)
      .map((e) => (e.content["m.relates_to"] as { key: string }).key);

  let grantId = "";
  test("♾️ on the card approves this run and grants the same command; the card says until when", async () => {
    const session = await newSession("restart the whatsapp bridge");
    const { approvalId, executionId } = await requestExecutionApproval(m.h, session.id, {
      target: TARGET,
      command: COMMAND,
      risk: "config_mutation",
      purpose: "the bridge hangs",
      grantBasis: grantBasisFor(TARGET, COMMAND),
    });
    const card = await cardMessageOf(m.h, approvalId);
    await eventually("♾️ offered", () => reactionsOnCard(card).includes("♾️") || undefined);
    m.double.react(MALLORY, m.room, card, "♾️");
    m.double.react(ALICE, m.room, card, "♾️");
    const grant = await eventually("grant", () => grantMadeBy(db(), approvalId));
    grantId = grant.id;
    assert.equal(grant.granted_by, ALICE, "the stranger's ♾️ did not count");
    assert.equal((await getApproval(db(), approvalId))?.decided_by, ALICE);
    await eventually("queued", () => executeQueued(m.h, executionId));
    await eventually(
      "card names the grant",
      () => shown().some((b) => b.includes(`standing grant ${grant.id} by ${ALICE}`)) || undefined,
    );
  });

  test("a run under the grant posts its own card: ran under ♾️ grant g-…, by @alice, until …", async () => {
    const session = await newSession("daily restart");
    const { approvalId } = await runUnderGrant(m.h, session.id, grantId, {
      target: TARGET,
      command: COMMAND,
    });
    await cardMessageOf(m.h, approvalId);
    await eventually(
      "grant card",
      () => shown().some((b) => b.includes(`ran under ♾️ grant ${grantId}, by ${ALICE}, until `)) || undefined,
    );
  });

  test("no ♾️ where no grant may be made; a ♾️ there approves nothing", async () => {
    const session = await newSession("free some space");
    const { approvalId, executionId } = await requestExecutionApproval(m.h, session.id, {
      target: TARGET,
      command: "bash ./cleanup.sh",
      risk: "config_mutation",
      purpose: "disk full",
    });
    const card = await cardMessageOf(m.h, approvalId);
    await eventually("reactions", () => reactionsOnCard(card).includes("✅") || undefined);
    assert.ok(!reactionsOnCard(card).includes("♾️"));
    m.double.react(ALICE, m.room, card, "♾️");
    await eventually("told why", () => shown().some((b) => b.includes("Not granted")) || undefined);
    assert.equal((await getApproval(db(), approvalId))?.status, "pending");
    assert.equal(await executeQueued(m.h, executionId), false, "nothing queued");
  });

  test("`!approvals` lists the grant and revokes it; then it is gone from the list", async () => {
    m.double.message(BOB, m.room, "!approvals");
    await eventually(
      "listed",
      () => shown().some((b) => b.includes(grantId) && b.includes("Standing grants (1)")) || undefined,
    );
    m.double.message(BOB, m.room, `!approvals revoke ${grantId}`);
    await eventually(
      "revoked",
      async () => (await getStandingGrant(db(), grantId))?.ended_by === BOB || undefined,
    );
    m.double.message(ALICE, m.room, "!grants");
    await eventually("empty", () => shown().some((b) => b.includes("No standing grants")) || undefined);
  });
});
