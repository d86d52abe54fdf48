import assert from "node:assert/strict";
import { test } from "node:test";
import type { PlanPreview } from "../../policy/preview/types.ts";
import { cardToMessages } from "../slack/card-blocks.ts";
import { type Card, cardToText } from "./card.ts";
import { CARD_PREVIEW_CHARS, cardPreviewOf, previewMessage } from "./cards/preview-section.ts";
import { redactOutbound } from "./redacting-adapters.ts";

const diff =
  "--- /etc/app.env (now)\n+++ /etc/app.env (after)\n-DB_PASSWORD=old\n+DB_PASSWORD=hunter2-correct-horse";
const available = (text: string, truncated = false): PlanPreview => ({
  status: "available",
  kind: "file_diff",
  ruleId: "file.sed_in_place",
  text,
  truncated,
  computedAt: "2026-12-01T14:02:09.000Z",
  fingerprint: "f".repeat(64),
  parts: [{ kind: "file_diff", ruleId: "file.sed_in_place", command: "sed -i …", text }],
  notPreviewed: [],
  expectations: [],
});

function approvalCard(): Card {
  return {
    kind: "approval",
    title: "🔐 Approval needed",
    lines: ["`sed -i s/old/new/ /etc/app.env`"],
    hint: "React ✅ to approve or ❌ to deny.",
    preview: cardPreviewOf(available(diff)),
  };
}

test("the terminal prints the preview below the card: the decision and how to answer stay on top", () => {
  const text = cardToText(approvalCard());
  const hint = text.indexOf("React ✅");
  const label = text.indexOf("preview (file diff), computed 14:02 UTC:");
  assert.ok(hint >= 0 && label > hint, text);
  assert.ok(text.includes("    │ +DB_PASSWORD="), "each preview line marked as the preview's");
});

test("a secret in the diff is redacted on every card field that carries it, as the adapters send it", () => {
  const sent = redactOutbound({ card: approvalCard() });
  assert.ok("card" in sent);
  assert.ok(!JSON.stringify(sent).includes("hunter2-correct-horse"));
  assert.ok(sent.card.preview?.text?.includes("DB_PASSWORD="), "the rest of the diff is still there");
});

test("the card carries at most CARD_PREVIEW_CHARS of a preview and says it was cut", () => {
  const long = Array.from({ length: 400 }, (_, i) => `+line ${i} ${"x".repeat(20)}`).join("\n");
  const section = cardPreviewOf(available(long));
  assert.ok((section.text?.length ?? 0) <= CARD_PREVIEW_CHARS + 2);
  assert.match(section.label, /cut to fit/);
  assert.match(cardPreviewOf(available("+a", true)).label, /cut to fit/, "cut by the rule's own cap too");
});

test("no preview is said honestly, with the time it was looked at", () => {
  const none = cardPreviewOf({
    status: "unavailable",
    reason: "no preview rule for `make install`",
    computedAt: "2026-12-01T14:02:00.000Z",
  });
  assert.deepEqual(none, { label: "no preview available: no preview rule for `make install` (14:02 UTC)" });
  const failed = cardPreviewOf({
    status: "failed",
    reason: "ssh: connection refused",
    computedAt: "2026-12-01T14:03:00.000Z",
  });
  assert.equal(failed.text, undefined);
  assert.match(failed.label, /computing it failed \(ssh: connection refused\)/);
});

test("Slack: the card has the label and a Show preview button, never the preview text", () => {
  const [message, ...more] = cardToMessages(approvalCard());
  assert.equal(more.length, 0);
  const json = JSON.stringify(message);
  assert.ok(json.includes("oikos:preview") && json.includes("Show preview"));
  assert.ok(!json.includes("DB_PASSWORD"), "neither in the blocks nor in the fallback text");
});

test("the preview posted in the thread is a code block its own backticks cannot close", () => {
  const text = previewMessage(available("+echo ```` done"), "tee /etc/motd", "host:web");
  const fence = text.split("\n")[1] ?? "";
  assert.match(fence, /^`{5,}$/);
  assert.ok(text.endsWith(`\n${fence}`));
});
