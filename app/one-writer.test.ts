import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { createDeployment } from "../test-support/oikos-process/deployment.ts";
import { HEADLESS } from "../test-support/oikos-process/marker-task.ts";
import { runCli, spawnCli } from "../test-support/run-cli.ts";

// Issue 36: one writer per embedded database. With `oikos start` running on ./data, a second
// process — `oikos import`, `oikos routing`, `oikos migrate`, another `oikos start` — is refused
// with what to do, and writes nothing; once the first has stopped, the import runs, once.
const BUSY =
  /Another oikos process \(pid \d+, `oikos start`, since [^)]+\) uses the embedded database in .*; one process writes an embedded database at a time/;

test("a second process on a running embedded database is refused; nothing lands twice", async () => {
  const d = await createDeployment("embedded", "one-writer");
  const inventory = join(d.dir, "hosts.ini");
  writeFileSync(inventory, "[nas]\nnas01 ansible_host=192.0.2.10\n");
  const env = { ...d.env, OIKOS_LOG_LEVEL: "info" };
  const first = spawnCli(["start"], { env });
  try {
    await first.waitForLog(HEADLESS);
    for (const argv of [
      ["import", "ansible", inventory],
      ["routing", "host:nas01", "ssh.user=backup"],
      ["migrate"],
    ]) {
      const second = await runCli(argv, { env });
      assert.notEqual(second.code, 0, `oikos ${argv.join(" ")} is refused:\n${second.stdout}`);
      assert.match(second.stderr, BUSY, argv.join(" "));
      assert.doesNotMatch(second.stderr, /\n\s+at /, "a message, not a stack trace");
    }
    const another = spawnCli(["start"], { env });
    assert.notEqual(await another.exited, 0);
    assert.match(another.stderr(), BUSY);
  } finally {
    first.kill("SIGTERM");
    assert.equal(await first.exited, 0, first.stderr());
  }
  try {
    const imported = await runCli(["import", "ansible", inventory], { env });
    assert.equal(imported.code, 0, imported.stderr);
    const again = await runCli(["import", "ansible", inventory], { env });
    assert.equal(again.code, 0, again.stderr);
    const store = await d.open();
    try {
      const hosts = await store.db
        .selectFrom("entities")
        .select("slug")
        .where("slug", "=", "host:nas01")
        .execute();
      assert.equal(hosts.length, 1, "imported once");
    } finally {
      await store.close();
    }
  } finally {
    await d.dispose();
  }
});
