import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { requestExecutionApproval } from "../../test-support/bot/chat-harness.ts";
import { eventually } from "../../test-support/bot/eventually.ts";
import { type SlackBot, startSlackBot } from "../../test-support/bot/slack-bot.ts";

const CHANNEL = "C0OPS";
const ALICE = "U0ALICE";

/** Whitespace-free text: content survives a split across sections or messages unchanged. */
const squash = (text: string) => text.replace(/\s+/g, "");

// Text through Slack as Slack treats it: the double encodes and auto-links what a person types,
// and shows the bot's messages the way a Slack client does.
describe("text in and out of Slack", () => {
  let bot: SlackBot;
  let root = "";
  let sessionId = "";

  before(async () => {
    bot = await startSlackBot({
      mode: "socket",
      access: { operators: [ALICE], admins: [ALICE] },
      channels: [CHANNEL],
    });
    const sent = await bot.double.userMessage(
      ALICE,
      CHANNEL,
      "@oikos please retire the old pool on nas.example.com",
    );
    assert.ok(
      sent.text.includes("<http://nas.example.com|nas.example.com>"),
      "Slack auto-linked the host name",
    );
    assert.ok(sent.text.startsWith("<@UOIKOSBOT>"), "Slack encoded the mention");
    root = sent.ts;
    const session = await eventually("session", () =>
      bot.h.store.db.selectFrom("sessions").selectAll().where("thread", "=", root).executeTakeFirst(),
    );
    sessionId = session.id;
  });
  after(async () => {
    await bot.close();
    assert.deepEqual(bot.double.violations, [], "every payload was valid and escaped");
  });

  test("what the person typed reaches the core decoded: no <…>, no entities, no bot mention", async () => {
    // the session row is written before its first message: wait for the message too
    const stored = await eventually("first message stored", () =>
      bot.h.store.db
        .selectFrom("messages")
        .select("content")
        .where("session_id", "=", sessionId)
        .executeTakeFirst(),
    );
    assert.equal(stored.content, "please retire the old pool on nas.example.com");
    const second = await bot.double.userMessage(
      ALICE,
      CHANNEL,
      "check `grep -c 'a && b' < in > out` on https://grafana.example.org/d?x=1&y=2",
      {
        threadTs: root,
      },
    );
    assert.match(second.text, /&amp;&amp;/);
    const content = await eventually(
      "reply stored",
      async () =>
        (
          await bot.h.store.db
            .selectFrom("messages")
            .select("content")
            .where("platform_event_id", "=", `message:${CHANNEL}:${second.ts}`)
            .executeTakeFirst()
        )?.content,
    );
    assert.equal(content, "check `grep -c 'a && b' < in > out` on https://grafana.example.org/d?x=1&y=2");
  });

  test("a typed confirmation for a dotted target approves the destructive step", async () => {
    const phrase = "confirm destroy host:nas.example.com";
    const { approvalId } = await requestExecutionApproval(bot.h, sessionId, {
      target: "host:nas.example.com",
      command: "zpool destroy oldpool",
      risk: "destructive",
      purpose: "retire the old pool",
      requiredPhrase: phrase,
    });
    const card = await eventually("destructive card", () =>
      bot.double.byBot().find((m) => m.text.includes("typed confirmation required")),
    );
    assert.ok(bot.double.shown(card).includes(phrase), "the card shows the phrase to type");
    const typed = await bot.double.userMessage(ALICE, CHANNEL, phrase, { threadTs: root });
    assert.equal(
      typed.text,
      "confirm destroy host:<http://nas.example.com|nas.example.com>",
      "as Slack delivers it",
    );
    const status = async () =>
      await bot.h.store.db
        .selectFrom("approvals")
        .selectAll()
        .where("id", "=", approvalId)
        .executeTakeFirstOrThrow();
    await eventually("approved by the typed phrase", async () => (await status()).status === "approved");
    assert.equal((await status()).channel, "phrase");
  });

  test("a 5,000-character summary arrives whole", async () => {
    const words = [
      "pool",
      "tank",
      "scrub&resilver",
      "<ok>",
      "🇩🇪",
      "👍🏽",
      "nas.example.com",
      "`zpool status`",
      "**bold**",
    ];
    const long = Array.from({ length: 700 }, (_, i) => words[i % words.length])
      .join(" ")
      .slice(0, 5_000);
    assert.equal(long.length, 5_000);
    const summary = `${long}\nsecond line ${"x".repeat(50)}\nthird line & the end`;
    await bot.h.store.db.updateTable("sessions").set({ summary }).where("id", "=", sessionId).execute();
    await bot.h.events.publish({ type: "task.completed", sessionId, outcome: "success" });
    const first = await eventually("summary", () =>
      bot.double.botThread(CHANNEL, root).find((m) => m.text.includes("Task success")),
    );
    await bot.adapter.idle();
    const after = bot.double.botThread(CHANNEL, root).filter((m) => Number(m.ts) >= Number(first.ts));
    const shown = after.map((m) => bot.double.shown(m)).join("\n");
    // Markdown shows as Slack formatting: **bold** as *bold*.
    for (const line of summary.replace(/\*\*bold\*\*/g, "*bold*").split("\n"))
      assert.ok(squash(shown).includes(squash(line)), `line shown whole: ${line.slice(0, 40)}…`);
    for (const m of after)
      for (const b of m.blocks ?? []) if (b.type === "section") assert.ok(b.text.text.length <= 3_000);
  });

  test("a long agent message arrives whole, split into messages marked as continued", async () => {
    const paragraphs = Array.from(
      { length: 60 },
      (_, i) =>
        `Paragraph ${i}: the **pool** _tank_ has ${i} errors on \`/dev/sd${i}\`; see https://example.com/p${i}. ${"detail ".repeat(40)}`,
    );
    const text = paragraphs.join("\n\n");
    assert.ok(text.length > 20_000);
    const before = bot.double.botThread(CHANNEL, root).length;
    await bot.h.events.publish({ type: "agent.message", sessionId, text, final: true });
    await eventually("all parts", () =>
      bot.double.botThread(CHANNEL, root).some((m) => bot.double.shown(m).includes("Paragraph 59")),
    );
    const parts = bot.double.botThread(CHANNEL, root).slice(before);
    assert.ok(parts.length >= 3, `split into ${parts.length} messages`);
    for (const [i, part] of parts.entries()) {
      const shown = bot.double.shown(part);
      if (i > 0) assert.match(shown, new RegExp(`continued ${i + 1}/${parts.length}`));
      if (i < parts.length - 1) assert.match(shown, /continued in the next message/);
    }
    const all = parts.map((m) => bot.double.shown(m)).join("\n");
    for (let i = 0; i < 60; i++)
      assert.ok(
        all.includes(
          `Paragraph ${i}: the *pool* _tank_ has ${i} errors on \`/dev/sd${i}\`; see https://example.com/p${i}.`,
        ),
        `paragraph ${i}, formatted`,
      );
    const raw = parts
      .flatMap((m) => (m.blocks ?? []).map((b) => (b.type === "section" ? b.text.text : "")))
      .join("\n");
    assert.ok(raw.includes("<https://example.com/p7>"), "links are Slack links");
  });

  test("nothing the agent or a command prints forms a mention or a broadcast", async () => {
    const text =
      "Done. Output was `<!channel>` and <!here> <@U0ALICE> <#C0OPS|ops> <!subteam^S1|@ops> & more";
    await bot.h.events.publish({ type: "agent.message", sessionId, text, final: true });
    const message = await eventually("posted", () =>
      bot.double.botThread(CHANNEL, root).find((m) => bot.double.shown(m).includes("& more")),
    );
    assert.deepEqual(
      bot.double.mentions.filter((m) => m.text.includes("Output was")),
      [],
    );
    assert.ok(!/<[!@#]/.test(message.text), "the fallback text is escaped too");
    assert.ok(bot.double.shown(message).includes("<!here> <@U0ALICE>"), "shown literally");
  });
});
