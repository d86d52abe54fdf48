// The layer rules of ARCHITECTURE.md ("Layout"), checked by `npm run lint` (and so by .ci/run).
// Paths are relative to the repository root. A file counts as a test helper when it is a test,
// lives in test-support/, a `testing/` or `bench/` folder, or is named *test-support.ts; test
// helpers, scripts/ and evals/ drive the whole system and may import any layer.
const TEST_HELPER = [
  "\\.test\\.ts$",
  "^test-support/",
  "/testing/",
  "/bench/",
  "test-support\\.ts$",
  "^scripts/",
  "^evals/",
];
/** A layer's composition seam, imported only by app/compose.ts (and app/ types it may use). */
const SEAM = [
  "(^|/)capability\\.ts$",
  "^bot/(matrix|slack)/create\\.ts$",
  "^bot/(start-adapters|access-config)\\.ts$",
];
/** Packages that talk to the outside world; policy/ decides, it does no I/O. */
const IO_PACKAGES = [
  "^(node:)?(net|http|https|http2|child_process|cluster|dgram|dns|tls|worker_threads)$",
  "(^|node_modules/)(pg|ioredis|bullmq|kysely|ssh2|openai|pino|prom-client|matrix-bot-sdk)(/|$)",
  "(^|node_modules/)(@slack/[^/]+|@modelcontextprotocol/[^/]+|@electric-sql/pglite)(/|$)",
];

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
      to: { path: "^(agent|app|bot|intake|jobs|mcp-server|store|policy|migrations|evals|test-support)/" },
    },
    {
      name: "policy-is-pure",
      comment: "policy/ imports nothing of ours and no I/O package: it decides, it does no I/O.",
      severity: "error",
      from: { path: "^policy/", pathNot: TEST_HELPER },
      to: { path: "^(agent|app|bot|intake|jobs|mcp-server|store|migrations|evals|test-support)/" },
    },
    {
      name: "policy-does-no-io",
      comment: "policy/ imports no package that talks to the outside world.",
      severity: "error",
      from: { path: "^policy/", pathNot: TEST_HELPER },
      to: { path: IO_PACKAGES, dependencyTypesNot: ["type-only"] },
    },
    {
      name: "store-knows-no-layer-above",
      comment: "store/ imports only policy/ (and migrations/ to migrate).",
      severity: "error",
      from: { path: "^store/", pathNot: TEST_HELPER },
      to: { path: "^(agent|app|bot|intake|jobs|mcp-server|evals)/" },
    },
    {
      name: "jobs-know-no-agent-or-chat",
      comment: "jobs/ knows no agent, no chat, no MCP server and no intake: it runs what others enqueue.",
      severity: "error",
      from: { path: "^jobs/", pathNot: [...TEST_HELPER, ...SEAM] },
      to: { path: "^(agent|bot|mcp-server|intake|app)/" },
    },
    {
      name: "mcp-server-knows-no-chat",
      comment: "mcp-server/ knows no chat and no agent: it serves every client alike.",
      severity: "error",
      from: { path: "^mcp-server/", pathNot: [...TEST_HELPER, ...SEAM] },
      to: { path: "^(agent|bot|intake|app)/" },
    },
    {
      name: "agent-knows-no-chat",
      comment: "agent/ talks to chat only through events; it imports no bot/ and no intake/.",
      severity: "error",
      from: { path: "^agent/", pathNot: [...TEST_HELPER, ...SEAM] },
      to: { path: "^(bot|intake|app)/" },
    },
    {
      name: "bot-reaches-agent-through-jobs",
      comment: "bot/ reaches the agent only through queued jobs and events, and the MCP server not at all.",
      severity: "error",
      from: { path: "^bot/", pathNot: [...TEST_HELPER, ...SEAM] },
      to: { path: "^(agent|mcp-server|intake|app)/" },
    },
    {
      name: "intake-knows-no-agent-or-chat",
      comment: "intake/ stores, decides and enqueues; the bot posts and the agent investigates.",
      severity: "error",
      from: { path: "^intake/", pathNot: [...TEST_HELPER, ...SEAM] },
      to: { path: "^(agent|bot|mcp-server|app)/" },
    },
    {
      name: "seam-only-from-compose",
      comment: "a layer's capability.ts is its composition seam: only app/ composes it.",
      severity: "error",
      from: { path: "^(agent|bot|intake|jobs|mcp-server|store|policy)/", pathNot: [...TEST_HELPER, ...SEAM] },
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
      name: "no-cycles",
      comment:
        "modules form no import cycle (type-only imports included: they couple the same way). The " +
        "read-only prover is mutually recursive by design (a wrapper's inner command is proven again).",
      severity: "error",
      from: { pathNot: [...TEST_HELPER, "^policy/proof/"] },
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
