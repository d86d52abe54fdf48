import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { type Composition, compose } from "../app/compose.ts";
import { ConfigSchema } from "../app/config.ts";
import { openRuntime, type Runtime } from "../app/runtime.ts";
import { silentLogger } from "../base/logger.ts";
import { eventually } from "../test-support/bot/eventually.ts";
import { MatrixDouble } from "../test-support/matrix-double/matrix-double.ts";

// The chat capability as `oikos start` composes it: Matrix configured with a password (login at
// start, logout at stop), admin commands registered, `!oikos status` answered in the room.
const BOT = "@oikos:double.test";
const ALICE = "@alice:double.test";

let dir = "";
let double: MatrixDouble;
let runtime: Runtime;
let composition: Composition;
let room = "";
let stopped = false;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "oikos-chat-cap-"));
  double = await MatrixDouble.start();
  double.registerUser(BOT, "tok_unused", "bot-password");
  double.registerUser(ALICE);
  room = double.createRoom({ creator: ALICE });
  double.invite(room, ALICE, BOT);
  const config = ConfigSchema.parse({
    dataDir: dir,
    log: { level: "silent" },
    chat: {
      operators: [ALICE],
      admins: [ALICE],
      shell: { enabled: false },
      matrix: { homeserverUrl: double.url, userId: BOT, password: "bot-password", rooms: [room] },
    },
  });
  runtime = await openRuntime(config, { logger: silentLogger() });
  composition = await compose(runtime, "all");
  await runtime.queue.start();
});

after(async () => {
  if (!stopped) await composition?.stop();
  await runtime?.close();
  await double?.close();
  rmSync(dir, { recursive: true, force: true });
});

test("password login, admin commands in the room, logout at stop", async () => {
  assert.ok(composition.ctx.chatAdapters.connected().includes("matrix"));
  assert.ok(composition.ctx.commands.get("sweep"));
  assert.ok(composition.ctx.commands.get("approvals"));
  assert.ok(composition.ctx.commands.get("cancel"));
  const loginTokens = double.tokensOf(BOT).filter((t) => t.startsWith("tok_login_"));
  assert.equal(loginTokens.length, 1);
  double.message(ALICE, room, "!oikos status");
  const status = await eventually("status answer", () =>
    double.sentBy(BOT).find((e) => String(e.content.body).includes("oikos status")),
  );
  assert.match(String(status.content.body), /chat: .*matrix connected/);
  stopped = true;
  await composition.stop();
  assert.deepEqual(
    double.tokensOf(BOT).filter((t) => t.startsWith("tok_login_")),
    [],
    "the login token was logged out",
  );
  assert.deepEqual(double.violations, []);
});
