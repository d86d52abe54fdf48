// The layer rules of ARCHITECTURE.md ("Layout"), checked by `npm run lint` (and so by .ci/run).
// Paths are relative to the repository root. The "may import" column of the map is MAY_IMPORT below,
// file by file where the map names files; scripts/layer-rules.test.ts plants one violation per rule.
// (A query outside store/ is the one rule dependency-cruiser cannot see: biome's plugin
// lint/query-outside-store.grit checks it.)

/** Tests, shared test material (test-support/), tooling (scripts/) and evals/ drive the whole system. */
const TEST_HELPER = ["\\.test\\.ts$", "^test-support/", "^scripts/", "^evals/"];
/** Every folder of ours (vendor/ is excluded from the check). */
const OURS =
  "^(base|policy|store|migrations|jobs|mcp-server|agent|bot|intake|app|demo|bin|evals|test-support|scripts)/";
/**
 * A layer's composition seam, imported only by app/compose.ts: its capability.ts and the adapter
 * factories the bot's calls. The layer is group 1 (seam-wires-named-entry-points refers to it).
 */
const SEAM =
  "^(agent|bot|intake|jobs|mcp-server)/(capability|execution/capability|start-adapters|access-config|matrix/create|slack/create)\\.ts$";
/** What a seam may import of the root: the Capability/ComposeContext contract, the Runtime and Config types. */
const COMPOSITION_CONTRACT = "^app/(compose-context|runtime|config)\\.ts$";
/** The other layers' entry points a seam wires its layer to, by name (ARCHITECTURE.md). */
const SEAM_WIRING = [
  // the agent talks to an in-process MCP server it builds
  "^mcp-server/(server|in-memory)\\.ts$",
  // the schedule book's chat commands, registered by intake's capability
  "^bot/core/schedule-commands\\.ts$",
];

/**
 * ARCHITECTURE.md's "may import", per layer: besides itself and base/ (which every layer may
 * import), each layer imports only these.
 */
const MAY_IMPORT = {
  policy: [],
  store: [
    // pure: the risk and jail types, refusals, the typed-phrase normaliser, the routing keys, a guest's shell,
    // the entity types' checks, what discovery writes and the runbooks' symptom match (#33),
    // standing grants' basis (#32); the redactor at the storage boundary (#30)
    "^policy/(risk|jail|jail-grant|jail-hidden|decide-run|refusals|typed-phrase|routing|guest-shell|entity-types|discovery|runbook-match|standing-grant|unreadable|redact|quorum)\\.ts$",
    "^policy/preview/types\\.ts$",
  ],
  jobs: ["^policy/", "^store/"],
  "mcp-server": [
    "^policy/",
    "^store/",
    // enqueue, events, and the gated run service
    "^jobs/queue/port\\.ts$",
    "^jobs/events/(port|types)\\.ts$",
    "^jobs/execution/(run-service|fan-out|execution-view|output-frame)\\.ts$",
  ],
  agent: [
    "^store/",
    // the queue and event ports, the sweep registry, the one retry helper and keyed semaphore, an execution's view
    "^jobs/queue/(port|errors)\\.ts$",
    "^jobs/events/(port|types)\\.ts$",
    "^jobs/sweeps/registry\\.ts$",
    "^jobs/(retry|keyed-semaphore)\\.ts$",
    "^jobs/execution/(execution-view|output-frame)\\.ts$",
    // secrets out of model context, which results end a turn, who the agent is and how it names a session; the symptom a pattern's tasks share (#33)
    "^policy/(redact|tool-outcome|refusal-identity|turn-budget|principal|runbook-match)\\.ts$",
  ],
  bot: [
    "^store/",
    "^jobs/queue/port\\.ts$",
    "^jobs/events/(port|types)\\.ts$",
    "^jobs/retry\\.ts$",
    // an operator's rollback request
    "^jobs/proxmox/rollback\\.ts$",
    "^policy/(consent|typed-phrase|close-matches|redact|routing|jail|jail-grant|standing-grant|unreadable|change-request|quorum)\\.ts$",
    // what a card shows of a preview
    "^policy/preview/(types|compose-text)\\.ts$",
  ],
  intake: [
    "^store/",
    "^jobs/queue/(port|cron|errors)\\.ts$",
    "^jobs/events/(port|types)\\.ts$",
    "^policy/redact\\.ts$",
  ],
};

/** Packages that talk to the outside world; policy/ decides, it does no I/O. */
const IO_PACKAGES = [
  "^(node:)?(net|http|https|http2|child_process|cluster|dgram|dns|tls|worker_threads)$",
  "(^|node_modules/)(pg|ioredis|bullmq|kysely|ssh2|openai|pino|prom-client|matrix-bot-sdk)(/|$)",
  "(^|node_modules/)(@slack/[^/]+|@modelcontextprotocol/[^/]+|@electric-sql/pglite)(/|$)",
];
/** The query builder and the table types: persistence lives in store/ (migrations/ writes the DDL). */
const QUERY_BUILDER = ["(^|node_modules/)kysely(/|$)", "^store/schema\\.ts$"];

const WHY = {
  policy: "policy/ decides and does no I/O: it imports nothing of ours but base/.",
  store: "store/ imports no layer above it; of policy/ only the pure types and helpers the map names.",
  jobs: "jobs/ knows no agent, no chat, no MCP server and no intake: it runs what others enqueue.",
  "mcp-server":
    "mcp-server/ knows no chat and no agent, and of jobs/ only the queue, events and run service.",
  agent:
    "agent/ reaches chat only through events and the MCP server only as a client; it imports what the map names.",
  bot: "bot/ reaches the agent only through queued jobs and events, and the MCP server not at all.",
  intake: "intake/ stores, decides and enqueues; the bot posts and the agent investigates.",
};

/** One rule per layer: its files (not its seams) import only themselves, base/ and MAY_IMPORT. */
const layerRules = Object.entries(MAY_IMPORT).map(([layer, allowed]) => ({
  name: `${layer}-imports-what-the-map-names`,
  comment: WHY[layer],
  severity: "error",
  from: { path: `^${layer}/`, pathNot: [...TEST_HELPER, SEAM] },
  to: { path: OURS, pathNot: [`^${layer}/`, "^base/", ...allowed] },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "base-is-the-bottom",
      comment:
        "base/ holds the leaves every layer uses (the base error, the Logger type, the process role): " +
        "it imports nothing of ours, so the composition root in app/ sits on top.",
      severity: "error",
      from: { path: "^base/", pathNot: TEST_HELPER },
      to: { path: OURS, pathNot: "^base/" },
    },
    ...layerRules,
    {
      name: "policy-does-no-io",
      comment: "policy/ imports no package that talks to the outside world.",
      severity: "error",
      from: { path: "^policy/", pathNot: TEST_HELPER },
      to: { path: IO_PACKAGES, dependencyTypesNot: ["type-only"] },
    },
    {
      name: "migrations-import-only-kysely",
      comment:
        "a migration is DDL through kysely: no other package and nothing of ours (it must never change).",
      severity: "error",
      from: { path: "^migrations/", pathNot: TEST_HELPER },
      to: { pathNot: ["^migrations/", "(^|node_modules/)kysely(/|$)"] },
    },
    {
      name: "nothing-imports-migrations",
      comment: "only the migrator reads migrations/, by path (store/migrate.ts); no module imports one.",
      severity: "error",
      from: { pathNot: ["^migrations/", ...TEST_HELPER] },
      to: { path: "^migrations/" },
    },
    {
      name: "query-builder-only-in-store",
      comment:
        "every query lives in store/, one module per aggregate: no production file above it imports the " +
        "query builder or the table types of store/schema.ts (it takes store/db.ts Db and the aggregates' row types).",
      severity: "error",
      from: { pathNot: ["^store/", "^migrations/", ...TEST_HELPER] },
      to: { path: QUERY_BUILDER },
    },
    {
      name: "seam-wires-named-entry-points",
      comment:
        "a seam (capability.ts and the adapter factories it calls) wires its layer to store/, jobs/, " +
        "policy/ and the entry points the map names, with the root's contract types; nothing else.",
      severity: "error",
      from: { path: SEAM, pathNot: TEST_HELPER },
      to: {
        path: OURS,
        pathNot: ["^$1/", "^base/", "^store/", "^jobs/", "^policy/", COMPOSITION_CONTRACT, ...SEAM_WIRING],
      },
    },
    {
      name: "seam-only-from-compose",
      comment: "a layer's capability.ts is its composition seam: only app/ composes it.",
      severity: "error",
      from: { path: "^(agent|bot|intake|jobs|mcp-server|store|policy)/", pathNot: [...TEST_HELPER, SEAM] },
      to: { path: "(^|/)capability\\.ts$" },
    },
    {
      name: "nothing-imports-evals",
      comment: "evals/ drives the whole system; only `oikos eval` loads it, on demand.",
      severity: "error",
      from: { pathNot: ["^evals/", "^app/commands/eval\\.ts$"] },
      to: { path: "^evals/" },
    },
    {
      name: "eval-loaded-on-demand",
      comment: "`oikos eval` loads evals/ with import(), so `oikos help` stays light.",
      severity: "error",
      from: { path: "^app/commands/eval\\.ts$" },
      to: { path: "^evals/", dependencyTypesNot: ["dynamic-import"] },
    },
    {
      name: "nothing-imports-demo",
      comment:
        "demo/ (`oikos demo`) drives the whole app; only its command loads it, on demand (tests and evals " +
        "reuse its scripted model and fake tools).",
      severity: "error",
      from: { pathNot: ["^demo/", "^app/commands/demo\\.ts$", ...TEST_HELPER] },
      to: { path: "^demo/" },
    },
    {
      name: "demo-loaded-on-demand",
      comment: "`oikos demo` loads demo/ with import(), so `oikos help` stays light.",
      severity: "error",
      from: { path: "^app/commands/demo\\.ts$" },
      to: { path: "^demo/", dependencyTypesNot: ["dynamic-import"] },
    },
    {
      name: "production-imports-no-test-helper",
      comment: "test helpers live outside production code: production files import none of them.",
      severity: "error",
      from: { pathNot: TEST_HELPER },
      to: { path: TEST_HELPER, pathNot: "^evals/" },
    },
    {
      name: "test-material-lives-in-test-support",
      comment:
        "harnesses, corpora, samples, fixtures and benchmarks live in test-support/ (kept out of the image), " +
        "never in a testing/, testdata/, bench/ or corpus/ folder of a production layer.",
      severity: "error",
      from: { path: "/(testing|testdata|bench|corpus)/", pathNot: "^(test-support|evals|scripts)/" },
      to: {},
    },
    {
      name: "no-cycles",
      comment:
        "modules form no import cycle (type-only imports included: they couple the same way), evals/ and " +
        "the read-only prover included: the proof recurses through one entry point (policy/proof/context.ts " +
        "ProofContext.prove), never by importing itself back.",
      severity: "error",
      from: { pathNot: "\\.test\\.ts$" },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|vendor|data)/|^policy/second-parser/wasm_exec\\.cjs$" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".js", ".cjs", ".mjs", ".json"] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
