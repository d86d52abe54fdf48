import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { getApproval } from "../../store/approvals.ts";
import { getStandingGrant, grantMadeBy } from "../../store/standing-grants.ts";
import { cardMessageOf, sessionOfThread } from "../../test-support/bot/awaited-rows.ts";
import {
  grantBasisFor,
  requestExecutionApproval,
  runUnderGrant,
} from "../../test-support/bot/chat-harness.ts";
import { eventually } from "../../test-support/bot/eventually.ts";
import { type SlackBot, startSlackBot } from "../../test-support/bot/slack-bot.ts";
import type { SlackDouble } from "../../test-support/slack-double/slack-double.ts";

const CHANNEL = "C0OPS";
const ALICE = "U0ALICE";
const BOB = "U0BOB";
const MALLORY = "U0MALLORY";
const TARGET = "lxc:bridges";
const COMMAND = "systemctl restart whatsapp-bridge";

// Standing grants (♾️) on Slack (issue #32): the "♾️ Always allow" button approves this run and
// records the grant; a run under the grant posts a card naming it; a grant of a command that may not
// have one is refused and nothing runs; `!grants revoke` ends it. Every payload checked by the double.
describe("standing grants on Slack", () => {
  let bot: SlackBot;
  let double: SlackDouble;

  before(async () => {
    bot = await startSlackBot({
      mode: "http",
      access: { operators: [ALICE, BOB], admins: [ALICE] },
      channels: [CHANNEL],
    });
    double = bot.double;
  });
  after(async () => {
    await bot.close();
    assert.deepEqual(double.violations, [], "every payload was valid and escaped");
  });

  const db = () => bot.h.store.db;
  const session = async (text: string) =>
    sessionOfThread(bot.h, (await double.userMessage(ALICE, CHANNEL, text)).ts);
  const cardTs = (approvalId: string) => cardMessageOf(bot.h, approvalId);
  const buttonsOf = async (ts: string) => {
    const card = await eventually("card posted", () => double.byBot().find((m) => m.ts === ts));
    return card.blocks!.flatMap((b) => (b.type === "actions" ? b.elements.map((e) => e.action_id) : []));
  };
  const shownAll = () => double.byBot().map((m) => double.shown(m));

  let grantId = "";
  test("the ♾️ button approves this run and grants the command; a stranger's click counts for nothing", async () => {
    const s = await session("restart the whatsapp bridge");
    const { approvalId } = await requestExecutionApproval(bot.h, s.id, {
      target: TARGET,
      command: COMMAND,
      risk: "config_mutation",
      purpose: "the bridge hangs",
      grantBasis: grantBasisFor(TARGET, COMMAND),
    });
    const ts = await cardTs(approvalId);
    const buttons = await buttonsOf(ts);
    assert.deepEqual(buttons, ["oikos:approve", "oikos:grant", "oikos:deny"]);
    await double.click(MALLORY, CHANNEL, ts, "oikos:grant");
    await double.settle();
    assert.equal(await grantMadeBy(db(), approvalId), undefined);
    await double.click(ALICE, CHANNEL, ts, "oikos:grant");
    const grant = await eventually("grant", () => grantMadeBy(db(), approvalId));
    grantId = grant.id;
    assert.equal(grant.granted_by, ALICE);
    assert.equal(grant.granted_via, "button");
    assert.equal((await getApproval(db(), approvalId))?.status, "approved");
    await eventually(
      "card names the grant",
      () => shownAll().some((t) => t.includes(`standing grant ${grant.id}`)) || undefined,
    );
  });

  test("a run under the grant: its card says so", async () => {
    const s = await session("daily restart");
    await runUnderGrant(bot.h, s.id, grantId, { target: TARGET, command: COMMAND });
    await eventually(
      "grant card",
      () => shownAll().some((t) => t.includes(`ran under ♾️ grant ${grantId}, by `)) || undefined,
    );
  });

  test("no ♾️ button where no grant may be made", async () => {
    const s = await session("wipe the old dataset");
    const { approvalId } = await requestExecutionApproval(bot.h, s.id, {
      target: "host:nas",
      command: "zfs destroy tank/old",
      risk: "destructive",
      purpose: "space",
      requiredPhrase: "confirm destroy host:nas",
    });
    const ts = await cardTs(approvalId);
    const buttons = await buttonsOf(ts);
    assert.ok(!buttons.includes("oikos:grant"));
    // ♾️ as a reaction (Slack's name for it) on the card of a command no grant may cover
    await double.userReaction(ALICE, CHANNEL, ts, "infinity");
    await double.settle();
    assert.equal((await getApproval(db(), approvalId))?.status, "pending");
  });

  test("`!grants revoke <id>` ends the grant", async () => {
    await double.userMessage(BOB, CHANNEL, `!grants revoke ${grantId}`);
    await eventually(
      "revoked",
      async () => (await getStandingGrant(db(), grantId))?.ended_by === BOB || undefined,
    );
  });
});
