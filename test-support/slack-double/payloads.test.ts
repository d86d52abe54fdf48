import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import {
  buttonToInbound,
  commandToInbound,
  messageToInbound,
  reactionToInbound,
} from "../../bot/slack/inbound-events.ts";
import {
  blockActionsPayload,
  botMessageEvent,
  eventEnvelope,
  messageChangedEvent,
  reactionAddedEvent,
  slashCommandParams,
  userMessageEvent,
} from "./payloads.ts";
import { SlackDouble } from "./slack-double.ts";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8")) as Record<string, Json>;

/**
 * Every field the documented payload has, the built one has too, with the same JSON type
 * (recursively; arrays by their first element). `optional` names documented fields Slack sends
 * only sometimes (Enterprise Grid ids, …).
 */
function assertCovers(built: unknown, documented: Json, path = "$", optional: string[] = []): void {
  if (documented === null || typeof documented !== "object") {
    assert.equal(
      typeOf(built),
      typeOf(documented),
      `${path}: ${typeOf(built)} where Slack sends ${typeOf(documented)}`,
    );
    return;
  }
  if (Array.isArray(documented)) {
    assert.ok(Array.isArray(built), `${path}: not an array`);
    if (documented.length > 0 && (built as unknown[]).length > 0)
      assertCovers((built as unknown[])[0], documented[0]!, `${path}[0]`, optional);
    return;
  }
  assert.equal(typeOf(built), "object", `${path}: not an object`);
  for (const [key, value] of Object.entries(documented)) {
    const at = `${path}.${key}`;
    if (!(key in (built as object))) {
      assert.ok(optional.includes(at), `${at}: missing (Slack's documented payload has it)`);
      continue;
    }
    assertCovers((built as Record<string, unknown>)[key], value, at, optional);
  }
}

function typeOf(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
}

const TS = "1700000001.000001";

describe("the double's payloads have Slack's documented shape", () => {
  test("Events API: a person's message, the bot's own echo, an edit, a mention, a reaction", () => {
    const blocks = [{ type: "rich_text", block_id: "x", elements: [] }];
    const user = userMessageEvent({
      type: "message",
      channel: "C1",
      channelType: "channel",
      user: "U1",
      text: "hi",
      ts: TS,
      blocks,
      clientMsgId: "c",
    });
    assertCovers(eventEnvelope(user, "Ev1", 1, "UB"), fixture("message.channels.json"));
    const mention = userMessageEvent({
      type: "app_mention",
      channel: "C1",
      channelType: "channel",
      user: "U1",
      text: "<@UB> hi",
      ts: TS,
      blocks,
      clientMsgId: "c",
    });
    assertCovers(eventEnvelope(mention, "Ev2", 1, "UB"), fixture("app_mention.json"));
    const bot = botMessageEvent({
      channel: "C1",
      channelType: "channel",
      botUserId: "UB",
      botId: "B1",
      text: "x",
      ts: TS,
      blocks: [{ type: "section", block_id: "b1", text: { type: "mrkdwn", text: "x", verbatim: true } }],
    });
    assertCovers(eventEnvelope(bot, "Ev3", 1, "UB"), fixture("message-from-bot.json"));
    const changed = messageChangedEvent({
      channel: "C1",
      channelType: "channel",
      message: { ...bot, edited: { user: "UB", ts: TS } },
      previous: bot,
      eventTs: TS,
    });
    assertCovers(eventEnvelope(changed, "Ev4", 1, "UB"), fixture("message_changed.json"));
    const reaction = reactionAddedEvent({
      user: "U1",
      reaction: "+1",
      channel: "C1",
      ts: TS,
      itemUser: "UB",
      eventTs: TS,
    });
    assertCovers(eventEnvelope(reaction, "Ev5", 1, "UB"), fixture("reaction_added.json"));
  });

  test("interactivity: block_actions and slash commands", () => {
    const click = blockActionsPayload({
      user: "U1",
      channel: "C1",
      channelName: "ops",
      message: { ts: TS, text: "x", user: "UB", blocks: [] },
      actionId: "oikos:approve",
      blockId: "b",
      value: "approve",
      actionTs: TS,
      responseUrl: "http://x/response/1",
      buttonText: "Approve",
    });
    assertCovers(click, fixture("block_actions.json"));
    const slash = slashCommandParams({
      user: "U1",
      channel: "C1",
      channelName: "ops",
      command: "/oikos",
      text: "help",
      responseUrl: "http://x",
    });
    assertCovers(slash, fixture("slash_command.json"), "$", ["$.enterprise_id", "$.enterprise_name"]);
  });
});

describe("the adapter reads Slack's documented payloads", () => {
  const ctx = { selfId: "U0LAN0Z89", served: () => true, requireMention: false };

  test("message, app_mention, reaction_added, block_actions, slash command", () => {
    const message = messageToInbound(fixture("message.channels.json").event, ctx);
    assert.equal(message?.kind === "message" && message.text, "Live long and prospect.");
    const mention = messageToInbound(fixture("app_mention.json").event, ctx);
    assert.equal(mention?.kind === "message" && mention.text, "is it everything a river should be?");
    assert.equal(
      messageToInbound(fixture("message-from-bot.json").event, ctx),
      undefined,
      "the bot's own post",
    );
    assert.equal(
      messageToInbound(fixture("message_changed.json").event, ctx),
      undefined,
      "an edit is no request",
    );
    const reaction = reactionToInbound(fixture("reaction_added.json").event, "Ev1", ctx);
    assert.equal(reaction?.kind === "reaction" && reaction.key, "thumbsup");
    const click = fixture("block_actions.json");
    assert.equal(buttonToInbound(click), undefined, "another app's button is not ours");
    const ours = {
      ...click,
      actions: [{ ...(click.actions as Record<string, Json>[])[0], action_id: "oikos:approve" }],
    };
    const button = buttonToInbound(ours);
    assert.deepEqual(button && { room: button.room, target: button.target, action: button.action }, {
      room: "C123ABC456",
      target: "1548261231.000200",
      action: "approve",
    });
    const command = commandToInbound(fixture("slash_command.json"), "UB");
    assert.equal(command?.text, "!oikos 94070");
  });
});

describe("Socket Mode frames on the wire", () => {
  let double: SlackDouble;
  let socket: WebSocket;
  const frames: Record<string, Json>[] = [];

  before(async () => {
    double = await SlackDouble.start({
      botToken: "xoxb-t",
      signingSecret: "s",
      appToken: "xapp-t",
      echo: false,
    });
    double.mode = "socket";
    const opened = (await (
      await fetch(`${double.apiUrl}apps.connections.open`, {
        method: "POST",
        headers: { authorization: "Bearer xapp-t" },
      })
    ).json()) as { url: string };
    socket = new WebSocket(opened.url);
    socket.onmessage = (event) => {
      const frame = JSON.parse(String(event.data)) as Record<string, Json>;
      frames.push(frame);
      if (typeof frame.envelope_id === "string")
        socket.send(JSON.stringify({ envelope_id: frame.envelope_id }));
    };
    await double.socketMode.connected();
  });
  after(async () => {
    socket.close();
    await double.close();
  });

  const next = async (type: string) => {
    for (let i = 0; i < 200; i++) {
      const found = frames.find((f) => f.type === type);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`no ${type} frame`);
  };

  test("hello, envelopes of each type, disconnect", async () => {
    assertCovers(await next("hello"), fixture("socket-hello.json"));
    await double.userMessage("U1", "C1", "hello there");
    assertCovers(await next("events_api"), fixture("socket-events_api.json"));
    await double.slashCommand("U1", "C1", "/oikos", "help");
    assertCovers(await next("slash_commands"), fixture("socket-slash_commands.json"));
    double.addChannel("C1");
    const message = double.messages[0]!;
    message.blocks = [
      {
        type: "actions",
        elements: [
          { type: "button", text: { type: "plain_text", text: "Go" }, action_id: "go", value: "go" },
        ],
      },
    ];
    await double.click("U1", "C1", message.ts, "go");
    assertCovers(await next("interactive"), fixture("socket-interactive.json"));
    double.socketMode.disconnect("warning");
    assertCovers(await next("disconnect"), fixture("socket-disconnect.json"));
  });
});
