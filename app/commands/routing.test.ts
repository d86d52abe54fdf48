import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { seedEmbeddedDataDir } from "../../test-support/embedded-data-dir.ts";
import { runCli } from "../../test-support/run-cli.ts";

test("`oikos routing` shows and changes an entity's routing, refusing keys that are not routing", async () => {
  const dir = mkdtempSync(join(tmpdir(), "oikos-routing-"));
  await seedEmbeddedDataDir(join(dir, "data"));
  const env = { PATH: process.env.PATH ?? "", OIKOS_DATA_DIR: join(dir, "data"), OIKOS_LOG_LEVEL: "silent" };
  try {
    const sshConfig = join(dir, "ssh_config");
    writeFileSync(sshConfig, "Host nas\n  HostName 10.0.0.5\n  User admin\n");
    assert.equal((await runCli(["import", "ssh-config", sshConfig], { env })).code, 0);

    const shown = await runCli(["routing", "host:nas"], { env });
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /host:nas: transport=ssh .*ssh\.host=10\.0\.0\.5/);

    const changed = await runCli(["routing", "host:nas", "ssh.host=10.0.0.66", "ssh.port=2222"], { env });
    assert.equal(changed.code, 0, changed.stderr);
    assert.match(changed.stdout, /was: transport=ssh .*ssh\.host=10\.0\.0\.5/);
    assert.match(changed.stdout, /now: transport=ssh .*ssh\.host=10\.0\.0\.66 ssh\.port=2222/);

    const refused = await runCli(["routing", "host:nas", "note=mine"], { env });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /not routing: note/);
    assert.equal((await runCli(["routing"], { env })).code, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
