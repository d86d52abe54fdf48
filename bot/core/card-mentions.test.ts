import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { questionAnswered, questionRaised } from "../../store/domain-events.ts";
import { answerOpenQuestion, askQuestion } from "../../store/questions.ts";
import { requestExecutionApproval, sessionFor } from "../../test-support/bot/chat-harness.ts";
import {
  type ConsolePlatforms,
  SLACK_CHANNEL,
  startConsolePlatforms,
} from "../../test-support/bot/console-platforms.ts";
import { eventually } from "../../test-support/bot/eventually.ts";
import { mentionsSchema } from "../../test-support/matrix-double/event-schemas.ts";
import type { DoubleEvent } from "../../test-support/matrix-double/homeserver-state.ts";
import { defaultPushVerdict } from "../../test-support/matrix-double/push-rules.ts";

const BOT = "@oikos:double.test";
const MEMBERS = ["@alice:double.test", "@bob:double.test", "@mallory:double.test"];

// Cards that wait for a decision call the people who can give it: in the Matrix room everyone
// who may approve (m.mentions + pills), in the Slack channel its on-call list and user group
// (<@U…>, <!subteam^S…>), in the terminal nobody (its rule is `none`).
describe("approval cards mention who can decide", () => {
  let c: ConsolePlatforms;

  before(async () => {
    c = await startConsolePlatforms({
      access: () => ({
        rooms: { [SLACK_CHANNEL]: { mention: ["U0CAROL", "S0ONCALL"] }, terminal: { mention: "none" } },
      }),
    });
  });
  after(async () => {
    await c.close();
    assert.deepEqual(c.matrix.double.violations, [], "every Matrix event passed the spec schemas");
    assert.deepEqual(c.slack.double.violations, [], "every Slack payload was valid");
  });

  /** Who a homeserver with the spec's default push rules notifies of `event`, and by which rule. */
  const notified = (event: DoubleEvent) =>
    Object.fromEntries(
      MEMBERS.map((user) => {
        const verdict = defaultPushVerdict(c.matrix.double.state, event, user);
        return [user, verdict.notify ? `${verdict.rule}${verdict.highlight ? " (highlight)" : ""}` : null];
      }),
    );

  const approval = async (platform: "matrix" | "slack" | "shell", thread: string) => {
    const sessionId = await sessionFor(c.h, platform, c.room(platform), thread, c.user(platform, "admin"));
    return requestExecutionApproval(c.h, sessionId, {
      target: "lxc:gitea",
      command: "systemctl restart gitea",
      risk: "config_mutation",
      purpose: "restart after the upgrade",
    });
  };

  test("Matrix: m.mentions names the approvers (valid per the spec) and the HTML carries pills", async () => {
    const { double, room } = c.matrix;
    const root = double.message(c.user("matrix", "admin"), room, "!oikos help");
    await eventually("help answered", () => double.sentBy(BOT).length > 0);
    await approval("matrix", root);
    const card = await eventually("approval card", () =>
      double.sentBy(BOT).find((e) => String(e.content.body).includes("Approval needed")),
    );
    const mentions = card.content["m.mentions"] as { user_ids?: string[] };
    assert.ok(mentionsSchema.safeParse(mentions).success);
    assert.deepEqual(mentions.user_ids, ["@alice:double.test", "@bob:double.test"]);
    assert.match(
      String(card.content.formatted_body),
      /cc <a href="https:\/\/matrix\.to\/#\/@alice:double\.test">@alice:double\.test<\/a> <a href="https:\/\/matrix\.to\/#\/@bob:double\.test">/,
    );
    assert.match(String(card.content.body), /cc @alice:double\.test @bob:double\.test/);
    assert.equal(card.content.msgtype, "m.text", "a notice would be silenced by .m.rule.suppress_notices");
    assert.deepEqual(notified(card), {
      "@alice:double.test": ".m.rule.is_user_mention (highlight)",
      "@bob:double.test": ".m.rule.is_user_mention (highlight)",
      // Not called: a plain message in the room, as any m.text is under the default rules.
      "@mallory:double.test": ".m.rule.message",
    });
  });

  test("Matrix: a card or answer that mentions nobody stays a notice and notifies nobody", async () => {
    const { double, room } = c.matrix;
    const sent = double.sentBy(BOT).length;
    double.message(c.user("matrix", "admin"), room, "!oikos help");
    const answer = await eventually("help answered", () => double.sentBy(BOT)[sent]);
    const adapter = c.h.adapters.get("matrix")!;
    const ref = await adapter.post(room, null, {
      card: { kind: "summary", title: "✅ Task complete", lines: ["gitea restarted and healthy"] },
    });
    const summary = double.sentBy(BOT).find((e) => e.event_id === ref.messageId)!;
    for (const event of [answer, summary]) {
      assert.equal(event.content.msgtype, "m.notice");
      assert.deepEqual(notified(event), Object.fromEntries(MEMBERS.map((user) => [user, null])));
    }
  });

  test("Slack: the on-call list and user group as real mentions in the blocks and the text", async () => {
    const { double } = c.slack;
    const root = await double.userMessage(c.user("slack", "admin"), SLACK_CHANNEL, "is gitea up?");
    await eventually("answered", () => double.byBot().length > 0);
    await approval("slack", root.ts);
    const card = await eventually("approval card", () =>
      double.byBot().find((m) => m.text.includes("Approval needed")),
    );
    const blocks = JSON.stringify(card.blocks);
    assert.match(blocks, /cc <@U0CAROL> <!subteam\^S0ONCALL>/);
    assert.match(card.text, /cc <@U0CAROL> <!subteam\^S0ONCALL>/);
    assert.doesNotMatch(blocks, /U0ALICE/, "the room's list replaces the approvers");
    const formed = double.mentions.map((m) => m.mention);
    assert.ok(formed.includes("<@U0CAROL>") && formed.includes("<!subteam^S0ONCALL>"));
    assert.deepEqual(double.broadcasts(), []);
  });

  test("Matrix: an open question calls the approvers too; once answered its card mentions nobody", async () => {
    const { double, room } = c.matrix;
    const sent = double.sentBy(BOT).length;
    const root = double.message(c.user("matrix", "admin"), room, "!oikos help");
    await eventually("help answered", () => double.sentBy(BOT).length > sent);
    const sessionId = await sessionFor(c.h, "matrix", room, root, c.user("matrix", "admin"));
    const question = await askQuestion(c.h.store.db, { sessionId, prompt: "keep 3 or 7 snapshots?" });
    await c.h.events.publish(questionRaised({ sessionId, questionId: question.id }));
    const card = await eventually("question card", () =>
      double.sentBy(BOT).find((e) => String(e.content.body).includes("keep 3 or 7 snapshots?")),
    );
    assert.deepEqual((card.content["m.mentions"] as { user_ids?: string[] }).user_ids, [
      "@alice:double.test",
      "@bob:double.test",
    ]);
    await answerOpenQuestion(c.h.store.db, { sessionId, answer: "7", by: c.user("matrix", "operator") });
    await c.h.events.publish(questionAnswered({ sessionId, questionId: question.id }));
    const edit = await eventually("answered card", () =>
      double
        .sentBy(BOT)
        .find((e) =>
          String((e.content["m.new_content"] as { body?: string } | undefined)?.body ?? "").includes(
            "answered by",
          ),
        ),
    );
    assert.equal(card.content.msgtype, "m.text");
    assert.equal(notified(card)["@bob:double.test"], ".m.rule.is_user_mention (highlight)");
    assert.deepEqual(edit.content["m.mentions"], {}, "an edit notifies nobody");
    assert.deepEqual(notified(edit), Object.fromEntries(MEMBERS.map((user) => [user, null])));
    assert.deepEqual(
      (edit.content["m.new_content"] as Record<string, unknown>)["m.mentions"],
      {},
      "a decided card calls nobody",
    );
  });

  test("terminal: a room whose rule is `none` mentions nobody", async () => {
    await approval("shell", "t-1");
    const out = await eventually(
      "approval card",
      () => c.terminalOutput().includes("Approval needed") && c.terminalOutput(),
    );
    assert.match(out, /systemctl restart gitea/);
    assert.doesNotMatch(out, /cc /);
  });
});
