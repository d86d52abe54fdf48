import type { Logger } from "../../base/logger.ts";
import type { EventBus } from "../../jobs/events/port.ts";
import type { QueuePort } from "../../jobs/queue/port.ts";
import type { Consent } from "../../policy/consent.ts";
import type { ApprovalRule } from "../../policy/quorum.ts";
import type { ConsentVia } from "../../store/consent.ts";
import type { Db } from "../../store/db.ts";
import type { PreviewGateOutcome } from "../../store/preview-approval.ts";
import type { RoomAccess } from "./access.ts";
import type { CommandRegistry } from "./bot-commands.ts";

/**
 * Everything the chat core is built from. The functions owned by other parts of oikos (message
 * log, question answers, consent parsing) are passed in by bot/capability.ts, so the core never
 * reaches into another layer's tables.
 */
export interface ChatCoreDeps {
  db: Db;
  /** How long an approved plan's assent window stays open (config execution.assentWindowMs). */
  assentWindowMs?: number;
  /** How long a standing grant (♾️) lasts unless the operator says (config approvals.grantDays). */
  grantDays?: number;
  /** Quorum and separation of duties per room, entity or risk (config approvals.rules, policy/quorum.ts). */
  approvalRules?: readonly ApprovalRule[];
  queue: QueuePort;
  events: EventBus;
  logger: Logger;
  commands: CommandRegistry;
  access: RoomAccess;
  /** Without a model endpoint no session is started; the bot says how to configure one. */
  modelConfigured: boolean;
  /** Reads a typed reply as assent, denial or a typed confirmation (policy.parseConsent). */
  parseConsent(text: string): Consent;
  /** Stores an operator's message in the session history; returns its id. */
  recordMessage(input: { sessionId: string; text: string; author: string; eventId: string }): Promise<string>;
  /** Answers the session's open question; false when none was open any more. */
  answerQuestion(input: { sessionId: string; answer: string; by: string }): Promise<boolean>;
  /**
   * Plan previews (issue #15): the preview gate an operator's approval of an execution meets
   * (jobs/execution/approval-preview.ts): the preview the card showed is computed again and a
   * change asks again instead of running. Left out: approvals go through unchecked (no previews).
   */
  previewAtApproval?(approvalId: string, act: { by: string; via: ConsentVia }): Promise<PreviewGateOutcome>;
  /** ⏪ on a card: asks to roll an execution's guest back (jobs/proxmox/rollback.ts); the answer for the thread. */
  requestRollback?(executionId: string, by: string): Promise<string>;
}
