import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectInMemoryClient } from "../../mcp-server/in-memory.ts";
import { createMcpServer } from "../../mcp-server/server.ts";
import { AGENT_PRINCIPAL } from "../../policy/principal.ts";
import { findEntity, upsertEntities } from "../../store/entities.ts";
import { type ChatHarness, createChatHarness, queuedJobs } from "../../test-support/bot/chat-harness.ts";
import { eventually } from "../../test-support/bot/eventually.ts";
import { startMatrixBot } from "../../test-support/bot/matrix-bot.ts";
import { MatrixDouble } from "../../test-support/matrix-double/matrix-double.ts";
import { callTool } from "../../test-support/mcp-server/call-tool.ts";
import type { MatrixAdapter } from "./matrix-adapter.ts";

const BOT = "@oikos:double.test";
const ALICE = "@alice:double.test"; // operator
const MALLORY = "@mallory:double.test"; // in the room, not an operator

// change_routing end to end: the agent asks, the card shows old → new, only an operator's ✅ applies it.
describe("change_routing needs an operator's ✅", () => {
  let double: MatrixDouble;
  let h: ChatHarness;
  let adapter: MatrixAdapter;
  let agent: Client;
  let room = "";

  before(async () => {
    double = await MatrixDouble.start();
    const botToken = double.registerUser(BOT);
    double.registerUser(ALICE);
    double.registerUser(MALLORY);
    room = double.createRoom({ creator: ALICE, members: [MALLORY] });
    h = await createChatHarness({ operators: [ALICE], admins: [ALICE] });
    adapter = await startMatrixBot(h, double, {
      accessToken: botToken,
      rooms: [room],
      allowedInviters: [ALICE],
    });
    double.invite(room, ALICE, BOT);
    await eventually("joined", () => double.state.room(room).members.get(BOT) === "join");
    agent = await connectInMemoryClient(
      createMcpServer({ db: h.store.db, principal: AGENT_PRINCIPAL, events: h.events }),
    );
    await upsertEntities(
      h.store.db,
      [
        { slug: "host:pve1", type: "host", name: "pve1" },
        { slug: "host:pve2", type: "host", name: "pve2" },
        {
          slug: "lxc:gitea",
          type: "lxc",
          name: "gitea",
          parentSlug: "host:pve1",
          transport: "pct-exec",
          attributes: { vmid: 105 },
        },
      ],
      { by: "test" },
    );
  });
  after(async () => {
    await agent.close();
    await adapter.stop();
    await h.close();
    await double.close();
  });

  async function sessionOf(text: string): Promise<string> {
    const root = double.message(ALICE, room, text);
    const session = await eventually("session", () =>
      h.store.db.selectFrom("sessions").select("id").where("thread", "=", root).executeTakeFirst(),
    );
    return session.id;
  }

  /** The routing card whose reason line says `why`. */
  async function routingCard(why: string) {
    const card = await eventually("routing card", () =>
      double
        .sentBy(BOT)
        .find(
          (e) => String(e.content.body).includes("Routing change") && String(e.content.body).includes(why),
        ),
    );
    return { card };
  }

  test("asked by the agent: nothing changes until the operator's ✅; a stranger's ✅ does nothing", async () => {
    const session = await sessionOf("gitea moved to pve2, please check");
    const asked = await callTool(
      agent,
      "change_routing",
      { slug: "lxc:gitea", changes: { parent: "host:pve2" }, reason: "pct list on pve2 shows CT 105" },
      session,
    );
    assert.equal(asked.isError, false, asked.text);
    const json = asked.json as { kind: string; approval_id: string; was: string; new: string };
    assert.equal(json.kind, "approval_requested");
    assert.match(json.was, /parent=host:pve1/);
    assert.match(json.new, /parent=host:pve2/);
    const { card } = await routingCard("pct list on pve2 shows CT 105");
    assert.match(String(card.content.body), /was: .*parent=host:pve1/);
    assert.match(String(card.content.body), /new: .*parent=host:pve2/);
    assert.equal(
      (await findEntity(h.store.db, "lxc:gitea"))?.parent_slug,
      "host:pve1",
      "asking changes nothing",
    );

    const again = await callTool(
      agent,
      "change_routing",
      { slug: "lxc:gitea", changes: { vmid: 106 }, reason: "second ask" },
      session,
    );
    assert.equal(again.structured?.code, "routing_change_pending");

    double.react(MALLORY, room, card.event_id, "✅");
    double.react(ALICE, room, card.event_id, "✅");
    await eventually(
      "re-routed",
      async () => (await findEntity(h.store.db, "lxc:gitea"))?.parent_slug === "host:pve2",
    );
    const audit = await h.store.db
      .selectFrom("audit_log")
      .select("actor")
      .where("action", "=", "routing_changed")
      .where("subject", "=", "lxc:gitea")
      .execute();
    assert.deepEqual(audit, [{ actor: ALICE }], "applied once, as the operator");
    const note = await h.store.db
      .selectFrom("messages")
      .select("content")
      .where("session_id", "=", session)
      .where("name", "=", `decision:routing:${json.approval_id}`)
      .executeTakeFirstOrThrow();
    assert.match(note.content ?? "", /approved the routing change of lxc:gitea/);
    await eventually("the agent is resumed with the decision", async () =>
      (await queuedJobs(h, "agent-turn")).some((job) => {
        const text = JSON.stringify(job);
        return text.includes(session) && text.includes("consent");
      }),
    );
  });

  test("❌ leaves the routing as it was; asking for keys that do not route is refused", async () => {
    const session = await sessionOf("is gitea on the right vmid?");
    const invalid = await callTool(
      agent,
      "change_routing",
      { slug: "lxc:gitea", changes: { note: "x" }, reason: "not routing" },
      session,
    );
    assert.equal(invalid.structured?.code, "routing_change_invalid");
    const credential = await callTool(
      agent,
      "change_routing",
      {
        slug: "lxc:gitea",
        changes: { "ssh.password": "hunter2-Correct-Horse" },
        reason: "log in by password",
      },
      session,
    );
    assert.equal(credential.structured?.code, "routing_credentials");
    assert.match(String(credential.structured?.next_step), /SSH key or agent/);
    assert.doesNotMatch(credential.text, /hunter2/);
    const stored = await h.store.db.selectFrom("routing_changes").select(["patch", "reason"]).execute();
    assert.doesNotMatch(JSON.stringify(stored), /password|hunter2/, "a credential is never a routing change");
    const asked = await callTool(
      agent,
      "change_routing",
      { slug: "lxc:gitea", changes: { vmid: 205 }, reason: "pct config shows 205" },
      session,
    );
    const { card } = await routingCard("pct config shows 205");
    double.react(ALICE, room, card.event_id, "❌");
    await eventually(
      "denied",
      async () =>
        (
          await h.store.db
            .selectFrom("approvals")
            .select("status")
            .where("id", "=", (asked.json as { approval_id: string }).approval_id)
            .executeTakeFirst()
        )?.status === "denied",
    );
    assert.equal((await findEntity(h.store.db, "lxc:gitea"))?.attributes.vmid, 105);
  });
});
