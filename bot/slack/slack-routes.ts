import type { App } from "@slack/bolt";
import type { Logger } from "../../base/logger.ts";
import type { Inbound } from "../core/chat-adapter.ts";
import {
  buttonToInbound,
  commandToInbound,
  type EditedMessage,
  editedMessage,
  type InboundContext,
  isDirectMessage,
  messageToInbound,
  reactionToInbound,
} from "./inbound-events.ts";
import { SLACK_SLASH_COMMAND } from "./slack-app-manifest.ts";

export type Respond = (payload: Record<string, unknown>) => Promise<unknown>;

export interface RouteHandlers {
  logger: Logger;
  context(): InboundContext;
  /** Hands an event to the core (after the ack). */
  deliver(event: Inbound): void;
  /** A person edited a message in a served channel (edits are not requests). */
  edited(edit: EditedMessage): void;
  /** A served `/oikos` command, with its way back. */
  command(event: Inbound & { kind: "command" }, respond: Respond): void;
}

/** Said (ephemerally) to someone who uses oikos where it does not work. */
export function notServedHere(channel: string): string {
  return isDirectMessage(channel)
    ? "oikos does not work in direct messages: use `/oikos` in one of its channels."
    : `oikos does not serve this channel (${channel}): use \`/oikos\` in one of its channels, or ask an admin to add this one to SLACK_CHANNELS.`;
}

/**
 * Bolt listeners: each acknowledges first, then maps the payload (inbound-events.ts) and hands
 * it on. Interactive payloads we do not handle (another app's button ids, shortcuts, modals)
 * are acknowledged too, so Slack never shows the user an error for them.
 */
export function registerSlackRoutes(app: App, h: RouteHandlers): void {
  const onMessage = async ({ event }: { event: unknown }) => {
    const inbound = messageToInbound(event, h.context());
    if (inbound) {
      h.deliver(inbound);
      return;
    }
    const edit = editedMessage(event, h.context());
    if (edit) h.edited(edit);
  };
  app.event("message", onMessage);
  // Sent besides `message` for a mention (when subscribed); same channel and ts, so one event.
  app.event("app_mention", onMessage);

  app.event("reaction_added", async ({ event, body }) => {
    const inbound = reactionToInbound(event, (body as { event_id?: string }).event_id, h.context());
    if (inbound) h.deliver(inbound);
  });

  app.action(/^oikos:/, async ({ ack, body, respond }) => {
    await ack();
    const inbound = buttonToInbound(body);
    if (!inbound) return;
    if (!h.context().served(inbound.room) || isDirectMessage(inbound.room)) {
      await respond({
        response_type: "ephemeral",
        replace_original: false,
        text: notServedHere(inbound.room),
      }).catch((error: unknown) =>
        h.logger.warn({ err: error }, "slack: could not answer a click outside the served channels"),
      );
      return;
    }
    h.deliver(inbound);
  });
  app.action(/^(?!oikos:)/, async ({ ack, body }) => {
    await ack();
    h.logger.debug(
      { type: (body as { type?: string }).type },
      "slack: acknowledged an action that is not ours",
    );
  });
  app.shortcut(/.*/, async ({ ack }) => ack());
  app.view(/.*/, async ({ ack }) => ack());

  app.command(SLACK_SLASH_COMMAND, async ({ ack, command, respond }) => {
    await ack();
    const channel = command.channel_id;
    if (isDirectMessage(channel, command.channel_name) || !h.context().served(channel)) {
      await respond({ response_type: "ephemeral", text: notServedHere(channel) }).catch((error: unknown) =>
        h.logger.warn({ err: error }, "slack: could not answer a command outside the served channels"),
      );
      return;
    }
    const inbound = commandToInbound(command, h.context().selfId);
    if (inbound) h.command(inbound, respond as Respond);
  });
}
