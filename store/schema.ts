import type { ColumnType, Generated, Insertable, Selectable, Updateable } from "kysely";
import type { JailPlan } from "../policy/jail.ts";
import type { JailGrant } from "../policy/jail-grant.ts";
import type { HiddenResource } from "../policy/jail-hidden.ts";
import type { PlanPreview } from "../policy/preview/types.ts";
import type { Quorum } from "../policy/quorum.ts";
import type { Risk } from "../policy/risk.ts";
import type { GrantBasis } from "../policy/standing-grant.ts";
import type { UnreadableKind } from "../policy/unreadable.ts";
import type {
  ApprovalStatus,
  ApprovalSubject,
  CardKind,
  EntityState,
  EntityTransport,
  ExecutionStatus,
  GoalStatus,
  GrantEndReason,
  JobStatus,
  KnowledgeKind,
  MessageRole,
  Outcome,
  PlanStatus,
  PreviewPurpose,
  QuestionStatus,
  ReplacedReason,
  RunnableRisk,
  SessionStatus,
  StepRisk,
  StepStatus,
  WindowKind,
} from "./statuses.ts";

// Row types of every table (migrations/ holds the DDL). Columns with defaults are Generated.
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Json<T> = ColumnType<T, T | string | undefined, T | string>;
type NullableJson<T> = ColumnType<T | null, T | string | null | undefined, T | string | null>;

export type JsonObject = { [key: string]: unknown };

export interface EntitiesTable {
  slug: string;
  type: string;
  name: string;
  state: Generated<EntityState>;
  attributes: Json<JsonObject>;
  transport: Generated<EntityTransport>;
  parent_slug: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** migrations/0360: set on entities the agent discovered (propose_entities); stale_since once not seen. */
  discovered_at: NullableTimestamp;
  last_seen_at: NullableTimestamp;
  stale_since: NullableTimestamp;
}

/** migrations/0360: the entity types every entity write is validated against. */
export interface EntityTypesTable {
  name: string;
  description: string;
  runnable: Generated<boolean>;
  proposable: Generated<boolean>;
}

/** migrations/0360: each time an execution's output showed a discovered entity. */
export interface EntitySightingsTable {
  id: Generated<string>;
  entity_slug: string;
  session_id: string;
  execution_id: string;
  command: string;
  evidence: string;
  seen_at: Timestamp;
}

export interface EntityAttributeChangesTable {
  id: Generated<string>;
  entity_slug: string;
  key: string;
  old_value: NullableJson<unknown>;
  new_value: NullableJson<unknown>;
  changed_by: string;
  session_id: string | null;
  changed_at: Timestamp;
}

export interface RelationshipTypesTable {
  name: string;
  description: string;
  source_types: Json<string[]>;
  target_types: Json<string[]>;
  dependent_side: "source" | "target" | null;
}

export interface RelationshipsTable {
  id: Generated<string>;
  source_slug: string;
  target_slug: string;
  type: string;
  attributes: Json<JsonObject>;
  created_by: string | null;
  created_at: Timestamp;
}

export interface KnowledgeTable {
  id: Generated<string>;
  slug: string;
  kind: KnowledgeKind;
  title: string;
  content: string;
  tags: Json<string[]>;
  superseded_by: string | null;
  created_by: string | null;
  session_id: string | null;
  /** migrations/0361: an adopted runbook's symptom words (policy/runbook-match.ts), null otherwise. */
  symptom: ColumnType<string[] | null, string | null | undefined, string | null>;
  search: ColumnType<string, never, never>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface KnowledgeAboutTable {
  knowledge_id: string;
  entity_slug: string;
}

export interface SessionsTable {
  id: string;
  platform: string;
  room: string;
  thread: string;
  status: Generated<SessionStatus>;
  goal: string | null;
  outcome: Outcome | null;
  summary: string | null;
  /** migrations/0230: complete_task's verification and what it left open, as given. */
  verification: ColumnType<string | null, string | null | undefined, string | null>;
  left_open: ColumnType<string | null, string | null | undefined, string | null>;
  created_by: string;
  /** migrations/0131: the principal that owns it (policy/principal.ts); 'agent' for chat sessions. */
  principal: Generated<string>;
  plan_generation: Generated<number>;
  requires_replan: Generated<boolean>;
  live_discovery: Generated<boolean>;
  entity_writeback: Generated<boolean>;
  preplan_read_only_calls: Generated<number>;
  nudged_at: NullableTimestamp;
  last_activity_at: Timestamp;
  /** migrations/0005: the running agent turn's lease, requests merged into it, and the last reopen. */
  turn_owner: ColumnType<string | null, string | null | undefined, string | null>;
  turn_expires_at: NullableTimestamp;
  turn_pending: Generated<boolean>;
  reopened_at: NullableTimestamp;
  seen_message_id: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
  closed_at: NullableTimestamp;
}

export interface GoalsTable {
  id: Generated<string>;
  session_id: string;
  goal: string;
  status: Generated<GoalStatus>;
  summary: string | null;
  created_at: Timestamp;
  closed_at: NullableTimestamp;
}

export interface MessagesTable {
  id: Generated<string>;
  session_id: string;
  role: MessageRole;
  content: Generated<string>;
  tool_calls: NullableJson<unknown>;
  tool_call_id: string | null;
  name: string | null;
  author: string | null;
  platform_event_id: string | null;
  /** A refused tool call's identity (policy/refusal-identity.ts refusalKey); null otherwise. migrations/0330 */
  refusal_key: Generated<string | null>;
  created_at: Timestamp;
}

export interface PlansTable {
  session_id: string;
  generation: number;
  status: Generated<PlanStatus>;
  needs_approval: Generated<boolean>;
  decided_by: string | null;
  decided_via: string | null;
  decided_at: NullableTimestamp;
  card_ref: NullableJson<JsonObject>;
  created_at: Timestamp;
  /** migrations/0352: the operator sent the plan back with what to do instead (issue #32). */
  changes_requested: NullableJson<ChangeRequest>;
}

/** An operator's "request changes" on a plan or an approval (migrations/0352). */
export interface ChangeRequest {
  by: string;
  via: string;
  reason: string;
  /** ISO time */
  at: string;
}

export interface PlanStepsTable {
  id: Generated<string>;
  session_id: string;
  generation: number;
  seq: number;
  title: string;
  detail: Generated<string>;
  target: string | null;
  risk: StepRisk | null;
  status: Generated<StepStatus>;
  note: string | null;
  execution_id: string | null;
  replaced_reason: ReplacedReason | null;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
  created_at: Timestamp;
}

export interface QuestionsTable {
  id: string;
  session_id: string;
  prompt: string;
  why: string | null;
  options: Json<string[]>;
  status: Generated<QuestionStatus>;
  answer: string | null;
  answered_by: string | null;
  card_ref: NullableJson<JsonObject>;
  created_at: Timestamp;
  answered_at: NullableTimestamp;
}

export interface ExecutionsTable {
  id: string;
  session_id: string | null;
  plan_generation: number | null;
  step_seq: number | null;
  target: string;
  command: string;
  command_key: string;
  risk: RunnableRisk;
  purpose: Generated<string>;
  status: ExecutionStatus;
  status_reason: string | null;
  requested_by: string;
  approval_id: string | null;
  timeout_ms: number;
  deadline_at: NullableTimestamp;
  exit_code: number | null;
  signal: string | null;
  stdout: string | null;
  stderr: string | null;
  output_bytes: ColumnType<string | null, number | string | null | undefined, number | string | null>;
  output_truncated: Generated<boolean>;
  stdout_binary: Generated<boolean>;
  stderr_binary: Generated<boolean>;
  /** migrations/0132: the resolved target it was approved for; null on rows from before. */
  routing: ColumnType<JsonObject | null, string | null | undefined, string | null>;
  /** How the gate meant it to run with respect to the read-only jail (migration 0170). */
  jail_plan: ColumnType<JailPlan, JailPlan | undefined, JailPlan>;
  /** It ran inside the read-only jail; null until it ran (or when the jail's start was cut short). */
  jailed: ColumnType<boolean | null, boolean | null | undefined, boolean | null>;
  /** Why it did not run jailed. */
  jail_note: ColumnType<string | null, string | null | undefined, string | null>;
  /** migrations/0300: the grants it runs with (policy/jail-grant.ts); [] fully contained; null before. */
  jail_grants: NullableJson<JailGrant[]>;
  /** migrations/0300: the engine that jailed it (jobs/ssh/jail-script.ts JAIL_ENGINES). */
  jail_engine: ColumnType<string | null, string | null | undefined, string | null>;
  /** migrations/0300: what the jail hid from it that it seems to have needed (policy/jail-hidden.ts). */
  jail_hidden: NullableJson<HiddenResource[]>;
  /** migrations/0140: the snapshot taken before this execution, or why none (store/execution-snapshot.ts). */
  snapshot: NullableJson<JsonObject>;
  /** migrations/0141: the execution whose snapshot this rollback restores. */
  rollback_of: ColumnType<string | null, string | null | undefined, string | null>;
  duration_ms: number | null;
  worker_id: string | null;
  heartbeat_at: NullableTimestamp;
  attempts: Generated<number>;
  cancel_requested_at: NullableTimestamp;
  cancel_requested_by: ColumnType<string | null, string | null | undefined, string | null>;
  /** migrations/0224: the agent was told it is still running, so its result is owed to the session. */
  result_owed: Generated<boolean>;
  created_at: Timestamp;
  queued_at: NullableTimestamp;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
}

export interface ApprovalsTable {
  id: string;
  session_id: string;
  subject: ApprovalSubject;
  execution_id: string | null;
  plan_generation: number | null;
  command_key: string | null;
  target: string | null;
  risk: RunnableRisk | null;
  status: Generated<ApprovalStatus>;
  required_phrase: string | null;
  decided_by: string | null;
  channel: string | null;
  decided_at: NullableTimestamp;
  expires_at: Timestamp;
  card_ref: NullableJson<JsonObject>;
  created_at: Timestamp;
  /** migrations/0350: the basis a standing grant of this approval would have; null: not grantable. */
  grant_basis: NullableJson<GrantBasis>;
  /** migrations/0350: this approval is a use of that standing grant (decided by it, not a person). */
  standing_grant_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** migrations/0353: the quorum this approval is judged against, once a first person approved. */
  quorum: NullableJson<Quorum & { requester: string | null }>;
  /** migrations/0352: the operator sent this approval back with what to do instead (issue #32). */
  changes_requested: NullableJson<ChangeRequest>;
  /** migrations/0351: why oikos cannot tell what the command changes; the card says so. */
  unreadable: ColumnType<UnreadableKind | null, UnreadableKind | null | undefined, UnreadableKind | null>;
}

/** migrations/0353: one person's approval of an execution that needs several (issue #32). */
export interface ApprovalVotesTable {
  approval_id: string;
  voter: string;
  via: string;
  created_at: Timestamp;
}

/** migrations/0350: an operator's standing grant of one command on one target (issue #32). */
export interface StandingGrantsTable {
  id: string;
  target: string;
  command: string;
  risk: GrantBasis["risk"];
  basis: Json<GrantBasis>;
  granted_by: string;
  granted_via: string;
  approval_id: string;
  session_id: string;
  platform: string;
  room: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  ended_at: NullableTimestamp;
  ended_by: ColumnType<string | null, string | null | undefined, string | null>;
  end_reason: ColumnType<GrantEndReason | null, GrantEndReason | null | undefined, GrantEndReason | null>;
  uses: Generated<number>;
  last_used_at: NullableTimestamp;
}

/** migrations/0150: a plan preview shown on an approval card, or computed again at approval (issue #15). */
export interface PreviewsTable {
  id: Generated<string>;
  session_id: string;
  execution_id: string;
  approval_id: string | null;
  purpose: PreviewPurpose;
  status: PlanPreview["status"];
  /** The PlanPreview (policy/preview/types.ts), read back through PlanPreviewSchema. */
  preview: Json<JsonObject>;
  computed_at: Timestamp;
  /** recheck rows: the gate's decision (`proceed:unchanged`, `ask_again:changed` …). */
  decision: string | null;
  /** shown rows of an execution that ran: the OutcomeCheck per expectation. */
  outcome: NullableJson<JsonObject[]>;
  outcome_at: NullableTimestamp;
  created_at: Generated<Date>;
}

/** migrations/0133: the routing change an approval with subject `routing` applies when approved. */
export interface RoutingChangesTable {
  approval_id: string;
  entity_slug: string;
  patch: Json<JsonObject>;
  before: Json<JsonObject>;
  after: Json<JsonObject>;
  reason: string;
  requested_by: string;
  applied_at: NullableTimestamp;
  created_at: Generated<Date>;
}

export interface WindowsTable {
  id: Generated<string>;
  session_id: string;
  kind: WindowKind;
  target: Generated<string>;
  opened_by: string;
  channel: string;
  opened_at: Timestamp;
  expires_at: Timestamp;
}

export interface ClassificationsTable {
  id: Generated<string>;
  session_id: string | null;
  target: string;
  command: string;
  command_key: string;
  risk: Risk;
  reasons: Json<string[]>;
  decision: string | null;
  created_at: Timestamp;
}

export interface FeedbackTable {
  id: Generated<string>;
  session_id: string;
  outcome: Outcome;
  plan_adherence: number | null;
  root_cause: string | null;
  notes: string | null;
  created_at: Timestamp;
}

export interface PatternsTable {
  id: Generated<string>;
  kind: string;
  key: string;
  description: string;
  occurrences: Generated<number>;
  suggested_runbook: string | null;
  last_seen_at: Timestamp;
  created_at: Timestamp;
  /** migrations/0361: the entities the pattern's tasks touched, and the words their goals share. */
  entity_slugs: Json<string[]>;
  symptom: Json<string[]>;
}

/** migrations/0361: an adopted runbook offered to a task (once per task). */
export interface RunbookOffersTable {
  knowledge_id: string;
  session_id: string;
  entity_slug: string;
  offered_at: Timestamp;
}

export interface AuditLogTable {
  id: Generated<string>;
  session_id: string | null;
  actor: string;
  action: string;
  subject: string | null;
  details: Json<JsonObject>;
  created_at: Timestamp;
}

export interface TokenUsageTable {
  id: Generated<string>;
  session_id: string | null;
  model: string;
  prompt_tokens: Generated<number>;
  completion_tokens: Generated<number>;
  total_tokens: Generated<number>;
  created_at: Timestamp;
}

export interface ChatEventsTable {
  platform: string;
  event_id: string;
  room: string | null;
  received_at: Timestamp;
  processed_at: NullableTimestamp;
}

export interface KvTable {
  key: string;
  value: Json<unknown>;
  updated_at: Timestamp;
}

export interface KnownHostsTable {
  host_port: string;
  fingerprint: string;
  first_seen_at: Timestamp;
}

export interface QueueJobsTable {
  id: string;
  queue: string;
  name: string;
  data: Json<unknown>;
  status: Generated<JobStatus>;
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  backoff_ms: Generated<number>;
  run_at: Timestamp;
  last_error: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A posted chat card and what it shows (migrations/0006_chat_cards.ts). */
export interface ChatCardsTable {
  platform: string;
  message_id: string;
  room: string;
  thread: string | null;
  kind: CardKind;
  session_id: string | null;
  subject_id: string;
  /** How the decision was given, in the room's words ("✅", "the Approve button"). */
  decision_note: string | null;
  created_at: Timestamp;
}

export interface ChatRefusalsTable {
  platform: string;
  user_id: string;
  refused_at: Timestamp;
}

/** migrations/0190_alerts.ts: one row per alert group (one chat thread). */
export interface AlertGroupsTable {
  id: string;
  source: string;
  source_kind: string;
  group_key: string;
  status: "firing" | "resolved";
  title: string;
  severity: string | null;
  labels: Json<Record<string, string>>;
  annotations: Json<Record<string, string>>;
  entities: Json<string[]>;
  /** label=value pairs that named no entity. */
  unmatched: Json<string[]>;
  /** What the agent is told about the alert (redacted): the session's first message. */
  brief: Generated<string>;
  platform: string | null;
  room: string | null;
  mentions: Json<string[]>;
  investigate: Generated<boolean>;
  investigation: ColumnType<
    "none" | "waiting" | "investigating" | "reported" | "skipped",
    "none" | "waiting" | "investigating" | "reported" | "skipped" | undefined
  >;
  thread: string | null;
  session_id: string | null;
  fire_count: Generated<number>;
  flap_count: Generated<number>;
  unposted: Generated<number>;
  first_seen_at: Timestamp;
  last_seen_at: Timestamp;
  last_posted_at: NullableTimestamp;
  resolved_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AlertsTable {
  group_id: string;
  source: string;
  group_key: string;
  fingerprint: string;
  status: "firing" | "resolved";
  labels: Json<Record<string, string>>;
  annotations: Json<Record<string, string>>;
  starts_at: NullableTimestamp;
  ends_at: NullableTimestamp;
  generator_url: string | null;
  first_seen_at: Timestamp;
  last_seen_at: Timestamp;
}

export interface AlertDeliveriesTable {
  id: string;
  source: string;
  group_id: string | null;
  outcome: string;
  payload: Json<unknown>;
  received_at: Timestamp;
}

/** migrations/0191_schedules.ts */
export interface ScheduleStateTable {
  name: string;
  paused: Generated<boolean>;
  changed_by: string | null;
  changed_at: Timestamp;
}

export interface ScheduleRunsTable {
  fire_id: string;
  schedule: string;
  session_id: string | null;
  outcome: "started" | "skipped_paused" | "skipped_unknown" | "quiet" | "reported";
  thread_state: ColumnType<"deferred" | "posted" | "quiet", "deferred" | "posted" | "quiet" | undefined>;
  fired_at: Timestamp;
  finished_at: NullableTimestamp;
}

export interface Database {
  entities: EntitiesTable;
  entity_attribute_changes: EntityAttributeChangesTable;
  entity_types: EntityTypesTable;
  entity_sightings: EntitySightingsTable;
  relationship_types: RelationshipTypesTable;
  relationships: RelationshipsTable;
  knowledge: KnowledgeTable;
  knowledge_about: KnowledgeAboutTable;
  sessions: SessionsTable;
  goals: GoalsTable;
  messages: MessagesTable;
  plans: PlansTable;
  plan_steps: PlanStepsTable;
  questions: QuestionsTable;
  executions: ExecutionsTable;
  approvals: ApprovalsTable;
  standing_grants: StandingGrantsTable;
  approval_votes: ApprovalVotesTable;
  routing_changes: RoutingChangesTable;
  previews: PreviewsTable;
  windows: WindowsTable;
  classifications: ClassificationsTable;
  feedback: FeedbackTable;
  patterns: PatternsTable;
  runbook_offers: RunbookOffersTable;
  audit_log: AuditLogTable;
  token_usage: TokenUsageTable;
  chat_events: ChatEventsTable;
  kv: KvTable;
  known_hosts: KnownHostsTable;
  queue_jobs: QueueJobsTable;
  chat_cards: ChatCardsTable;
  chat_refusals: ChatRefusalsTable;
  alert_groups: AlertGroupsTable;
  alerts: AlertsTable;
  alert_deliveries: AlertDeliveriesTable;
  schedule_state: ScheduleStateTable;
  schedule_runs: ScheduleRunsTable;
}

export type Session = Selectable<SessionsTable>;
export type NewSession = Insertable<SessionsTable>;
export type SessionUpdate = Updateable<SessionsTable>;
export type Execution = Selectable<ExecutionsTable>;
export type Approval = Selectable<ApprovalsTable>;
export type StandingGrant = Selectable<StandingGrantsTable>;
export type Entity = Selectable<EntitiesTable>;
export type PlanStep = Selectable<PlanStepsTable>;
export type Knowledge = Selectable<KnowledgeTable>;
