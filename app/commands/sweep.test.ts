import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { openStore } from "../../store/connect.ts";
import { claimExecution, createExecution } from "../../store/executions.ts";
import { migrateToLatest } from "../../store/migrate.ts";
import { seedEmbeddedDataDir } from "../../test-support/embedded-data-dir.ts";
import { runCli } from "../../test-support/run-cli.ts";

/** `oikos sweep …` on embedded PGlite in dataDir and the in-process queue, whatever the run's environment says. */
const sweep = (args: string[], dataDir: string) =>
  runCli(["sweep", ...args], {
    env: {
      ...process.env,
      OIKOS_DATA_DIR: dataDir,
      DATABASE_URL: "",
      REDIS_URL: "",
      OIKOS_LOG_LEVEL: "warn",
    },
  });

test("oikos sweep stale reports each execution it changed; an unknown kind is a usage error", {
  timeout: 120_000,
}, async () => {
  const dir = await mkdtemp(join(tmpdir(), "oikos-sweep-cli-"));
  await seedEmbeddedDataDir(dir);
  try {
    const store = await openStore({ kind: "pglite", dataDir: join(dir, "pg") });
    await migrateToLatest(store.db);
    const row = await createExecution(store.db, {
      sessionId: null,
      target: "host:gone",
      command: "systemctl restart nginx",
      commandKey: "k",
      risk: "config_mutation",
      purpose: "t",
      requestedBy: "agent",
      status: "queued",
      timeoutMs: 60_000,
      deadlineAt: new Date(Date.now() + 600_000),
    });
    await claimExecution(store.db, row.id, "dead-worker", new Date(Date.now() - 3_600_000));
    await store.close();

    const swept = await sweep(["stale", "--json"], dir);
    assert.equal(swept.code, 0, swept.stderr);
    const reports = JSON.parse(swept.stdout.trim().split("\n").at(-1) as string) as {
      kind: string;
      items: { subject: string; outcome: string; detail: string }[];
    }[];
    assert.deepEqual(
      reports.map((r) => [r.kind, r.items.map((i) => [i.outcome, i.detail])]),
      [["stale", [["changed", "interrupted"]]]],
    );
    assert.match(reports[0]!.items[0]!.subject, new RegExp(row.id));

    const bogus = await sweep(["bogus"], dir);
    assert.equal(bogus.code, 2);
    assert.match(bogus.stderr, /Unknown sweep "bogus"/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("oikos sweep snapshots runs the snapshot retention now (a kind of its own, not only where workers run)", {
  timeout: 120_000,
}, async () => {
  const dir = await mkdtemp(join(tmpdir(), "oikos-sweep-snapshots-"));
  await seedEmbeddedDataDir(dir);
  try {
    const swept = await sweep(["snapshots", "--json"], dir);
    assert.equal(swept.code, 0, swept.stderr);
    const reports = JSON.parse(swept.stdout.trim().split("\n").at(-1) as string) as {
      kind: string;
      items: unknown[];
    }[];
    assert.deepEqual(
      reports.map((r) => [r.kind, r.items]),
      [["snapshots", []]],
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
