import assert from "node:assert/strict";
import { test } from "node:test";
import { reactionSchema, roomMessageSchema } from "./event-schemas.ts";

// The double is only as strict as its schemas: they must refuse what the spec does not allow.
const notice = { msgtype: "m.notice", body: "hi", "m.mentions": {} };
const ok = (content: unknown) => roomMessageSchema.safeParse(content).success;

test("valid: notice, HTML notice, thread reply with fallback, edit with m.new_content, reaction", () => {
  assert.ok(ok(notice));
  assert.ok(ok({ ...notice, format: "org.matrix.custom.html", formatted_body: "<b>hi</b>" }));
  assert.ok(
    ok({
      ...notice,
      "m.relates_to": {
        rel_type: "m.thread",
        event_id: "$root",
        is_falling_back: true,
        "m.in_reply_to": { event_id: "$last" },
      },
    }),
  );
  assert.ok(
    ok({
      ...notice,
      body: "* hi",
      "m.new_content": notice,
      "m.relates_to": { rel_type: "m.replace", event_id: "$card" },
    }),
  );
  assert.ok(
    reactionSchema.safeParse({ "m.relates_to": { rel_type: "m.annotation", event_id: "$card", key: "✅" } })
      .success,
  );
});

test("invalid: thread without is_falling_back, edit without m.new_content, relation inside m.new_content", () => {
  assert.ok(
    !ok({
      ...notice,
      "m.relates_to": { rel_type: "m.thread", event_id: "$root", "m.in_reply_to": { event_id: "$root" } },
    }),
  );
  assert.ok(!ok({ ...notice, "m.relates_to": { rel_type: "m.replace", event_id: "$card" } }));
  assert.ok(
    !ok({
      ...notice,
      "m.new_content": { ...notice, "m.relates_to": { rel_type: "m.replace", event_id: "$card" } },
      "m.relates_to": { rel_type: "m.replace", event_id: "$card" },
    }),
  );
  assert.ok(!ok({ ...notice, "m.new_content": notice }), "m.new_content only on an edit");
});

test("invalid: <mx-reply> fallback, HTML without format, bad ids, unknown keys, empty reaction key", () => {
  assert.ok(
    !ok({ ...notice, format: "org.matrix.custom.html", formatted_body: "<mx-reply>old</mx-reply>hi" }),
  );
  assert.ok(!ok({ ...notice, formatted_body: "<b>hi</b>" }));
  assert.ok(!ok({ ...notice, "m.mentions": { user_ids: ["alice"] } }));
  assert.ok(!ok({ ...notice, "m.relates_to": { "m.in_reply_to": { event_id: "not-an-event" } } }));
  assert.ok(!ok({ ...notice, mentions: {} }));
  assert.ok(!ok({ msgtype: "m.notice", body: "" }));
  assert.ok(
    !reactionSchema.safeParse({ "m.relates_to": { rel_type: "m.annotation", event_id: "$card", key: "" } })
      .success,
  );
});
