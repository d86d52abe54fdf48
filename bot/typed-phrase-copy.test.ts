import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { sessionOfThread } from "../test-support/bot/awaited-rows.ts";
import { type ChatHarness, requestExecutionApproval } from "../test-support/bot/chat-harness.ts";
import { eventually } from "../test-support/bot/eventually.ts";
import { MATRIX_BOT, type MatrixRoom, startMatrixRoom } from "../test-support/bot/matrix-room.ts";
import { type SlackBot, startSlackBot } from "../test-support/bot/slack-bot.ts";
import { type HarnessTerminal, startTerminalChat } from "../test-support/bot/terminal-chat.ts";
import type { MatrixDouble } from "../test-support/matrix-double/matrix-double.ts";
import type { SlackDouble } from "../test-support/slack-double/slack-double.ts";

// An operator copies the typed phrase from the approval card exactly as their client shows it
// and sends it back. Each adapter renders the phrase its own way (Matrix: <code> in HTML and
// backticks in the plain body; Slack: a mrkdwn code span; terminal: backticks), so every copy must
// approve through the one normaliser (policy/typed-phrase.ts) used by the chat core AND the store.
// A phrase for another target must not.

const PHRASE = "confirm destroy lxc:old-cloud";
const COMMAND = "pct destroy 120";

function htmlText(html: string): string {
  return html
    .replace(/<[^>]+>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");
}

/** Approval status by id. */
async function statusOf(h: ChatHarness, approvalId: string): Promise<string> {
  const row = await h.store.db
    .selectFrom("approvals")
    .select("status")
    .where("id", "=", approvalId)
    .executeTakeFirstOrThrow();
  return row.status;
}

/** A new destructive approval in the session (the previous one is decided by then). */
function requestDestructive(h: ChatHarness, sessionId: string) {
  return requestExecutionApproval(h, sessionId, {
    target: "lxc:old-cloud",
    command: COMMAND,
    risk: "destructive",
    purpose: "remove the retired container",
    requiredPhrase: PHRASE,
  });
}

describe("typed phrase copied from the Matrix card (HTML and plain body)", () => {
  const ALICE = "@alice:double.test";
  let m: MatrixRoom;
  let double: MatrixDouble;
  let h: ChatHarness;
  let room = "";
  let root = "";
  let sessionId = "";

  before(async () => {
    m = await startMatrixRoom({ users: [ALICE], access: { operators: [ALICE], admins: [ALICE] } });
    ({ double, h, room } = m);
    root = double.message(ALICE, room, "retire the old nextcloud container");
    sessionId = (await sessionOfThread(h, root)).id;
  });
  after(async () => {
    await m.close();
    assert.deepEqual(double.violations, []);
  });

  /** The card as the client shows it: its formatted (HTML) body and its plain body. */
  async function cardFor(approvalId: string) {
    const card = await eventually("card", () =>
      double.sentBy(MATRIX_BOT).findLast((e) => String(e.content.body ?? "").includes(COMMAND)),
    );
    assert.equal(await statusOf(h, approvalId), "pending");
    return { html: String(card.content.formatted_body), plain: String(card.content.body) };
  }

  const copies: [string, (card: { html: string; plain: string }) => string][] = [
    // A click into the <code> element of the rendered HTML selects just the phrase.
    [
      "the <code> element of the HTML card",
      ({ html }) => htmlText(/<code>([^<]*confirm[^<]*)<\/code>/.exec(html)![1]!),
    ],
    // Clients without HTML (or a copy of the raw text) keep the backticks.
    ["the backticked span of the plain body", ({ plain }) => /`confirm[^`]*`/.exec(plain)![0]],
    // A sloppy copy: the span, the space before it and a final period typed by hand.
    [
      "the span with a leading space and a final period",
      ({ plain }) => ` ${/`confirm[^`]*`/.exec(plain)![0]}.`,
    ],
  ];

  for (const [label, copy] of copies) {
    test(`copying ${label} approves`, async () => {
      const { approvalId } = await requestDestructive(h, sessionId);
      const typed = copy(await cardFor(approvalId));
      double.message(ALICE, room, typed, { thread: root });
      await eventually(
        `approved by ${JSON.stringify(typed)}`,
        async () => (await statusOf(h, approvalId)) === "approved",
      );
    });
  }

  test("the phrase of another target does not approve, and the room is told the exact phrase", async () => {
    const { approvalId } = await requestDestructive(h, sessionId);
    await cardFor(approvalId);
    double.message(ALICE, room, "`confirm destroy lxc:new-cloud`", { thread: root });
    await eventually("told", () =>
      double
        .sentBy(MATRIX_BOT)
        .some((e) => String(e.content.body ?? "").includes(`type exactly \`${PHRASE}\``)),
    );
    assert.equal(await statusOf(h, approvalId), "pending");
    double.message(ALICE, room, PHRASE, { thread: root });
    await eventually("approved", async () => (await statusOf(h, approvalId)) === "approved");
  });
});

describe("typed phrase copied from the Slack card (Block Kit)", () => {
  const ALICE = "U0ALICE";
  const CHANNEL = "C0OPS";
  let double: SlackDouble;
  let h: ChatHarness;
  let bot: SlackBot;
  let root = "";
  let sessionId = "";

  before(async () => {
    bot = await startSlackBot({
      mode: "socket",
      access: { operators: [ALICE], admins: [ALICE] },
      channels: [CHANNEL],
    });
    ({ double, h } = bot);
    root = (await double.userMessage(ALICE, CHANNEL, "retire the old nextcloud container")).ts;
    sessionId = (await sessionOfThread(h, root)).id;
  });
  after(async () => {
    await bot.close();
    assert.deepEqual(double.violations, []);
  });

  /** Every mrkdwn text of the card's blocks, as Slack shows them. */
  async function cardMrkdwn(approvalId: string): Promise<string> {
    const card = await eventually("card", () => double.byBot().findLast((m) => m.text.includes(COMMAND)));
    assert.equal(await statusOf(h, approvalId), "pending");
    return JSON.stringify(card.blocks);
  }

  const copies: [string, (mrkdwn: string) => string][] = [
    // Copying the rendered code span: the phrase alone.
    ["the rendered code span", (mrkdwn) => /`(confirm[^`]*)`/.exec(mrkdwn)![1]!],
    // Copying from the message source (or a client that shows mrkdwn): with backticks.
    ["the code span with its backticks", (mrkdwn) => /`confirm[^`]*`/.exec(mrkdwn)![0]],
  ];

  for (const [label, copy] of copies) {
    test(`copying ${label} approves`, async () => {
      const { approvalId } = await requestDestructive(h, sessionId);
      const typed = copy(await cardMrkdwn(approvalId));
      await double.userMessage(ALICE, CHANNEL, typed, { threadTs: root });
      await eventually(
        `approved by ${JSON.stringify(typed)}`,
        async () => (await statusOf(h, approvalId)) === "approved",
      );
    });
  }
});

describe("typed phrase copied from the terminal card", () => {
  let h: ChatHarness;
  let t: HarnessTerminal;
  let sessionId = "";

  before(async () => {
    t = await startTerminalChat({ operators: ["alice"], admins: ["alice"] });
    h = t.h;
    await t.terminal.send("retire the old nextcloud container");
    sessionId = (await h.store.db.selectFrom("sessions").select("id").executeTakeFirstOrThrow()).id;
  });
  after(async () => h.close());

  test("copying the card's phrase line (backticks included) approves", async () => {
    t.take();
    const { approvalId } = await requestDestructive(h, sessionId);
    const card = await eventually("card", () => (t.output().includes(COMMAND) ? t.output() : undefined));
    const typed = /`confirm[^`]*`/.exec(card)![0];
    assert.ok(typed.startsWith("`"), "the terminal shows the phrase in backticks");
    await t.terminal.send(typed);
    await eventually("approved", async () => (await statusOf(h, approvalId)) === "approved");
  });
});
