import assert from "node:assert/strict";
import { test } from "node:test";
import { OikosError } from "../../base/errors.ts";
import { createChatHarness } from "../../test-support/bot/chat-harness.ts";
import { capturingLogger } from "../../test-support/bot/slack-bot.ts";
import type { ChatAdapter } from "./chat-adapter.ts";

// Issue 36: in a channel the bot was removed from, every answer fails the same way; the log had an
// error line per event. One error per room and cause; repeats are debug.
test("events whose answers fail for the same cause in one room: one error line", async () => {
  const { logger, records } = capturingLogger();
  const h = await createChatHarness({ operators: ["U0ALICE"], admins: ["U0ALICE"] }, { logger });
  try {
    const refused = () =>
      new OikosError("slack_not_in_channel", "The bot is not a member of channel C0GONE: invite it there.");
    const adapter = {
      platform: "slack",
      selfId: "UBOT",
      start: async () => {},
      stop: async () => {},
      post: async () => {
        throw refused();
      },
      edit: async () => {
        throw refused();
      },
      react: async () => {},
    } as unknown as ChatAdapter;
    h.adapters.set("slack", adapter);
    for (const [n, room] of [
      [1, "C0GONE"],
      [2, "C0GONE"],
      [3, "C0GONE"],
      [4, "C0OTHER"],
    ] as const)
      await h.core.handle({
        kind: "command",
        platform: "slack",
        room,
        thread: null,
        eventId: `command:${n}`,
        user: "U0ALICE",
        text: "!oikos help",
      });
    const errors = records.filter((r) => r.level >= 50 && r.msg === "chat event failed");
    assert.deepEqual(
      errors.map((r) => r.room),
      ["C0GONE", "C0OTHER"],
      "one error per room and cause",
    );
    assert.equal(records.filter((r) => r.msg === "chat event failed again for the same cause").length, 2);
  } finally {
    await h.close();
  }
});
