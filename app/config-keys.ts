/**
 * Every configuration key, its environment variable and what it means. The configuration reference
 * (docs/configuration.md) and the
 * env reader are both driven by this list, so a key cannot exist undocumented.
 */
export interface ConfigKey {
  /** Dotted path in the config object and in oikos.yaml. */
  path: string;
  env: string;
  doc: string;
  /** Shown in docs/configuration.md; the zod schema holds the real default. */
  defaultText: string;
  secret?: boolean;
}

export const CONFIG_KEYS: readonly ConfigKey[] = [
  {
    path: "dataDir",
    env: "OIKOS_DATA_DIR",
    doc: "Folder for the embedded database and local state",
    defaultText: "./data",
  },
  {
    path: "database.url",
    env: "DATABASE_URL",
    doc: "PostgreSQL URL; unset = embedded PGlite in `<dataDir>/pg`",
    defaultText: "(unset)",
    secret: true,
  },
  {
    path: "redis.url",
    env: "REDIS_URL",
    doc: "Redis URL for BullMQ queues and the event bus; unset = in-process queue",
    defaultText: "(unset)",
    secret: true,
  },
  {
    path: "redis.prefix",
    env: "OIKOS_REDIS_PREFIX",
    doc: "Key prefix for queues and events in Redis",
    defaultText: "oikos",
  },
  {
    path: "redis.lockMs",
    env: "OIKOS_QUEUE_LOCK_MS",
    doc: "A worker's hold on a running job lasts this long unless renewed; the jobs of a dead worker are recovered within about twice this",
    defaultText: "30000",
  },
  {
    path: "http.enabled",
    env: "OIKOS_HTTP_ENABLED",
    doc: "Serve `/healthz`, `/metrics` and `/mcp` over HTTP",
    defaultText: "false (true when OIKOS_HTTP_PORT is set)",
  },
  { path: "http.host", env: "OIKOS_HTTP_HOST", doc: "HTTP bind address", defaultText: "127.0.0.1" },
  { path: "http.port", env: "OIKOS_HTTP_PORT", doc: "HTTP port (0 picks a free one)", defaultText: "8420" },
  {
    path: "mcp.token",
    env: "OIKOS_MCP_TOKEN",
    doc: "Bearer token for the MCP endpoint `/mcp` (at least 16 characters): one operator token named `mcp`; more, with roles, under `mcp.tokens` (YAML); with none `/mcp` is not served",
    defaultText: "(unset)",
    secret: true,
  },
  {
    path: "model.baseUrl",
    env: "OPENAI_BASE_URL",
    doc: "OpenAI-compatible endpoint (OpenAI, vLLM, Ollama, LiteLLM …); unset = no agent turns, direct commands still work",
    defaultText: "(unset)",
  },
  {
    path: "model.apiKey",
    env: "OPENAI_API_KEY",
    doc: "API key for the model endpoint",
    defaultText: "(unset)",
    secret: true,
  },
  {
    path: "model.name",
    env: "OIKOS_MODEL",
    doc: "Model name sent to the endpoint",
    defaultText: "gpt-4.1-mini",
  },
  {
    path: "model.timeoutMs",
    env: "OIKOS_MODEL_TIMEOUT_MS",
    doc: "Timeout of one model request",
    defaultText: "120000",
  },
  {
    path: "model.maxIterations",
    env: "OIKOS_MODEL_MAX_ITERATIONS",
    doc: "Tool-call rounds (model calls) in one agent turn before a forced status report",
    defaultText: "12",
  },
  {
    path: "model.maxToolCallsPerTurn",
    env: "OIKOS_MODEL_MAX_TOOL_CALLS",
    doc: "Tool calls in one agent turn: when they are spent oikos ends the turn itself, tells the operator why, and waits for their reply",
    defaultText: "40",
  },
  {
    path: "model.maxRefusalsPerTurn",
    env: "OIKOS_MODEL_MAX_REFUSALS",
    doc: "Refused tool calls in one agent turn (each a different refusal: a repeated one ends the turn at once): when they are spent oikos ends the turn, tells the operator what was refused, and waits for their reply",
    defaultText: "6",
  },
  {
    path: "model.concurrentTurns",
    env: "OIKOS_CONCURRENT_TURNS",
    doc: "Turn slots: agent turns of different sessions that build their context and call the model at once per process (one session never runs two). Model calls are network-bound, so the default is generous; lower it for a rate-limited endpoint. A turn holds no slot while its tool calls run: one waiting for a command it started (`run`, `run_many`, a status wait) lets another session think",
    defaultText: "16",
  },
  {
    path: "shutdown.graceMs",
    env: "OIKOS_SHUTDOWN_GRACE_MS",
    doc: "On SIGTERM/SIGINT: the longest a stop takes (at least 1 s). No command starts once it begins; running agent turns and commands get the grace less 2 s to reach a checkpoint before they are abandoned (a turn resumes at the next start, an abandoned command is reported interrupted); past it the process exits anyway",
    defaultText: "10000",
  },
  {
    path: "log.level",
    env: "OIKOS_LOG_LEVEL",
    doc: "fatal, error, warn, info, debug, trace or silent",
    defaultText: "info",
  },
  {
    path: "log.file",
    env: "OIKOS_LOG_FILE",
    doc: "Write the JSON logs to this file instead of stderr. While the terminal chat runs they always go to a file (this one, else `<dataDir>/oikos.log`, said once at start) and warnings and errors also show as one short line",
    defaultText: "(stderr; `<dataDir>/oikos.log` while the terminal chat runs)",
  },
  {
    path: "inventory.file",
    env: "OIKOS_INVENTORY",
    doc: "Inventory file (Ansible YAML/INI) imported at start-up",
    defaultText: "(unset)",
  },
  {
    path: "ssh.privateKeyPath",
    env: "OIKOS_SSH_KEY",
    doc: "Private key for SSH targets; unset = ssh-agent via SSH_AUTH_SOCK",
    defaultText: "(unset)",
  },
  {
    path: "ssh.user",
    env: "OIKOS_SSH_USER",
    doc: "Default SSH user when a target names none",
    defaultText: "root",
  },
  {
    path: "ssh.knownHostsFile",
    env: "OIKOS_SSH_KNOWN_HOSTS",
    doc: "known_hosts file to verify host keys; unset = trust on first use, stored in the database",
    defaultText: "(unset)",
  },
  {
    path: "ssh.connectTimeoutMs",
    env: "OIKOS_SSH_CONNECT_TIMEOUT_MS",
    doc: "SSH connect timeout",
    defaultText: "10000",
  },
  {
    path: "ssh.maxConnections",
    env: "OIKOS_SSH_MAX_CONNECTIONS",
    doc: "SSH connections kept open across all targets (per worker); above it the least recently used idle one is closed",
    defaultText: "128",
  },
  {
    path: "execution.waitMs",
    env: "OIKOS_RUN_WAIT_MS",
    doc: "How long `run` waits for a result before returning the execution id",
    defaultText: "5000",
  },
  {
    path: "execution.concurrency",
    env: "OIKOS_EXECUTION_CONCURRENCY",
    doc: "Commands running at once per worker process, all targets together (on one target at most 4 at once)",
    defaultText: "64",
  },
  {
    path: "execution.timeoutMs",
    env: "OIKOS_RUN_TIMEOUT_MS",
    doc: "Default command timeout (the remote process is killed)",
    defaultText: "600000",
  },
  {
    path: "execution.assentWindowMs",
    env: "OIKOS_ASSENT_WINDOW_MS",
    doc: "How long an approved plan lets its config changes run without asking again (destructive steps always ask)",
    defaultText: "7200000 (2 h)",
  },
  {
    path: "execution.approvalTtlMs",
    env: "OIKOS_APPROVAL_TTL_MS",
    doc: "How long an approval card waits for a decision before it expires",
    defaultText: "3600000 (1 h)",
  },
  {
    path: "approvals.grantDays",
    env: "OIKOS_GRANT_DAYS",
    doc: "How long a standing grant (♾️ on an approval card, or “allow always”) lets the same command run again on the same target without asking, unless the operator names the days (“allow always for 30 days”); 1–90 (see [approvals](approvals.md))",
    defaultText: "7",
  },
  {
    path: "execution.maxOutputBytes",
    env: "OIKOS_RUN_MAX_OUTPUT",
    doc: "Output kept per stream (head and tail)",
    defaultText: "65536",
  },
  {
    path: "execution.readOnlyJail",
    env: "OIKOS_READONLY_JAIL",
    doc: "Read-only commands that run with nobody asked run contained in the read-only jail on the target, or not at all: `auto` (where a target cannot jail, each one asks the operator until the operator allows read-only commands unjailed there), `required` (the same, and that allowance is ignored), `off` (never contained); an entity's `jail.mode` attribute (set by the operator) overrides it (see [the read-only jail](jail.md))",
    defaultText: "auto",
  },
  {
    path: "execution.previews",
    env: "OIKOS_PREVIEWS",
    doc: "Plan previews on approval cards: `on` computes what a mutating command would change (read-only, on the target) before its card is posted and checks it again when approved; `off` shows none (see [plan previews](previews.md))",
    defaultText: "on",
  },
  {
    path: "execution.previewTimeoutMs",
    env: "OIKOS_PREVIEW_TIMEOUT_MS",
    doc: "How long computing a preview may hold up an approval card (or an approval); past it the card says the preview failed",
    defaultText: "15000",
  },
  {
    path: "execution.previewMaxAgeMs",
    env: "OIKOS_PREVIEW_MAX_AGE_MS",
    doc: "A preview older than this is computed again when the operator approves; if it changed, nothing runs and the operator is asked again (0: every approval looks again)",
    defaultText: "0",
  },
  {
    path: "execution.snapshotBefore",
    env: "OIKOS_SNAPSHOT_BEFORE",
    doc: "Snapshot a Proxmox guest (on snapshot-capable storage), or the ZFS datasets a change on a host touches, before `destructive` changes, before every change (`mutating`), or never (`off`); per entity under `execution.snapshotBeforeEntities` (YAML)",
    defaultText: "destructive",
  },
  {
    path: "execution.snapshotFailure",
    env: "OIKOS_SNAPSHOT_FAILURE",
    doc: "When that snapshot fails (a `vzdump` holds the guest's lock, the pool is full): `ask` — the change waits and its card asks the operator whether to run it without a snapshot; `run` — it runs unprotected and the card says so",
    defaultText: "ask",
  },
  {
    path: "proxmox.discoveryNodes",
    env: "OIKOS_PROXMOX_NODES",
    doc: "Comma-separated node entities (e.g. `host:pve`) the periodic Proxmox discovery reads through; empty = periodic discovery off",
    defaultText: "(none: off)",
  },
  {
    path: "proxmox.discoveryEveryMs",
    env: "OIKOS_PROXMOX_DISCOVERY_MS",
    doc: "How often the periodic Proxmox discovery runs",
    defaultText: "3600000 (1 h)",
  },
  {
    path: "proxmox.snapshotRetentionDays",
    env: "OIKOS_SNAPSHOT_RETENTION_DAYS",
    doc: "The retention sweep removes oikos's own snapshots (`oikos-…`) older than this many days, never any other; 0 keeps them",
    defaultText: "14",
  },
  {
    path: "self.targets",
    env: "OIKOS_SELF_TARGETS",
    doc: "Comma-separated entity slugs that run oikos itself (stop/restart/destroy needs a typed confirmation)",
    defaultText: "(none)",
  },
  {
    path: "chat.operators",
    env: "OIKOS_OPERATORS",
    doc: "Comma-separated user ids allowed to talk to and approve for the agent (all adapters)",
    defaultText: "(shell user only)",
  },
  {
    path: "chat.admins",
    env: "OIKOS_ADMINS",
    doc: "Comma-separated user ids allowed to run admin commands (sweeps, cancel)",
    defaultText: "(shell user only)",
  },
  {
    path: "chat.mention",
    env: "OIKOS_MENTION",
    doc: "Who approval, plan and question cards mention: `approvers` (the listed operators and admins, and the Slack operator group), `none`, or comma-separated ids (an on-call list); per room in `chat.rooms.<id>.mention`",
    defaultText: "approvers",
  },
  {
    path: "chat.shell.enabled",
    env: "OIKOS_SHELL",
    doc: "Terminal chat on stdin/stdout when oikos starts; unset: only when stdin is a TTY (otherwise oikos runs headless until SIGTERM/SIGINT)",
    defaultText: "(when stdin is a TTY)",
  },
  {
    path: "chat.shell.user",
    env: "OIKOS_SHELL_USER",
    doc: "Who you are in the terminal chat",
    defaultText: "operator",
  },
  {
    path: "chat.matrix.homeserverUrl",
    env: "MATRIX_HOMESERVER_URL",
    doc: "Matrix homeserver base URL; set with an access token to enable Matrix",
    defaultText: "(unset)",
  },
  {
    path: "chat.matrix.accessToken",
    env: "MATRIX_ACCESS_TOKEN",
    doc: "Access token of the bot account",
    defaultText: "(unset)",
    secret: true,
  },
  {
    path: "chat.matrix.userId",
    env: "MATRIX_USER_ID",
    doc: "Bot user id for password login (instead of an access token)",
    defaultText: "(unset)",
  },
  {
    path: "chat.matrix.password",
    env: "MATRIX_PASSWORD",
    doc: "Bot password: logs in at start, logs out at stop (no token stored)",
    defaultText: "(unset)",
    secret: true,
  },
  {
    path: "chat.matrix.rooms",
    env: "MATRIX_ROOMS",
    doc: "Comma-separated room ids the bot serves (and may join)",
    defaultText: "(none)",
  },
  {
    path: "chat.matrix.minPowerLevel",
    env: "MATRIX_MIN_POWER_LEVEL",
    doc: "Power level that also makes a room member an operator",
    defaultText: "(unset)",
  },
  {
    path: "chat.slack.botToken",
    env: "SLACK_BOT_TOKEN",
    doc: "Slack bot token (xoxb-…); set to enable Slack",
    defaultText: "(unset)",
    secret: true,
  },
  {
    path: "chat.slack.appToken",
    env: "SLACK_APP_TOKEN",
    doc: "Slack app-level token (xapp-…) for Socket Mode",
    defaultText: "(unset)",
    secret: true,
  },
  {
    path: "chat.slack.signingSecret",
    env: "SLACK_SIGNING_SECRET",
    doc: "Signing secret for HTTP mode",
    defaultText: "(unset)",
    secret: true,
  },
  { path: "chat.slack.mode", env: "SLACK_MODE", doc: "socket or http", defaultText: "socket" },
  {
    path: "chat.slack.port",
    env: "SLACK_PORT",
    doc: "HTTP mode: port Bolt listens on for Slack's requests (`/slack/events`)",
    defaultText: "3000",
  },
  {
    path: "chat.slack.operatorGroup",
    env: "SLACK_OPERATOR_GROUP",
    doc: "Slack user group id (S…) whose members are operators too",
    defaultText: "(unset)",
  },
  {
    path: "chat.slack.channels",
    env: "SLACK_CHANNELS",
    doc: "Comma-separated channel ids the bot serves",
    defaultText: "(none)",
  },
  {
    path: "chat.slack.requireMention",
    env: "SLACK_REQUIRE_MENTION",
    doc: "Only messages that mention the bot start a task (replies in a task's thread still count)",
    defaultText: "false",
  },
  {
    path: "chat.slack.apiUrl",
    env: "SLACK_API_URL",
    doc: "Base URL of Slack's Web API (ending in `/api/`) when not Slack's own `https://slack.com/api/`: an egress proxy, or a test double",
    defaultText: "(unset)",
  },
  {
    path: "alerts.maxBodyBytes",
    env: "OIKOS_ALERTS_MAX_BODY_BYTES",
    doc: "Largest alert webhook body accepted (bigger: 413)",
    defaultText: "262144",
  },
  {
    path: "alerts.minIntervalMs",
    env: "OIKOS_ALERTS_MIN_INTERVAL_MS",
    doc: "Flap damping: an alert group posts into its thread at most this often, and firing again this soon after resolving does not start a new investigation",
    defaultText: "600000 (10 min)",
  },
  {
    path: "alerts.maxConcurrent",
    env: "OIKOS_ALERTS_MAX_CONCURRENT",
    doc: "Alert investigations the agent works on at once; more wait their turn",
    defaultText: "3",
  },
];

/**
 * Keys that are lists or maps, so they are set in oikos.yaml only (no environment variable); the
 * configuration reference (docs/configuration.md) names each one outside the table.
 */
export const YAML_ONLY_KEYS = [
  "mcp.tokens",
  "execution.snapshotBeforeEntities",
  "approvals.rules",
  "chat.rooms",
  "alerts.sources",
  "alerts.routes",
  "schedules",
] as const;

/** The configuration reference table (docs/configuration.md), one row per key (`node scripts/config-table.ts` prints it). */
export function configTableMarkdown(): string {
  const rows = CONFIG_KEYS.map(
    (k) =>
      `| \`${k.env}\` | \`${k.path}\` | ${k.defaultText} | ${k.doc}${k.secret ? " (secret: never logged)" : ""} |`,
  );
  return ["| env | oikos.yaml key | default | meaning |", "| --- | --- | --- | --- |", ...rows].join("\n");
}
