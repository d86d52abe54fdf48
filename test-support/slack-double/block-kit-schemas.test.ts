import assert from "node:assert/strict";
import { test } from "node:test";
import { postMessageSchema } from "./block-kit-schemas.ts";

// The Slack double refuses what Slack refuses; these cases keep its schema honest.
const ok = (args: unknown) => postMessageSchema.safeParse(args).success;
const section = { type: "section", text: { type: "mrkdwn", text: "*Plan*" } };
const buttons = {
  type: "actions",
  elements: [
    {
      type: "button",
      text: { type: "plain_text", text: "Approve" },
      action_id: "oikos:approve",
      style: "primary",
    },
    { type: "button", text: { type: "plain_text", text: "Deny" }, action_id: "oikos:deny", style: "danger" },
  ],
};

test("a card with text fallback, sections, context and buttons is valid", () => {
  assert.ok(
    ok({
      channel: "C1",
      text: "Plan",
      blocks: [section, { type: "context", elements: [{ type: "mrkdwn", text: "x" }] }, buttons],
    }),
  );
  assert.ok(ok({ channel: "C1", text: "reply", thread_ts: "1700000001.000001" }));
});

test("refused: no text fallback, duplicate action ids, long labels and sections, unknown styles, 51 blocks", () => {
  assert.ok(!ok({ channel: "C1", blocks: [section] }));
  assert.ok(
    !ok({
      channel: "C1",
      text: "x",
      blocks: [{ ...buttons, elements: [buttons.elements[0], buttons.elements[0]] }],
    }),
  );
  assert.ok(
    !ok({
      channel: "C1",
      text: "x",
      blocks: [
        {
          ...buttons,
          elements: [{ ...buttons.elements[0], text: { type: "plain_text", text: "a".repeat(76) } }],
        },
      ],
    }),
  );
  assert.ok(
    !ok({
      channel: "C1",
      text: "x",
      blocks: [{ type: "section", text: { type: "mrkdwn", text: "a".repeat(3001) } }],
    }),
  );
  assert.ok(
    !ok({
      channel: "C1",
      text: "x",
      blocks: [{ ...buttons, elements: [{ ...buttons.elements[0], style: "warning" }] }],
    }),
  );
  assert.ok(!ok({ channel: "C1", text: "x", blocks: Array.from({ length: 51 }, () => section) }));
  assert.ok(!ok({ channel: "C1", text: "x", thread_ts: "not-a-ts" }));
});
