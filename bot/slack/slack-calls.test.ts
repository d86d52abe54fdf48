import assert from "node:assert/strict";
import { test } from "node:test";
import { WebAPIPlatformError, WebAPIRateLimitedError, type WebClient } from "@slack/web-api";
import { silentLogger } from "../../base/logger.ts";
import { MessageUpdates } from "./message-updates.ts";
import { SlackCalls } from "./slack-calls.ts";
import { SlackCallError } from "./slack-errors.ts";

/** A WebClient whose answers a test scripts per method; it records what was called when. */
function fakeClient(script: Record<string, (args: Record<string, unknown>) => unknown>) {
  const calls: { method: string; at: number }[] = [];
  const client = {
    async apiCall(method: string, args: Record<string, unknown>) {
      calls.push({ method, at: Date.now() });
      const answer = script[method]?.(args) ?? { ok: true };
      if (answer instanceof Error) throw answer;
      return answer;
    },
  } as unknown as WebClient;
  return { client, calls };
}

test("a 429 holds back only its own key, for Retry-After, then the call goes through", async () => {
  let limited = 1;
  const { client, calls } = fakeClient({
    "chat.postMessage": (args) =>
      args.channel === "C1" && limited-- > 0 ? new WebAPIRateLimitedError(1) : { ok: true, ts: "1.1" },
  });
  const slack = new SlackCalls(client, { logger: silentLogger() });
  const started = Date.now();
  const held = slack.call("chat.postMessage", { channel: "C1" }, { key: "chat.postMessage:C1" });
  await new Promise((r) => setTimeout(r, 50));
  await slack.call("chat.postMessage", { channel: "C2" }, { key: "chat.postMessage:C2" });
  const otherDone = Date.now();
  await held;
  assert.ok(otherDone - started < 900, "C2 did not wait for C1's Retry-After");
  assert.ok(Date.now() - started >= 1_000, "C1 waited Retry-After");
  assert.deepEqual(
    calls.map((c) => c.method),
    ["chat.postMessage", "chat.postMessage", "chat.postMessage"],
  );
});

test("with onRateLimit: throw, a 429 fails at once carrying the wait; the key stays held until then", async () => {
  const { client, calls } = fakeClient({ "chat.update": () => new WebAPIRateLimitedError(30) });
  const slack = new SlackCalls(client, { logger: silentLogger() });
  const first = await slack
    .call("chat.update", {}, { key: "k", onRateLimit: "throw" })
    .catch((e: unknown) => e);
  assert.ok(first instanceof SlackCallError && first.kind === "ratelimited" && first.retryAfterS === 30);
  const second = await slack
    .call("chat.update", {}, { key: "k", onRateLimit: "throw" })
    .catch((e: unknown) => e);
  assert.ok(second instanceof SlackCallError && second.kind === "ratelimited");
  assert.equal(calls.length, 1, "no call while the key is held");
});

test("a wait longer than maxWaitMs fails instead of hanging", async () => {
  const { client } = fakeClient({ "chat.postMessage": () => new WebAPIRateLimitedError(3_600) });
  const slack = new SlackCalls(client, { logger: silentLogger(), maxWaitMs: 1_000 });
  await assert.rejects(
    slack.call("chat.postMessage", { channel: "C1" }),
    (e: unknown) => e instanceof SlackCallError && e.kind === "ratelimited",
  );
});

test("Slack's errors arrive by name, with the advice and the scope a method needs", async () => {
  const platform = (error: string, extra: Record<string, unknown> = {}) =>
    new WebAPIPlatformError({ ok: false, error, ...extra } as never);
  const { client } = fakeClient({
    "chat.postMessage": (args) => platform(String(args.text)),
    "usergroups.users.list": () => platform("missing_scope", { needed: "usergroups:read" }),
  });
  const slack = new SlackCalls(client, { logger: silentLogger() });
  const fail = async (text: string): Promise<SlackCallError> => {
    const error = await slack.call("chat.postMessage", { channel: "C9", text }).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error instanceof SlackCallError);
    return error;
  };
  assert.equal((await fail("not_in_channel")).kind, "not_in_channel");
  assert.match((await fail("not_in_channel")).message, /invite it.*C9|C9.*invite/);
  assert.equal((await fail("is_archived")).kind, "is_archived");
  assert.equal((await fail("channel_not_found")).kind, "channel_not_found");
  assert.equal((await fail("msg_too_long")).kind, "msg_too_long");
  const odd = await fail("restricted_action_thread_only_channel");
  assert.equal(odd.kind, "other");
  assert.equal(odd.slackError, "restricted_action_thread_only_channel");
  const scope = (await slack.call("usergroups.users.list", {}).catch((e: unknown) => e)) as SlackCallError;
  assert.equal(scope.kind, "missing_scope");
  assert.equal(scope.needed, "usergroups:read");
  assert.match(scope.message, /usergroups:read.*reinstall/);
});

test("message updates: a newer update replaces a waiting one; a rate-limited one resolves at once and catches up", async () => {
  const marks: string[] = [];
  const updates = new MessageUpdates({
    logger: silentLogger(),
    marker: {
      delayed: async (key) => void marks.push(`delayed ${key}`),
      caughtUp: async (key) => void marks.push(`caught up ${key}`),
    },
  });
  const sent: string[] = [];
  let limited = true;
  const send = (version: string) => async () => {
    if (limited) {
      limited = false;
      throw new SlackCallError({ method: "chat.update", slackError: "ratelimited", retryAfterS: 1 });
    }
    sent.push(version);
  };
  const started = Date.now();
  await updates.update("C1:1", send("v1"));
  assert.ok(Date.now() - started < 500, "resolved without waiting out the limit");
  assert.equal(updates.waiting, 1);
  await updates.update("C1:1", send("v2"));
  await updates.update("C1:1", send("v3"));
  await updates.update("C1:2", send("other"));
  assert.deepEqual(sent, ["other"], "another message is not held back");
  while (updates.waiting > 0) await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(sent, ["other", "v3"], "only the newest version was sent");
  assert.deepEqual(marks, ["delayed C1:1", "caught up C1:1"]);
  updates.stop();
});
