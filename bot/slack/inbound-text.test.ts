import assert from "node:assert/strict";
import { test } from "node:test";
import { decodeSlackText, mentionsUser } from "./inbound-text.ts";

// What Slack sends for what a person typed (docs.slack.dev "Formatting message text": escaped
// &, <, >; links, auto-linked domains and e-mail addresses, users, channels and broadcasts in <…>).
const cases: [wire: string, typed: string][] = [
  ["destroy host:<http://nas.example.com|nas.example.com> scratch", "destroy host:nas.example.com scratch"],
  [
    "confirm `destroy host:<http://nas.example.com|nas.example.com>`",
    "confirm `destroy host:nas.example.com`",
  ],
  ["see <https://grafana.example.org/d/abc?x=1&amp;y=2>", "see https://grafana.example.org/d/abc?x=1&y=2"],
  ["<http://nas.example.com/path|nas.example.com/path> is down", "nas.example.com/path is down"],
  ["the <https://example.com/runbook|runbook>", "the runbook (https://example.com/runbook)"],
  ["mail <mailto:ops@example.com|ops@example.com>", "mail ops@example.com"],
  ["grep -c 'a &amp;&amp; b' &gt; out &lt; in", "grep -c 'a && b' > out < in"],
  ["ask <@U0BOB> and <@U0CAROL|carol>", "ask @U0BOB and @carol"],
  ["in <#C0OPS|ops> and <#C0DEV>", "in #ops and #C0DEV"],
  ["<!here> <!channel> <!everyone|everyone>", "@here @channel @everyone"],
  ["<!subteam^S0OPS|@oncall> and <!subteam^S0DEV>", "@oncall and @S0DEV"],
  ["at <!date^1392734382^{date_num} {time_secs}|2014-02-18 6:39:42 AM PST>", "at 2014-02-18 6:39:42 AM PST"],
  ["&amp;lt; stays one level decoded", "&lt; stays one level decoded"],
  ["an unmatched < is left alone", "an unmatched < is left alone"],
];

test("Slack's wire text decodes to what was typed", () => {
  for (const [wire, typed] of cases) assert.equal(decodeSlackText(wire, { selfId: "UBOT" }), typed, wire);
});

test("the bot's own mention is dropped with its space, anywhere; other mentions stay", () => {
  assert.equal(decodeSlackText("<@UBOT> why is the nas slow?", { selfId: "UBOT" }), "why is the nas slow?");
  assert.equal(decodeSlackText("hey <@UBOT|oikos> check <@U2>", { selfId: "UBOT" }), "hey check @U2");
  assert.equal(decodeSlackText("<@UBOT>", { selfId: "UBOT" }), "");
  assert.equal(decodeSlackText("<@UBOT> hi"), "@UBOT hi", "without a self id nothing is dropped");
});

test("mentionsUser finds the encoded mention only", () => {
  assert.ok(mentionsUser("<@UBOT> hi", "UBOT"));
  assert.ok(mentionsUser("hi <@UBOT|oikos>", "UBOT"));
  assert.ok(!mentionsUser("hi @UBOT and <@UBOTX>", "UBOT"));
  assert.ok(!mentionsUser("hi", ""));
});

test("Slack's emoji shortcodes count as the same assent and denial as their Unicode", async () => {
  const { parseConsent } = await import("../../policy/consent.ts");
  const same: [wire: string, unicode: string][] = [
    [":+1:", "👍"],
    [":+1::skin-tone-2:", "👍"],
    [":thumbsup::skin-tone-6:", "👍"],
    [":white_check_mark:", "✅"],
    ["go ahead :+1:", "go ahead 👍"],
    [":x:", "❌"],
    [":-1:", "👎"],
    [":thumbsdown:", "👎"],
  ];
  for (const [wire, unicode] of same) {
    const decoded = decodeSlackText(wire);
    assert.equal(decoded, unicode, wire);
    assert.deepEqual(parseConsent(decoded), parseConsent(unicode), wire);
    assert.notEqual(parseConsent(decoded).kind, "none", wire);
  }
  // Other shortcodes, and colons that are no shortcode, stay as typed.
  assert.equal(decodeSlackText("deploy :shipit: at 10:30:00"), "deploy :shipit: at 10:30:00");
  assert.equal(decodeSlackText("host:x:+1"), "host:x:+1");
});
