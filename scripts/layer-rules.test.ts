import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

// The layer check `npm run lint` runs (.dependency-cruiser.cjs), run on small planted trees: each
// forbidden import makes it fail naming its rule, and the allowed shapes pass.

const repo = join(dirname(fileURLToPath(import.meta.url)), "..");
const depcruise = join(repo, "node_modules", "dependency-cruiser", "bin", "dependency-cruiser.mjs");

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
  { rule: "policy-is-pure", from: "policy/decide.ts", to: "store/db.ts" },
  { rule: "policy-does-no-io", from: "policy/dial.ts", to: "node:net" },
  { rule: "store-knows-no-layer-above", from: "store/sessions.ts", to: "jobs/queue.ts" },
  { rule: "jobs-know-no-agent-or-chat", from: "jobs/worker.ts", to: "bot/post.ts" },
  { rule: "jobs-know-no-agent-or-chat", from: "jobs/continue.ts", to: "agent/turn.ts" },
  { rule: "mcp-server-knows-no-chat", from: "mcp-server/tools/run.ts", to: "bot/post.ts" },
  { rule: "bot-reaches-agent-through-jobs", from: "bot/core/chat-core.ts", to: "agent/turn.ts" },
  { rule: "bot-reaches-agent-through-jobs", from: "bot/core/cards.ts", to: "app/config.ts" },
  { rule: "intake-knows-no-agent-or-chat", from: "intake/alerts/intake.ts", to: "bot/post.ts" },
  { rule: "agent-knows-no-chat", from: "agent/reply.ts", to: "bot/post.ts" },
  { rule: "seam-only-from-compose", from: "mcp-server/server.ts", to: "jobs/execution/capability.ts" },
  { rule: "nothing-imports-evals", from: "app/serve.ts", to: "evals/run-evals.ts" },
  { rule: "eval-loaded-on-demand", from: "app/commands/eval.ts", to: "evals/run-evals.ts" },
  { rule: "nothing-imports-demo", from: "app/serve.ts", to: "demo/run-demo.ts" },
  { rule: "demo-loaded-on-demand", from: "app/commands/demo.ts", to: "demo/run-demo.ts" },
  { rule: "production-imports-no-test-helper", from: "demo/run-demo.ts", to: "test-support/store.ts" },
  { rule: "production-imports-no-test-helper", from: "agent/loop.ts", to: "agent/testing/fake-model.ts" },
  { rule: "production-imports-no-test-helper", from: "store/pool.ts", to: "test-support/db.ts" },
  // The cycle a capability importing the root for a type made (the root imports the capability).
  { rule: "no-cycles", from: "agent/capability.ts", to: "app/compose.ts → agent/capability.ts" },
];
/** Allowed imports the planted ones need (the other half of the cycle). */
const ALLOWED_EDGES = [{ from: "app/compose.ts", to: "agent/capability.ts" }];

const relative = (from: string, to: string): string => {
  if (to.startsWith("node:")) return to;
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
    if (!to.startsWith("node:")) files[to] ??= leaf();
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

test("the layer check passes the allowed shapes: leaves, seams, test helpers, on-demand evals", () => {
  const { code, output } = checkTree({
    "base/errors.ts": leaf(),
    "base/logger.ts": leaf(),
    "app/runtime.ts": leaf(),
    "app/compose-context.ts": importing("./runtime.ts"),
    "app/compose.ts": importing("../agent/capability.ts", "../bot/capability.ts"),
    "app/commands/eval.ts":
      'export async function run() {\n  return import("../../evals/run-evals.ts");\n}\n',
    "evals/run-evals.ts": importing("../app/compose.ts", "../test-support/db.ts"),
    "test-support/db.ts": importing("../store/db.ts"),
    "policy/decide.ts": importing("../base/errors.ts"),
    "store/db.ts": importing("../policy/decide.ts"),
    "jobs/queue.ts": importing("../store/db.ts", "../policy/decide.ts"),
    "agent/turn.ts": importing("../jobs/queue.ts", "../store/db.ts"),
    "agent/capability.ts": importing("../app/compose-context.ts", "../app/runtime.ts", "./turn.ts"),
    "agent/turn.test.ts": importing("./turn.ts", "../bot/post.ts", "./testing/fake-model.ts"),
    "agent/testing/fake-model.ts": importing("../../app/compose.ts"),
    "bot/post.ts": importing("../jobs/queue.ts", "../store/db.ts", "../base/logger.ts"),
    "bot/capability.ts": importing("../app/compose-context.ts", "./post.ts"),
  });
  assert.equal(code, 0, output);
  assert.ok(output.includes("no dependency violations found"), output);
});
