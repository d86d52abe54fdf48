import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { DEFAULT_CONCURRENT_TURNS } from "../agent/turn-slots.ts";
import { ConfigError } from "../base/errors.ts";
import { alertsSchema, schedulesSchema } from "../intake/config.ts";
import { DEFAULT_EXECUTE_CONCURRENCY } from "../jobs/execution/limits.ts";
import { DEFAULT_MAX_CONNECTIONS } from "../jobs/ssh/pool-limits.ts";
import { mcpSchema } from "../mcp-server/config.ts";
import { DEFAULT_JAIL_MODE, JAIL_MODES } from "../policy/jail.ts";
import { SNAPSHOT_BEFORE_MODES, SNAPSHOT_FAILURE_MODES } from "../policy/snapshot-before.ts";
import { DEFAULT_TURN_BUDGET } from "../policy/turn-budget.ts";
import { CONFIG_KEYS } from "./config-keys.ts";

const csv = z.preprocess(
  (v) =>
    typeof v === "string"
      ? v
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean)
      : v,
  z.array(z.string().min(1)),
);
const bool = z.preprocess((v) => {
  if (typeof v !== "string") return v;
  const s = v.trim().toLowerCase();
  if (["1", "true", "yes", "on"].includes(s)) return true;
  if (["0", "false", "no", "off"].includes(s)) return false;
  return v;
}, z.boolean());
const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const url = z.url({ protocol: /^[a-z][a-z0-9+.-]*$/ });
/** Who decision cards mention: `approvers`, `none`, or a list of ids (an on-call list). */
const mentionRule = z.preprocess(
  (v) => {
    if (typeof v !== "string") return v;
    const word = v.trim().toLowerCase();
    if (word === "approvers" || word === "none") return word;
    return v
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
  },
  z.union([z.enum(["approvers", "none"]), z.array(z.string().min(1))]),
);
// Strict: a misspelt key in an access rule must fail loudly, not silently grant nothing.
const roomAccess = z.strictObject({
  mention: mentionRule.optional(),
  operators: csv.optional(),
  admins: csv.optional(),
  minPowerLevel: int(0, 100).optional(),
  operatorGroup: z.string().min(1).optional(),
});
/**
 * An approver group of approvals.rules, as oikos.yaml writes it: `{ minPowerLevel: 50 }` (Matrix:
 * room members at that power level or above) or `{ userGroup: S0ONCALL, name: oncall }` (Slack).
 */
const approverGroup = z
  .strictObject({
    minPowerLevel: int(0, 100).optional(),
    userGroup: z
      .string()
      .regex(/^S[A-Z0-9]+$/, "a Slack user group id (S…), not its handle")
      .optional(),
    name: z.string().min(1).optional(),
  })
  .refine(
    (g) => (g.minPowerLevel === undefined) !== (g.userGroup === undefined),
    "an approver group is { minPowerLevel: <0–100> } (Matrix) or { userGroup: S…, name: <handle> } (Slack)",
  )
  .transform((g) =>
    g.userGroup === undefined
      ? { kind: "matrix_power_level" as const, atLeast: g.minPowerLevel ?? 0 }
      : {
          kind: "slack_usergroup" as const,
          id: g.userGroup,
          ...(g.name !== undefined ? { name: g.name } : {}),
        },
  );
const roomId = z
  .string()
  .min(1)
  .refine((key) => !key.startsWith("#"), "use the room id (!…:server), not a room alias");

export const ConfigSchema = z.object({
  dataDir: z.string().min(1).default("./data"),
  database: z.object({ url: url.optional() }).prefault({}),
  redis: z
    .object({
      url: url.optional(),
      prefix: z.string().min(1).default("oikos"),
      lockMs: int(2_000, 600_000).default(30_000),
    })
    .prefault({}),
  http: z
    .object({
      enabled: bool.optional(),
      host: z.string().min(1).default("127.0.0.1"),
      port: int(0, 65535).default(8420),
    })
    .prefault({}),
  /** On SIGTERM/SIGINT: how long running turns and commands get to reach a checkpoint before they are abandoned. */
  shutdown: z.object({ graceMs: int(0, 600_000).default(10_000) }).prefault({}),
  mcp: mcpSchema,
  model: z
    .object({
      baseUrl: url.optional(),
      apiKey: z.string().min(1).optional(),
      name: z.string().min(1).default("gpt-4.1-mini"),
      timeoutMs: int(1000, 3_600_000).default(120_000),
      maxIterations: int(1, 100).default(DEFAULT_TURN_BUDGET.modelCalls),
      maxToolCallsPerTurn: int(1, 1000).default(DEFAULT_TURN_BUDGET.toolCalls),
      maxRefusalsPerTurn: int(1, 100).default(DEFAULT_TURN_BUDGET.refusals),
      concurrentTurns: int(1, 256).default(DEFAULT_CONCURRENT_TURNS),
    })
    .prefault({}),
  log: z
    .object({
      level: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
      file: z.string().min(1).optional(),
    })
    .prefault({}),
  inventory: z.object({ file: z.string().min(1).optional() }).prefault({}),
  ssh: z
    .object({
      privateKeyPath: z.string().min(1).optional(),
      user: z.string().min(1).default("root"),
      knownHostsFile: z.string().min(1).optional(),
      connectTimeoutMs: int(100, 600_000).default(10_000),
      maxConnections: int(1, 10_000).default(DEFAULT_MAX_CONNECTIONS),
    })
    .prefault({}),
  execution: z
    .object({
      waitMs: int(0, 60_000).default(5_000),
      concurrency: int(1, 1024).default(DEFAULT_EXECUTE_CONCURRENCY),
      timeoutMs: int(1_000, 86_400_000).default(600_000),
      maxOutputBytes: int(1024, 16 * 1024 * 1024).default(65_536),
      assentWindowMs: int(60_000, 7 * 86_400_000).default(2 * 3_600_000),
      approvalTtlMs: int(60_000, 7 * 86_400_000).default(3_600_000),
      readOnlyJail: z.enum(JAIL_MODES).default(DEFAULT_JAIL_MODE),
      /** Plan previews on approval cards (issue #15): computed read-only before the card is posted. */
      previews: z.enum(["on", "off"]).default("on"),
      /** How long computing a preview may hold up an approval card or an operator's approval. */
      previewTimeoutMs: int(1_000, 120_000).default(15_000),
      /** A shown preview older than this is computed again when approved (0: every approval). */
      previewMaxAgeMs: int(0, 7 * 86_400_000).default(0),
      /** Snapshot a Proxmox guest before: destructive changes, all changes (mutating), or never (off). */
      snapshotBefore: z.enum(SNAPSHOT_BEFORE_MODES).default("destructive"),
      /** Per entity slug, overriding snapshotBefore (YAML only). */
      snapshotBeforeEntities: z.record(z.string(), z.enum(SNAPSHOT_BEFORE_MODES)).default({}),
      /** When that snapshot fails: the change waits for the operator (ask) or runs unprotected (run). */
      snapshotFailure: z.enum(SNAPSHOT_FAILURE_MODES).default("ask"),
    })
    .prefault({}),
  /** Approvals that scale with people (issue #32). */
  approvals: z
    .object({
      /** How long a standing grant (♾️) lasts unless the operator names the days; at most 90. */
      grantDays: int(1, 90).default(7),
      /** Quorum and separation of duties per room, entity or risk (policy/quorum.ts); YAML only. */
      rules: z
        .array(
          z.strictObject({
            room: z.string().min(1).optional(),
            entities: z.array(z.string().min(1)).min(1).optional(),
            risks: z
              .array(z.enum(["read_only", "config_mutation", "destructive"]))
              .min(1)
              .optional(),
            approvals: int(1, 5).default(1),
            separateRequester: z.boolean().default(false),
            approvers: z.array(z.string().min(1)).min(1).optional(),
            /** Groups the chat platform keeps, read when someone decides (policy/quorum.ts ApproverGroup). */
            approverGroups: z.array(approverGroup).min(1).optional(),
          }),
        )
        .default([]),
    })
    .prefault({}),
  proxmox: z
    .object({
      /** Node entities the periodic discovery reads through; discovery is off while this is empty. */
      discoveryNodes: csv.default([]),
      /** How often the periodic discovery runs. */
      discoveryEveryMs: int(60_000, 7 * 86_400_000).default(3_600_000),
      /** oikos snapshots older than this many days are removed by the retention sweep (0 keeps them). */
      snapshotRetentionDays: int(0, 3650).default(14),
    })
    .prefault({}),
  self: z.object({ targets: csv.default([]) }).prefault({}),
  chat: z
    .object({
      operators: csv.default([]),
      admins: csv.default([]),
      mention: mentionRule.default("approvers"),
      /** Per room id / channel id: its own operators and admins (YAML only; see docs/chat.md). */
      rooms: z.record(roomId, roomAccess).default({}),
      shell: z
        .object({
          /** Unset: the terminal chat starts only when stdin is a TTY (headless under systemd, nohup, </dev/null). */
          enabled: bool.optional(),
          user: z.string().min(1).default("operator"),
        })
        .prefault({}),
      matrix: z
        .object({
          homeserverUrl: url.optional(),
          accessToken: z.string().min(1).optional(),
          userId: z.string().min(1).optional(),
          password: z.string().min(1).optional(),
          rooms: csv.default([]),
          minPowerLevel: int(0, 100).optional(),
        })
        .prefault({}),
      slack: z
        .object({
          botToken: z.string().startsWith("xoxb-", "must be a bot token starting with xoxb-").optional(),
          appToken: z
            .string()
            .startsWith("xapp-", "must be an app-level token starting with xapp-")
            .optional(),
          signingSecret: z.string().min(1).optional(),
          mode: z.enum(["socket", "http"]).default("socket"),
          port: int(0, 65535).default(3000),
          operatorGroup: z.string().min(1).optional(),
          channels: csv.default([]),
          requireMention: bool.default(false),
          /** Where the Web API is (a proxy, or a test double); Slack's own by default. */
          apiUrl: url.optional(),
        })
        .prefault({}),
    })
    .prefault({}),
  /** Webhook alert intake and routing (YAML for sources and routes; see docs/alerts-and-schedules.md). */
  alerts: alertsSchema,
  /** Cron schedules that start a task in a room (YAML only). */
  schedules: schedulesSchema,
});

export type Config = z.infer<typeof ConfigSchema>;

export interface LoadConfigOptions {
  env?: NodeJS.ProcessEnv;
  /** Path of a YAML file; default: OIKOS_CONFIG, else ./oikos.yaml when it exists. */
  file?: string;
  cwd?: string;
}

/** Reads oikos.yaml (optional) and the environment (wins), validates, and explains what is wrong. */
export function loadConfig(options: LoadConfigOptions = {}): Config {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const explicit = options.file ?? env.OIKOS_CONFIG;
  const file = explicit ? resolve(cwd, explicit) : resolve(cwd, "oikos.yaml");
  let raw: Record<string, unknown> = {};
  if (explicit && !existsSync(file)) {
    throw new ConfigError(`Config file ${file} does not exist (named by OIKOS_CONFIG).`);
  }
  if (existsSync(file)) raw = readYamlObject(file);
  for (const key of CONFIG_KEYS) {
    const value = env[key.env];
    if (value !== undefined && value !== "") setPath(raw, key.path, value);
  }
  const parsed = ConfigSchema.safeParse(raw);
  if (!parsed.success) throw new ConfigError(describeIssues(parsed.error));
  const config = parsed.data;
  // Naming a port (env or file) is asking for the HTTP server; otherwise it stays off.
  config.http.enabled ??= (raw.http as { port?: unknown } | undefined)?.port !== undefined;
  if (config.chat.admins.length === 0 && config.chat.operators.length === 0) {
    config.chat.operators = [config.chat.shell.user];
    config.chat.admins = [config.chat.shell.user];
  }
  config.dataDir = resolve(cwd, config.dataDir);
  return config;
}

function readYamlObject(file: string): Record<string, unknown> {
  let doc: unknown;
  try {
    doc = parseYaml(readFileSync(file, "utf8"));
  } catch (error) {
    throw new ConfigError(`Config file ${file} is not valid YAML: ${(error as Error).message}`);
  }
  if (doc === null || doc === undefined) return {};
  if (typeof doc !== "object" || Array.isArray(doc)) {
    throw new ConfigError(`Config file ${file} must hold a mapping of keys (see docs/configuration.md).`);
  }
  return doc as Record<string, unknown>;
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split(".");
  let node = target;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    if (typeof next !== "object" || next === null) node[part] = {};
    node = node[part] as Record<string, unknown>;
  }
  node[parts.at(-1)!] = value;
}

function describeIssues(error: z.ZodError): string {
  const lines = error.issues.map((issue) => {
    const path = formatPath(issue.path);
    const key = CONFIG_KEYS.find((k) => k.path === path);
    const where = key ? `${path} (env ${key.env})` : path || "(root)";
    // A bad record key (a room alias in chat.rooms) carries the reason one level down.
    const message =
      issue.code === "invalid_key" ? (issue.issues[0]?.message ?? issue.message) : issue.message;
    return `- ${where}: ${message}`;
  });
  return `Invalid configuration:\n${lines.join("\n")}\nSee the configuration reference in docs/configuration.md.`;
}

/** `chat.rooms["!ops:example.org"].admins`: keys that are not plain names (room ids) quoted. */
function formatPath(path: readonly PropertyKey[]): string {
  return path
    .map((part, i) => {
      const text = String(part);
      if (typeof part === "number" || /^[A-Za-z_][A-Za-z0-9_]*$/.test(text))
        return i === 0 ? text : `.${text}`;
      return `[${JSON.stringify(text)}]`;
    })
    .join("");
}

/** A URL without credentials, query or fragment. */
export function safeUrl(value: string): string {
  try {
    const u = new URL(value);
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/$/, "")}`;
  } catch {
    return "(invalid url)";
  }
}
