import assert from "node:assert/strict";
import { test } from "node:test";
import { MatrixError } from "matrix-bot-sdk";
import { capturingLogger } from "../../test-support/bot/slack-bot.ts";
import type { KvStorageProvider } from "./kv-storage-provider.ts";
import { MatrixAdapter } from "./matrix-adapter.ts";
import type { MatrixApi } from "./matrix-api.ts";

// Issue 36: a homeserver's 429s were visible only on the server. A rate-limited room is one warning
// when it begins (with what to do) and one line when sends go through again, however many retries.
test("429s are logged once per episode and room, with the way out", async () => {
  let limited = 3;
  const sent: string[] = [];
  const api = {
    async send(room: string) {
      if (limited-- > 0)
        throw new MatrixError(
          { errcode: "M_LIMIT_EXCEEDED", error: "Too Many Requests", retry_after_ms: 5 },
          429,
        );
      sent.push(room);
      return `$event${sent.length}`;
    },
  } as unknown as MatrixApi;
  const { logger, records } = capturingLogger();
  const adapter = new MatrixAdapter({
    api,
    storage: {} as KvStorageProvider,
    rooms: ["!ops:x"],
    allowedInviters: [],
    logger,
    retry: { baseDelayMs: 1 },
  });
  await adapter.post("!ops:x", null, { text: "one" });
  await adapter.post("!ops:x", null, { text: "two" });
  assert.deepEqual(sent, ["!ops:x", "!ops:x"]);
  const lines = records.filter((r) => /rate/.test(r.msg)).map((r) => [r.level, r.room]);
  assert.deepEqual(lines, [
    [40, "!ops:x"],
    [30, "!ops:x"],
  ]);
  assert.match(records.find((r) => r.level === 40)!.msg, /override_ratelimit/);
});
