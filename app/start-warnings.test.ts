import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { seedEmbeddedDataDir } from "../test-support/embedded-data-dir.ts";
import { MatrixDouble } from "../test-support/matrix-double/matrix-double.ts";
import { spawnCli } from "../test-support/run-cli.ts";

test("`oikos start` with Matrix configured prints no runtime warning (no DEP0060 util._extend from a dependency)", async () => {
  const double = await MatrixDouble.start();
  double.registerUser("@oikos:double.test", "tok_bot");
  double.registerUser("@alice:double.test");
  const room = double.createRoom({ creator: "@alice:double.test" });
  double.invite(room, "@alice:double.test", "@oikos:double.test");
  const dataDir = mkdtempSync(join(tmpdir(), "oikos-warnings-"));
  await seedEmbeddedDataDir(dataDir);
  const child = spawnCli(["start"], {
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      OIKOS_DATA_DIR: dataDir,
      OIKOS_LOG_LEVEL: "info",
      OIKOS_OPERATORS: "@alice:double.test",
      MATRIX_HOMESERVER_URL: double.url,
      MATRIX_ACCESS_TOKEN: "tok_bot",
      MATRIX_ROOMS: room,
    },
  });
  try {
    const headless = await child.waitForLog("oikos running headless until SIGTERM or SIGINT");
    assert.deepEqual(headless.adapters, ["matrix"], "the Matrix adapter (and so the SDK) is loaded");
    child.kill("SIGTERM");
    assert.equal(await child.exited, 0, child.stderr());
    const shown = `${child.stdout()}\n${child.stderr()}`;
    assert.doesNotMatch(shown, /DeprecationWarning|ExperimentalWarning|\(node:\d+\) \[?[A-Z]+\d*/);
  } finally {
    child.kill("SIGKILL");
    await child.exited;
    await double.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
