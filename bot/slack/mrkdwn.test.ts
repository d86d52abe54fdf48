import assert from "node:assert/strict";
import { test } from "node:test";
import { escapeMrkdwn, inlineMarkdownToMrkdwn, markdownToMrkdwn } from "./mrkdwn.ts";

test("Markdown formatting becomes Slack formatting", () => {
  assert.equal(markdownToMrkdwn("**bold**, *em*, _em_, ~~gone~~"), "*bold*, _em_, _em_, ~gone~");
  assert.equal(markdownToMrkdwn("# Disk report\n\ntext"), "*Disk report*\n\ntext");
  assert.equal(markdownToMrkdwn("- a\n- b\n  - c\n\n3. x\n4. y"), "• a\n• b\n    • c\n\n3. x\n4. y");
  assert.equal(markdownToMrkdwn("> quoted\n> more"), "> quoted\n> more");
  assert.equal(markdownToMrkdwn("```sh\nls -l\n```"), "```\nls -l\n```");
  assert.equal(markdownToMrkdwn("a\n\n---\n\nb"), "a\n\n──────────\n\nb");
  assert.equal(
    markdownToMrkdwn("| host | state |\n|---|---|\n| nas | degraded |"),
    "```\nhost  state\n----  --------\nnas   degraded\n```",
  );
});

test("links: Markdown links and bare URLs with a scheme; a host name stays text", () => {
  assert.equal(
    markdownToMrkdwn("[the docs](https://example.com/a?b=1&c=2)"),
    "<https://example.com/a?b=1&amp;c=2|the docs>",
  );
  assert.equal(markdownToMrkdwn("see https://example.com/x."), "see <https://example.com/x>.");
  assert.equal(markdownToMrkdwn("nas.example.com is up"), "nas.example.com is up");
  assert.equal(markdownToMrkdwn("[x](javascript:alert(1))"), "[x](javascript:alert(1))");
  assert.equal(markdownToMrkdwn("[mail](mailto:ops@example.com)"), "<mailto:ops@example.com|mail>");
});

test("nothing the agent or a command prints forms a mention, broadcast or quote", () => {
  const hostile = "<!channel> <@U0ALICE> <#C0OPS> <!subteam^S1> <!here|here> & done";
  const out = markdownToMrkdwn(hostile);
  assert.ok(!/<[!@#]/.test(out), out);
  assert.equal(out, escapeMrkdwn(hostile));
  // A Markdown autolink stays a link to its own address: no label can be smuggled in with "|".
  assert.equal(markdownToMrkdwn("<https://evil.example|click>"), "<https://evil.example%7Cclick>");
  assert.equal(
    markdownToMrkdwn("`<!here>` and\n```\n<@U1> > x\n```"),
    "`&lt;!here&gt;` and\n\n```\n&lt;@U1&gt; &gt; x\n```",
  );
  assert.equal(markdownToMrkdwn("2 > 1"), "2 &gt; 1");
});

test("code spans keep their text (phrases are copied from them); a backtick inside cannot end one", () => {
  assert.equal(
    inlineMarkdownToMrkdwn("type `destroy host:nas.example.com scratch`"),
    "type `destroy host:nas.example.com scratch`",
  );
  assert.equal(inlineMarkdownToMrkdwn("``a ` b``"), "`a ˋ b`");
  assert.equal(markdownToMrkdwn("```\nx ``` y\n```"), "```\nx ʼʼʼ y\n```");
});

test("inline conversion leaves block syntax alone (card lines)", () => {
  assert.equal(inlineMarkdownToMrkdwn("# of disks: 4"), "# of disks: 4");
  assert.equal(inlineMarkdownToMrkdwn("1. check **pool**"), "1. check *pool*");
  assert.equal(inlineMarkdownToMrkdwn("> not a quote"), "&gt; not a quote");
});

test("a card's or message's fallback text cannot notify a channel either", async () => {
  const { cardToMessages, textToMessages } = await import("./card-blocks.ts");
  const [message] = textToMessages("tell @channel and @here <!everyone>");
  assert.ok(!/@(here|channel|everyone)\b/.test(message!.text), message!.text);
  assert.ok(!message!.text.includes("<!"), message!.text);
  const [card] = cardToMessages({ kind: "notice", title: "ping @everyone", lines: [] });
  assert.ok(!/@everyone\b/.test(card!.text), card!.text);
  assert.ok(
    (message!.blocks as { text?: { verbatim?: boolean } }[]).every(
      (b) => !b.text || b.text.verbatim === true,
    ),
    "blocks are verbatim: Slack parses no mention in them",
  );
});

test("fuzz: no Markdown an agent or a command writes forms a mention, a broadcast or a bare & < >", async () => {
  const { cardToMessages, textToMessages } = await import("./card-blocks.ts");
  const { inspectBotText } = await import("../../test-support/slack-double/encode-text.ts");
  const pieces = [
    "<!channel>",
    "<!here|x>",
    "<@U0ALICE>",
    "<#C0OPS|ops>",
    "<!subteam^S1>",
    "&lt;!everyone&gt;",
    "&#60;!here&#62;",
    "[a](https://x.example/?a=1&b=<2>)",
    "[<!here>](http://y)",
    "<https://z.example|<@U1>>",
    "<mailto:a@b.c>",
    "`<@U1>`",
    "```\n<!channel>\n```",
    "**b**",
    "_i_",
    "~~s~~",
    "> q",
    "- l",
    "1. n",
    "| a | b |\n|---|---|\n| <@U2> | & |",
    "\\<!here\\>",
    "&",
    "<",
    ">",
    " ",
    "\n",
    "\n\n",
    "@here",
    "text",
    "👍🏽",
  ];
  let seed = 7;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  for (let run = 0; run < 300; run++) {
    let source = "";
    for (let i = 0, n = 1 + Math.floor(rand() * 12); i < n; i++)
      source += pieces[Math.floor(rand() * pieces.length)];
    const texts = [
      markdownToMrkdwn(source),
      inlineMarkdownToMrkdwn(source),
      ...textToMessages(source).flatMap((m) => [
        m.text,
        ...JSON.stringify(m.blocks)
          .match(/"text":"(?:[^"\\]|\\.)*"/g)!
          .map((t) => JSON.parse(t.slice(7)) as string),
      ]),
      ...cardToMessages({
        kind: "notice",
        title: source,
        badge: source,
        lines: [source],
        status: source,
        hint: source,
        output: { label: source, tail: source, omittedLines: 0 },
      }).flatMap((m) => [
        m.text,
        ...JSON.stringify(m.blocks)
          .match(/"text":"(?:[^"\\]|\\.)*"/g)!
          .map((t) => JSON.parse(t.slice(7)) as string),
      ]),
    ];
    for (const text of texts) {
      const { unescaped, mentions } = inspectBotText(text);
      assert.deepEqual(mentions, [], `mention formed from ${JSON.stringify(source)}: ${text}`);
      assert.deepEqual(unescaped, [], `unescaped in ${JSON.stringify(text)} from ${JSON.stringify(source)}`);
    }
  }
});
