import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { getApproval } from "../../store/approvals.ts";
import { grantMadeBy } from "../../store/standing-grants.ts";
import {
  type ChatHarness,
  grantBasisFor,
  requestExecutionApproval,
  runUnderGrant,
} from "../../test-support/bot/chat-harness.ts";
import { type HarnessTerminal, startTerminalChat } from "../../test-support/bot/terminal-chat.ts";

const DAY = 86_400_000;
const TARGET = "lxc:bridges";
const COMMAND = "systemctl restart whatsapp-bridge";

// Standing grants (♾️) in the terminal chat (issue #32): the phrase “allow always for 30 days” in
// the task's thread, or `!react ♾️`, approves the waiting change and grants it; a run under the
// grant prints a card naming it; `!approvals` lists and revokes.
describe("standing grants in the terminal", () => {
  let h: ChatHarness;
  let t: HarnessTerminal;

  before(async () => {
    t = await startTerminalChat({ operators: ["alice", "bob"], admins: ["alice"] });
    h = t.h;
  });
  after(async () => h.close());

  const ask = async (sessionId: string, command = COMMAND, grantable = true) =>
    requestExecutionApproval(h, sessionId, {
      target: TARGET,
      command,
      risk: "config_mutation",
      purpose: "the bridge hangs",
      ...(grantable ? { grantBasis: grantBasisFor(TARGET, command) } : {}),
    });
  const sessionNamed = async (text: string) => {
    await t.terminal.send("!new");
    await t.terminal.send(text);
    return h.store.db.selectFrom("sessions").selectAll().where("goal", "=", text).executeTakeFirstOrThrow();
  };

  let grantId = "";
  test("“allow always for 30 days” approves the change and grants it for 30 days", async () => {
    const session = await sessionNamed("restart the whatsapp bridge");
    const { approvalId } = await ask(session.id);
    assert.match(t.take(), /♾️ \(or “allow always”\)/, "the card offers the grant");
    await t.terminal.send("allow always for 30 days");
    const grant = await grantMadeBy(h.store.db, approvalId);
    assert.ok(grant);
    grantId = grant.id;
    assert.equal((grant.expires_at.getTime() - grant.created_at.getTime()) / DAY, 30);
    assert.equal(grant.granted_via, "phrase");
    assert.equal((await getApproval(h.store.db, approvalId))?.status, "approved");
    assert.match(t.take(), new RegExp(`standing grant ${grant.id} by alice`));
  });

  test("a run under the grant prints a card naming it", async () => {
    const session = await sessionNamed("daily restart");
    await runUnderGrant(h, session.id, grantId, { target: TARGET, command: COMMAND });
    assert.match(
      t.take(),
      new RegExp(`♾️ Ran under a standing grant[\\s\\S]*ran under ♾️ grant ${grantId}, by alice, until `),
    );
  });

  test("`!react ♾️` on a card of a command no grant may cover approves nothing and says why", async () => {
    const session = await sessionNamed("clean up");
    const { approvalId } = await ask(session.id, "bash ./cleanup.sh", false);
    assert.doesNotMatch(t.take(), /allow always/);
    await t.terminal.send("!react ♾️");
    assert.match(t.take(), /Not granted/);
    assert.equal((await getApproval(h.store.db, approvalId))?.status, "pending");
    await t.terminal.send("allow always");
    assert.equal((await getApproval(h.store.db, approvalId))?.status, "pending", "the phrase neither");
  });

  test("`!approvals` shows the pending approval and the grant; revoke ends it", async () => {
    t.take();
    await t.terminal.send("!approvals");
    const listed = t.take();
    assert.match(listed, /Pending approvals \(1\)/);
    assert.match(listed, new RegExp(`${grantId}  \`${COMMAND}\` on \`${TARGET}\``));
    await t.terminal.send(`!approvals revoke ${grantId}`);
    assert.match(t.take(), /revoked/);
    await t.terminal.send("!approvals grants");
    assert.match(t.take(), /No standing grants/);
  });
});
