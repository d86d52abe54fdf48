import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { after, before, test } from "node:test";
import { SLACK_SECRET, type SlackBot, startSlackBot } from "../../test-support/bot/slack-bot.ts";
import { requestTimeOutOfRange } from "./request-age.ts";

// Slack: "If the X-Slack-Request-Timestamp is more than five minutes from local time, it could be a
// replay attack, so let's ignore it." Signed exactly as Slack signs (v0:<timestamp>:<body>, HMAC-SHA256).
let bot: SlackBot;
before(async () => {
  bot = await startSlackBot({
    mode: "http",
    access: { operators: ["U0ALICE"], admins: [] },
    channels: ["C0OPS"],
  });
});
after(async () => {
  await bot.close();
});

async function signedPost(offsetS: number): Promise<number> {
  const body = JSON.stringify({ type: "url_verification", challenge: "c-123", token: "x" });
  const timestamp = String(Math.floor(Date.now() / 1000) + offsetS);
  const signature = `v0=${createHmac("sha256", SLACK_SECRET).update(`v0:${timestamp}:${body}`).digest("hex")}`;
  const response = await fetch(`http://127.0.0.1:${bot.adapter.port}/slack/events`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-slack-request-timestamp": timestamp,
      "x-slack-signature": signature,
    },
    body,
  });
  await response.text();
  return response.status;
}

test("a correctly signed request more than five minutes from now is refused, either way", async () => {
  assert.equal(await signedPost(0), 200, "now: taken");
  assert.equal(await signedPost(4 * 60), 200, "4 minutes ahead: within Slack's window");
  assert.equal(await signedPost(6 * 60), 401, "6 minutes ahead: refused");
  assert.equal(await signedPost(-6 * 60), 401, "6 minutes old: refused");
  assert.ok(bot.warnings("5 minutes").length >= 2, "the refusal is logged with what to check");
});

test("the window is five minutes each way", () => {
  const now = 1_700_000_000_000;
  assert.equal(requestTimeOutOfRange(String(1_700_000_000 + 300), now), false);
  assert.equal(requestTimeOutOfRange(String(1_700_000_000 + 301), now), true);
  assert.equal(requestTimeOutOfRange(String(1_700_000_000 - 301), now), true);
  assert.equal(requestTimeOutOfRange(undefined, now), false);
});
