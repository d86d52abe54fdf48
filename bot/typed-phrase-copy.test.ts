import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { after, before, describe, test } from "node:test";
import { silentLogger } from "../base/logger.ts";
import {
  type ChatHarness,
  createChatHarness,
  requestExecutionApproval,
} from "../test-support/bot/chat-harness.ts";
import { eventually } from "../test-support/bot/eventually.ts";
import { startMatrixBot } from "../test-support/bot/matrix-bot.ts";
import { MatrixDouble } from "../test-support/matrix-double/matrix-double.ts";
import { SlackDouble } from "../test-support/slack-double/slack-double.ts";
import { TerminalAdapter } from "./shell/terminal-adapter.ts";
import { SlackAdapter } from "./slack/slack-adapter.ts";

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
  const BOT = "@oikos:double.test";
  const ALICE = "@alice:double.test";
  let double: MatrixDouble;
  let h: ChatHarness;
  let room = "";
  let root = "";
  let sessionId = "";
  let stop: () => Promise<void>;

  before(async () => {
    double = await MatrixDouble.start();
    const token = double.registerUser(BOT);
    double.registerUser(ALICE);
    room = double.createRoom({ creator: ALICE });
    double.invite(room, ALICE, BOT);
    h = await createChatHarness({ operators: [ALICE], admins: [ALICE] });
    const adapter = await startMatrixBot(h, double, {
      accessToken: token,
      rooms: [room],
      allowedInviters: [ALICE],
    });
    stop = () => adapter.stop();
    root = double.message(ALICE, room, "retire the old nextcloud container");
    sessionId = (
      await eventually("session", () =>
        h.store.db.selectFrom("sessions").select("id").where("thread", "=", root).executeTakeFirst(),
      )
    ).id;
  });
  after(async () => {
    await stop();
    await h.close();
    await double.close();
    assert.deepEqual(double.violations, []);
  });

  /** The card as the client shows it: its formatted (HTML) body and its plain body. */
  async function cardFor(approvalId: string) {
    const card = await eventually("card", () =>
      double.sentBy(BOT).findLast((e) => String(e.content.body ?? "").includes(COMMAND)),
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
      double.sentBy(BOT).some((e) => String(e.content.body ?? "").includes(`type exactly \`${PHRASE}\``)),
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
  let adapter: SlackAdapter;
  let root = "";
  let sessionId = "";

  before(async () => {
    double = await SlackDouble.start({ botToken: "xoxb-t", signingSecret: "s", appToken: "xapp-t" });
    double.mode = "socket";
    h = await createChatHarness({ operators: [ALICE], admins: [ALICE] });
    adapter = new SlackAdapter({
      botToken: "xoxb-t",
      mode: "socket",
      signingSecret: "s",
      appToken: "xapp-t",
      port: 0,
      channels: [CHANNEL],
      slackApiUrl: double.apiUrl,
      logger: silentLogger(),
    });
    h.adapters.set("slack", adapter);
    await adapter.start((e) => h.core.handle(e));
    await double.socketMode.connected();
    root = (await double.userMessage(ALICE, CHANNEL, "retire the old nextcloud container")).ts;
    sessionId = (
      await eventually("session", () =>
        h.store.db.selectFrom("sessions").select("id").where("thread", "=", root).executeTakeFirst(),
      )
    ).id;
  });
  after(async () => {
    await adapter.stop();
    await h.close();
    await double.close();
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
  let terminal: TerminalAdapter;
  let output = "";
  let sessionId = "";

  before(async () => {
    h = await createChatHarness({ operators: ["alice"], admins: ["alice"] });
    const out = new PassThrough();
    out.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    terminal = new TerminalAdapter({
      input: new PassThrough(),
      output: out,
      user: "alice",
      interactive: false,
    });
    h.adapters.set("shell", terminal);
    await terminal.start((e) => h.core.handle(e));
    await terminal.send("retire the old nextcloud container");
    sessionId = (await h.store.db.selectFrom("sessions").select("id").executeTakeFirstOrThrow()).id;
  });
  after(async () => h.close());

  test("copying the card's phrase line (backticks included) approves", async () => {
    output = "";
    const { approvalId } = await requestDestructive(h, sessionId);
    const card = await eventually("card", () => (output.includes(COMMAND) ? output : undefined));
    const typed = /`confirm[^`]*`/.exec(card)![0];
    assert.ok(typed.startsWith("`"), "the terminal shows the phrase in backticks");
    await terminal.send(typed);
    await eventually("approved", async () => (await statusOf(h, approvalId)) === "approved");
  });
});
