import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

// The layer check `npm run lint` runs (.dependency-cruiser.cjs), run on small planted trees: each
// forbidden import makes it fail naming its rule, and the allowed shapes pass.

const repo = join(dirname(fileURLToPath(import.meta.url)), "..");
const depcruise = join(repo, "node_modules", "dependency-cruiser", "bin", "dependency-cruiser.mjs");
const biome = join(repo, "node_modules", "@biomejs", "biome", "bin", "biome");

/** Writes `files` (path → source) into a fresh tree and runs the layer check over it. */
function checkTree(files: Record<string, string>): { code: number | null; output: string } {
  const root = mkdtempSync(join(tmpdir(), "oikos-layers-"));
  try {
    writeFileSync(
      join(root, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          module: "NodeNext",
          moduleResolution: "NodeNext",
          allowImportingTsExtensions: true,
        },
      }),
    );
    for (const [path, source] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), source);
    }
    const run = spawnSync(
      process.execPath,
      [depcruise, "--config", join(repo, ".dependency-cruiser.cjs"), "--output-type", "err", "."],
      { cwd: root, encoding: "utf8" },
    );
    // One line per violation (a cycle's modules wrap onto the next lines): "error rule: a → b".
    return { code: run.status, output: `${run.stdout}${run.stderr}`.replace(/\s+/g, " ") };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const leaf = () => "export const x = 1;\n";
const importing = (...paths: string[]) =>
  `${paths.map((p, i) => `import { x as x${i} } from "${p}";`).join("\n")}\nexport const x = 1;\n`;

/** One forbidden import per rule (the file named first imports the one named second). */
const PLANTED: { rule: string; from: string; to: string }[] = [
  { rule: "base-is-the-bottom", from: "base/errors.ts", to: "policy/redact.ts" },
  { rule: "base-is-the-bottom", from: "base/logger.ts", to: "app/config.ts" },
  { rule: "policy-imports-what-the-map-names", from: "policy/decide.ts", to: "store/db.ts" },
  { rule: "policy-does-no-io", from: "policy/dial.ts", to: "node:net" },
  { rule: "store-imports-what-the-map-names", from: "store/sessions.ts", to: "jobs/queue.ts" },
  // of policy/, store/ imports only the pure types and helpers the map names
  { rule: "store-imports-what-the-map-names", from: "store/consent.ts", to: "policy/classify.ts" },
  { rule: "jobs-imports-what-the-map-names", from: "jobs/worker.ts", to: "bot/post.ts" },
  { rule: "jobs-imports-what-the-map-names", from: "jobs/continue.ts", to: "agent/turn.ts" },
  { rule: "mcp-server-imports-what-the-map-names", from: "mcp-server/tools/run.ts", to: "bot/post.ts" },
  // of jobs/, the MCP server imports the queue, the events and the run service only
  {
    rule: "mcp-server-imports-what-the-map-names",
    from: "mcp-server/tools/exec.ts",
    to: "jobs/ssh/ssh-pool.ts",
  },
  { rule: "agent-imports-what-the-map-names", from: "agent/reply.ts", to: "bot/post.ts" },
  // the agent is an MCP client: the server's session context is not its to import
  {
    rule: "agent-imports-what-the-map-names",
    from: "agent/tool-gateway.ts",
    to: "mcp-server/session-context.ts",
  },
  { rule: "agent-imports-what-the-map-names", from: "agent/turn.ts", to: "policy/classify.ts" },
  { rule: "bot-imports-what-the-map-names", from: "bot/core/chat-core.ts", to: "agent/turn.ts" },
  { rule: "bot-imports-what-the-map-names", from: "bot/core/cards.ts", to: "app/config.ts" },
  { rule: "bot-imports-what-the-map-names", from: "bot/core/admin.ts", to: "jobs/execution/run-service.ts" },
  { rule: "intake-imports-what-the-map-names", from: "intake/alerts/intake.ts", to: "bot/post.ts" },
  { rule: "intake-imports-what-the-map-names", from: "intake/alerts/brief.ts", to: "policy/classify.ts" },
  { rule: "migrations-import-only-kysely", from: "migrations/0400_x.ts", to: "store/statuses.ts" },
  { rule: "migrations-import-only-kysely", from: "migrations/0401_y.ts", to: "pg" },
  { rule: "nothing-imports-migrations", from: "store/migrate.ts", to: "migrations/0400_x.ts" },
  { rule: "query-builder-only-in-store", from: "bot/core/queue-card.ts", to: "kysely" },
  { rule: "query-builder-only-in-store", from: "agent/history.ts", to: "store/schema.ts" },
  // a seam wires its layer to store/, jobs/, policy/ and the named entry points only
  { rule: "seam-wires-named-entry-points", from: "intake/capability.ts", to: "agent/turn.ts" },
  { rule: "seam-wires-named-entry-points", from: "bot/slack/create.ts", to: "app/serve.ts" },
  { rule: "seam-only-from-compose", from: "mcp-server/server.ts", to: "jobs/execution/capability.ts" },
  { rule: "nothing-imports-evals", from: "app/serve.ts", to: "evals/run-evals.ts" },
  { rule: "eval-loaded-on-demand", from: "app/commands/eval.ts", to: "evals/run-evals.ts" },
  { rule: "nothing-imports-demo", from: "app/serve.ts", to: "demo/run-demo.ts" },
  { rule: "demo-loaded-on-demand", from: "app/commands/demo.ts", to: "demo/run-demo.ts" },
  { rule: "production-imports-no-test-helper", from: "demo/run-demo.ts", to: "test-support/store.ts" },
  { rule: "production-imports-no-test-helper", from: "store/pool.ts", to: "test-support/db.ts" },
  { rule: "test-material-lives-in-test-support", from: "agent/testing/fake-model.ts", to: "agent/turn.ts" },
  { rule: "test-material-lives-in-test-support", from: "policy/corpus/read-only.ts", to: "policy/risk.ts" },
  // The cycle a capability importing the root for a type made (the root imports the capability).
  { rule: "no-cycles", from: "agent/capability.ts", to: "app/compose.ts → agent/capability.ts" },
  // evals/ is in the cycle check (a lab importing the manifest that imports it)
  {
    rule: "no-cycles",
    from: "evals/harness/manifest.ts",
    to: "evals/lab/homelab.ts → evals/harness/manifest.ts",
  },
  // and so is the read-only prover: it recurses through ProofContext.prove, never by importing back
  {
    rule: "no-cycles",
    from: "policy/proof/argv.ts",
    to: "policy/proof/wrappers.ts → policy/proof/argv.ts",
  },
];
/** Allowed imports the planted ones need (the other half of the cycle). */
const ALLOWED_EDGES = [
  { from: "app/compose.ts", to: "agent/capability.ts" },
  { from: "evals/lab/homelab.ts", to: "evals/harness/manifest.ts" },
  { from: "policy/proof/wrappers.ts", to: "policy/proof/argv.ts" },
];

const relative = (from: string, to: string): string => {
  if (!to.includes("/")) return to; // a package or a node: module
  const up = from.split("/").length - 1;
  return `${"../".repeat(up)}${to}`;
};

test("every rule of the layer check has a planted violation here", () => {
  const config = createRequire(import.meta.url)(join(repo, ".dependency-cruiser.cjs")) as {
    forbidden: { name: string }[];
  };
  const planted = new Set(PLANTED.map((p) => p.rule));
  assert.deepEqual(
    config.forbidden.map((rule) => rule.name).filter((name) => !planted.has(name)),
    [],
  );
});

test("the layer check fails on each planted violation, naming its rule and the import", () => {
  const files: Record<string, string> = {};
  for (const { from, to: reported } of [...PLANTED, ...ALLOWED_EDGES]) {
    const to = reported.split(" → ")[0] ?? reported;
    files[from] = `${files[from] ?? ""}import "${relative(from, to)}";\n`;
    if (to.includes("/")) files[to] ??= leaf();
  }
  const { code, output } = checkTree(files);
  assert.notEqual(code, 0, output);
  for (const { rule, from, to } of PLANTED) {
    const target = to.startsWith("node:") ? to.slice("node:".length) : to;
    assert.ok(
      output.includes(`error ${rule}: ${from} → ${target}`),
      `${rule}: ${from} → ${to} not reported in: ${output}`,
    );
  }
});

test("the layer check passes the allowed shapes: leaves, the map's imports, seams, test helpers, on-demand evals", () => {
  const { code, output } = checkTree({
    "base/errors.ts": leaf(),
    "base/logger.ts": leaf(),
    "app/runtime.ts": leaf(),
    "app/config.ts": leaf(),
    "app/compose-context.ts": importing("./runtime.ts"),
    "app/compose.ts": importing("../agent/capability.ts", "../bot/capability.ts", "../intake/capability.ts"),
    "app/commands/eval.ts":
      'export async function run() {\n  return import("../../evals/run-evals.ts");\n}\n',
    "evals/run-evals.ts": importing("../app/compose.ts", "../test-support/db.ts", "../store/schema.ts"),
    "test-support/db.ts": importing("../store/db.ts", "kysely"),
    "policy/risk.ts": importing("../base/errors.ts"),
    "policy/redact.ts": leaf(),
    "policy/classify.ts": importing("./risk.ts"),
    "store/schema.ts": importing("kysely", "../policy/risk.ts"),
    "store/db.ts": importing("./schema.ts", "kysely"),
    "migrations/0001_core.ts": importing("kysely", "./statements.ts"),
    "migrations/statements.ts": importing("kysely"),
    "jobs/queue/port.ts": importing("../../store/db.ts", "../../policy/classify.ts"),
    "jobs/execution/run-service.ts": importing("../queue/port.ts", "../../policy/classify.ts"),
    "mcp-server/server.ts": importing("../jobs/execution/run-service.ts", "../store/db.ts"),
    "agent/turn.ts": importing("../jobs/queue/port.ts", "../store/db.ts", "../policy/redact.ts"),
    "agent/capability.ts": importing(
      "../app/compose-context.ts",
      "../app/runtime.ts",
      "./turn.ts",
      "../mcp-server/server.ts",
    ),
    "agent/turn.test.ts": importing("./turn.ts", "../bot/post.ts", "../test-support/db.ts", "kysely"),
    "bot/post.ts": importing("../jobs/queue/port.ts", "../store/db.ts", "../base/logger.ts"),
    "bot/capability.ts": importing("../app/compose-context.ts", "./post.ts"),
    "bot/access-config.ts": importing("../app/config.ts"),
    "bot/core/schedule-commands.ts": importing("../post.ts"),
    "intake/capability.ts": importing("../app/compose-context.ts", "../bot/core/schedule-commands.ts"),
  });
  assert.equal(code, 0, output);
  assert.ok(output.includes("no dependency violations found"), output);
});

// The one rule dependency-cruiser cannot see: a query built above store/ on a handle it was given.
// biome.json applies scripts/query-outside-store.grit to production files outside store/ and migrations/.
test("lint fails on a query outside store/, and only there", () => {
  const root = mkdtempSync(join(tmpdir(), "oikos-queries-"));
  try {
    const config = JSON.parse(readFileSync(join(repo, "biome.json"), "utf8")) as Record<string, unknown>;
    delete config.vcs; // the planted tree is no git repository
    writeFileSync(join(root, "biome.json"), JSON.stringify(config));
    mkdirSync(join(root, "scripts"));
    copyFileSync(
      join(repo, "scripts", "query-outside-store.grit"),
      join(root, "scripts", "query-outside-store.grit"),
    );
    const query = (name: string) =>
      `export function ${name}(db: { selectFrom(t: string): unknown }) {\n  return db.selectFrom("sessions");\n}\n`;
    const planted: Record<string, string> = {
      "bot/core/waiting.ts": query("waitingSessions"),
      "agent/idle.ts":
        "export async function idle(db: { transaction(): unknown }) {\n  return db.transaction();\n}\n",
      "store/sessions.ts": query("sessions"),
      "migrations/0400_x.ts": query("migrate"),
      "bot/core/waiting.test.ts": query("assertWaiting"),
      "test-support/rows.ts": query("rows"),
    };
    for (const [path, source] of Object.entries(planted)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), source);
    }
    const run = spawnSync(process.execPath, [biome, "lint", "--max-diagnostics=50", "."], {
      cwd: root,
      encoding: "utf8",
    });
    const output = `${run.stdout}${run.stderr}`;
    assert.notEqual(run.status, 0, output);
    const flagged = [...output.matchAll(/^(\S+):\d+:\d+ plugin/gm)].map((m) => m[1]).sort();
    assert.deepEqual(flagged, ["agent/idle.ts", "bot/core/waiting.ts"], output);
    assert.match(output, /A query outside store\/: add a named function to the store\/ module/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
