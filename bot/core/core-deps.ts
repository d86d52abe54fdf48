import type { Kysely } from "kysely";
import type { Logger } from "../../app/logger.ts";
import type { EventBus } from "../../jobs/events/port.ts";
import type { QueuePort } from "../../jobs/queue/port.ts";
import type { Database } from "../../store/schema.ts";
import type { RoomAccess } from "./access.ts";
import type { CommandRegistry } from "./bot-commands.ts";

/** What a typed line means for a pending decision. */
export type ConsentIntent = "approve" | "deny" | "none";

/**
 * Everything the chat core is built from. The functions owned by other parts of oikos (message
 * log, question answers, consent parsing) are passed in by bot/capability.ts, so the core never
 * reaches into another layer's tables.
 */
export interface ChatCoreDeps {
  db: Kysely<Database>;
  queue: QueuePort;
  events: EventBus;
  logger: Logger;
  commands: CommandRegistry;
  access: RoomAccess;
  /** Without a model endpoint no session is started; the bot says how to configure one. */
  modelConfigured: boolean;
  /** Loose assent / refusal in free text (policy.parseConsent). */
  consentIntent(text: string): ConsentIntent;
  /** Stores an operator's message in the session history; returns its id. */
  recordMessage(input: { sessionId: string; text: string; author: string; eventId: string }): Promise<string>;
  /** Answers the session's open question; false when none was open any more. */
  answerQuestion(input: { sessionId: string; answer: string; by: string }): Promise<boolean>;
}
