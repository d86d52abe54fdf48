import type { RunnableRisk } from "../policy/decide-run.ts";

// The closed value sets of the status, risk and kind columns (store/schema.ts types its columns
// with these; the database keeps them as text). Adding a value: add it here and to every switch the
// compiler then points at.

export const SESSION_STATUSES = [
  "planning",
  "executing",
  "awaiting_approval",
  "awaiting_input",
  "done",
  "failed",
] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];
/** A session in one of these has its task closed (a new operator message reopens it). */
export const TERMINAL_SESSION_STATUSES: readonly SessionStatus[] = ["done", "failed"];

export const GOAL_STATUSES = ["active", "superseded", "done", "failed"] as const;
export type GoalStatus = (typeof GOAL_STATUSES)[number];

export const MESSAGE_ROLES = ["user", "assistant", "tool", "system"] as const;
export type MessageRole = (typeof MESSAGE_ROLES)[number];

export const PLAN_STATUSES = ["proposed", "approved", "denied", "superseded"] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];

export const STEP_STATUSES = [
  "pending",
  "running",
  "done",
  "failed",
  "skipped",
  "blocked",
  "replaced",
] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

/** Why a step was replaced: a fixed set, so "replaced everything silently" cannot happen. */
export const REPLACED_REASONS = [
  "wrong_diagnosis",
  "scope_change",
  "blocked",
  "superseded",
  "operator_override",
] as const;
export type ReplacedReason = (typeof REPLACED_REASONS)[number];

/** The risk a plan step states (a step is never "reject"). */
export const STEP_RISKS = ["read_only", "config_mutation", "destructive"] as const;
export type StepRisk = (typeof STEP_RISKS)[number];
/** The risk of a command that may be run (executions, approvals): the classifier's minus reject. */
export type { RunnableRisk };

export const QUESTION_STATUSES = ["open", "answered", "superseded"] as const;
export type QuestionStatus = (typeof QUESTION_STATUSES)[number];

export const EXECUTION_STATUSES = [
  "pending_approval",
  "approved",
  "queued",
  "running",
  "completed",
  "failed",
  "timed_out",
  "interrupted",
  "denied",
  "cancelled",
  "expired",
] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];

const TERMINAL = [
  "completed",
  "failed",
  "timed_out",
  "interrupted",
  "denied",
  "cancelled",
  "expired",
] as const;
/** An execution in one of these has ended (execution.finished carries one). */
export type TerminalExecutionStatus = (typeof TERMINAL)[number];
export const TERMINAL_EXECUTION_STATUSES: readonly ExecutionStatus[] = TERMINAL;
export const TERMINAL_EXECUTION_STATUS_VALUES = TERMINAL;

export const APPROVAL_STATUSES = ["pending", "approved", "denied", "expired", "cancelled"] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

export const APPROVAL_SUBJECTS = ["execution", "routing"] as const;
export type ApprovalSubject = (typeof APPROVAL_SUBJECTS)[number];

/** Why a standing grant ended before its expiry (issue #32): an operator revoked it, or the command changed meaning. */
export const GRANT_END_REASONS = ["revoked", "routing_changed", "proof_changed", "jail_changed"] as const;
export type GrantEndReason = (typeof GRANT_END_REASONS)[number];

export const WINDOW_KINDS = ["assent", "destructive"] as const;
export type WindowKind = (typeof WINDOW_KINDS)[number];

export const KNOWLEDGE_KINDS = ["runbook", "investigation", "document"] as const;
export type KnowledgeKind = (typeof KNOWLEDGE_KINDS)[number];

export const ENTITY_STATES = ["active", "stopped", "destroyed", "unknown"] as const;
export type EntityState = (typeof ENTITY_STATES)[number];

/**
 * Which gate recorded that a task touched an entity (store/task-graph.ts): a command for it passed
 * the run gate (`run`), knowledge about it was written (`knowledge`), its attributes or edges were
 * written back (`writeback`), or the agent's discovery saw it (`discovery`).
 */
export const TOUCH_VIAS = ["run", "knowledge", "writeback", "discovery"] as const;
export type TouchVia = (typeof TOUCH_VIAS)[number];

/** How commands reach an entity: directly, through its host (pct exec / qm guest exec), locally, or not at all. */
export const ENTITY_TRANSPORTS = ["ssh", "pct-exec", "qm-guest-exec", "local", "none"] as const;
export type EntityTransport = (typeof ENTITY_TRANSPORTS)[number];

/** A preview row: shown on an approval card, or computed again when the operator approved (#15). */
export const PREVIEW_PURPOSES = ["shown", "recheck"] as const;
export type PreviewPurpose = (typeof PREVIEW_PURPOSES)[number];

export const CARD_KINDS = ["plan", "approval", "question", "summary", "pattern"] as const;
export type CardKind = (typeof CARD_KINDS)[number];

export const JOB_STATUSES = ["waiting", "active", "done", "failed", "interrupted", "cancelled"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** What a scheduled run that finds nothing wrong posts (`quiet` of a schedule in oikos.yaml). */
export const QUIET_MODES = ["line", "silent", "thread"] as const;
export type QuietMode = (typeof QUIET_MODES)[number];

export const OUTCOMES = ["success", "partial", "failure"] as const;
export type Outcome = (typeof OUTCOMES)[number];
