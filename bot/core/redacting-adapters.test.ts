import assert from "node:assert/strict";
import { test } from "node:test";
import type { ChatAdapter, MessageRef, Outbound } from "./chat-adapter.ts";
import { RedactingAdapterMap, redactOutbound } from "./redacting-adapters.ts";

const SECRET = "mysql -u root -pS3cretPassw0rd -e 'select 1'";

test("cards and texts lose their secrets: lines, output, status, hint, title, badge, button labels", () => {
  const out = redactOutbound({
    card: {
      kind: "approval",
      title: `Run ${SECRET}?`,
      lines: [`\`${SECRET}\` on \`host:db\``],
      output: { label: "output", tail: "Authorization: Bearer abcdefghijklmnopqrstuvwxyz", omittedLines: 0 },
      status: "ok",
      hint: "react ✅",
      badge: "token ghp_abcdefghijklmnopqrstuvwxyz0123456789",
      actions: [{ id: "approve", label: "approve DB_PASS=Hunter22x" }],
    },
  });
  assert.ok("card" in out);
  const text = JSON.stringify(out);
  assert.ok(!text.includes("S3cretPassw0rd"), text);
  assert.ok(!text.includes("abcdefghijklmnopqrstuvwxyz"), text);
  assert.ok(!text.includes("Hunter22x"), text);
  assert.deepEqual(redactOutbound({ text: "plain words" }), { text: "plain words" });
});

test("adapters registered in the map post, edit and answer only redacted messages", async () => {
  const sent: Outbound[] = [];
  const ref: MessageRef = { platform: "test", room: "r", messageId: "1", thread: null };
  const raw = {
    platform: "test",
    selfId: "bot",
    async start() {},
    async stop() {},
    async post(_room: string, _thread: string | null, message: Outbound) {
      sent.push(message);
      return ref;
    },
    async edit(_ref: MessageRef, message: Outbound) {
      sent.push(message);
    },
    async react() {},
    async answer(_command: unknown, message: Outbound) {
      sent.push(message);
    },
  } as unknown as ChatAdapter;
  const adapters = new RedactingAdapterMap();
  adapters.set("test", raw);
  const adapter = adapters.get("test")!;
  assert.equal(adapter.platform, "test");
  await adapter.post("r", null, { text: `running ${SECRET}` });
  await adapter.edit(ref, { text: `ran ${SECRET}` });
  const command = {
    kind: "command",
    platform: "test",
    room: "r",
    eventId: "e",
    user: "u",
    thread: null,
    text: "!x",
  } as const;
  await adapter.answer!(command, { text: `answer ${SECRET}` }, "private");
  assert.equal(sent.length, 3);
  assert.ok(!JSON.stringify(sent).includes("S3cretPassw0rd"));
});
