import assert from "node:assert/strict";
import { test } from "node:test";
import { silentLogger } from "../../base/logger.ts";
import { bindAlertThread, changeAlertGroup, insertAlertGroup } from "../../store/alert-groups.ts";
import { createSession } from "../../store/sessions.ts";
import { createTestStore } from "../../test-support/store.ts";
import { AlertThreads } from "./alert-threads.ts";
import type { ChatAdapter, MessageRef, Outbound } from "./chat-adapter.ts";

/** A chat that records what was posted. */
function recordingAdapter(): ChatAdapter & { posts: string[] } {
  const posts: string[] = [];
  let n = 0;
  return {
    platform: "matrix",
    selfId: "@oikos",
    posts,
    async start() {},
    async stop() {},
    async post(room: string, thread: string | null, message: Outbound): Promise<MessageRef> {
      posts.push("text" in message ? message.text : message.card.title);
      return { platform: "matrix", room, messageId: `$${++n}`, thread };
    },
    async edit() {},
    async react() {},
  };
}

test("the digest of damped updates is posted once, however many runs of its job there are", async () => {
  const store = await createTestStore();
  try {
    const db = store.db;
    const now = new Date();
    const group = await insertAlertGroup(
      db,
      {
        source: "hook",
        sourceKind: "generic",
        groupKey: "nas",
        title: "NAS unreachable",
        severity: null,
        labels: {},
        annotations: {},
        entities: [],
        unmatched: [],
        brief: "brief",
        platform: "matrix",
        room: "!ops",
        mentions: [],
        investigate: false,
        investigation: "skipped",
      },
      now,
    );
    assert.ok(group);
    const session = await createSession(db, {
      platform: "matrix",
      room: "!ops",
      thread: "$root",
      createdBy: "alert:hook",
    });
    await bindAlertThread(db, group.id, { thread: "$root", sessionId: session.id }, now);
    // flapping inside the interval: resolved, fired again, seen again — two updates held back
    assert.ok(await changeAlertGroup(db, group.id, { kind: "resolved" }, now));
    assert.ok(await changeAlertGroup(db, group.id, { kind: "refired", post: false }, now));
    assert.ok(await changeAlertGroup(db, group.id, { kind: "seen", post: false }, now));

    const adapter = recordingAdapter();
    const threads = new AlertThreads({
      db,
      queue: { enqueue: async () => "job" } as never,
      adapters: new Map([["matrix", adapter]]),
      logger: silentLogger(),
      maxConcurrent: 1,
      refreshPlans: async () => {},
    });
    // the same digest job run twice at once (a stalled job run again by a second worker)
    await Promise.all([
      threads.handle({ groupId: group.id, update: "digest" }),
      threads.handle({ groupId: group.id, update: "digest" }),
    ]);
    const digests = adapter.posts.filter((text) => text.startsWith("🔁"));
    assert.deepEqual(digests.length, 1, adapter.posts.join("\n"));
    assert.match(
      digests[0]!,
      /^🔁 2 update\(s\) held back by the minimum interval: now firing, fired again 1 time\(s\)/,
    );
    // and once posted, a later run of it has nothing to say
    await threads.handle({ groupId: group.id, update: "digest" });
    assert.equal(adapter.posts.filter((text) => text.startsWith("🔁")).length, 1);
  } finally {
    await store.dispose();
  }
});
