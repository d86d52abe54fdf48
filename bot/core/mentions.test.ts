import assert from "node:assert/strict";
import { test } from "node:test";
import { mentionOn, roomMentions } from "./mentions.ts";

test("ids are sorted by platform: Matrix user ids, Slack users and groups, terminal names", () => {
  assert.deepEqual(mentionOn("matrix", "@erin:example.org"), { user: "@erin:example.org" });
  assert.equal(mentionOn("matrix", "U0ERIN"), null);
  assert.deepEqual(mentionOn("slack", "<@U0ERIN>"), { user: "U0ERIN" });
  assert.deepEqual(mentionOn("slack", "<!subteam^S0ONCALL|oncall>"), { group: "S0ONCALL" });
  assert.equal(mentionOn("slack", "@erin:example.org"), null);
  assert.equal(mentionOn("slack", "erin"), null, "a display name is not a Slack id");
  assert.deepEqual(mentionOn("shell", "erin"), { user: "erin" });
  assert.equal(mentionOn("shell", "@erin:example.org"), null);
});

test("per room: approvers (listed people and the operator group), an on-call list, or nobody", () => {
  const config = {
    operators: ["@bob:x.org", "U0BOB", "bob"],
    admins: ["@alice:x.org", "U0ALICE"],
    operatorGroup: "S0OPS",
    rooms: {
      "!quiet:x.org": { mention: "none" as const },
      C0ONCALL: { mention: ["U0CAROL", "S0PAGER"] },
      "!ops:x.org": { operators: ["@dave:x.org"] },
    },
  };
  assert.deepEqual(roomMentions(config, "matrix", "!ops:x.org", "@oikos:x.org"), {
    users: ["@alice:x.org", "@bob:x.org", "@dave:x.org"],
    groups: [],
  });
  assert.equal(roomMentions(config, "matrix", "!quiet:x.org"), undefined);
  assert.deepEqual(roomMentions(config, "slack", "C0ONCALL"), { users: ["U0CAROL"], groups: ["S0PAGER"] });
  assert.deepEqual(roomMentions(config, "slack", "C0OTHER"), {
    users: ["U0ALICE", "U0BOB"],
    groups: ["S0OPS"],
  });
  assert.equal(roomMentions({ ...config, mention: "none" }, "slack", "C0OTHER"), undefined, "global rule");
  assert.deepEqual(
    roomMentions(config, "matrix", "!x:x.org", "@alice:x.org")?.users,
    ["@bob:x.org"],
    "never the bot",
  );
});
