import assert from "node:assert/strict";
import { test } from "node:test";
import { cardToHtml, textToHtml } from "./card-html.ts";
import { inlineMarkdownToHtml, markdownToHtml } from "./markdown-html.ts";

test("the agent's Markdown shows as formatting in Matrix", () => {
  assert.equal(
    markdownToHtml("**bold**, *em*, `df -h`, ~~gone~~"),
    "<p><strong>bold</strong>, <em>em</em>, <code>df -h</code>, <del>gone</del></p>",
  );
  assert.equal(markdownToHtml("# Disk report\n\ntext"), "<h1>Disk report</h1>\n<p>text</p>");
  assert.equal(markdownToHtml("- a\n- b"), "<ul>\n<li>a</li>\n<li>b</li>\n</ul>");
  assert.equal(
    markdownToHtml("```sh\nls -l <dir>\n```"),
    '<pre><code class="language-sh">ls -l &lt;dir&gt;\n</code></pre>',
  );
  assert.equal(markdownToHtml("line one\nline two"), "<p>line one<br>\nline two</p>");
  assert.match(markdownToHtml("| host | state |\n|---|---|\n| nas | degraded |"), /^<table>/);
});

test("links only for http(s) and mailto; a host name stays text", () => {
  assert.equal(
    markdownToHtml("[the docs](https://example.com/a?b=1&c=2)"),
    '<p><a href="https://example.com/a?b=1&amp;c=2">the docs</a></p>',
  );
  assert.equal(
    markdownToHtml("see https://example.com/x."),
    '<p>see <a href="https://example.com/x">https://example.com/x</a>.</p>',
  );
  assert.equal(markdownToHtml("nas.example.com is up"), "<p>nas.example.com is up</p>");
  assert.equal(markdownToHtml("[x](javascript:alert(1))"), "<p>[x](javascript:alert(1))</p>");
  assert.equal(markdownToHtml("[x](data:text/html,hi)"), "<p>[x](data:text/html,hi)</p>");
});

test("HTML a model or a command writes is shown as text, and images are not fetched", () => {
  const hostile = '<script>alert(1)</script> <img src="https://evil.example/t.png"> <a href="x">y</a>';
  const html = markdownToHtml(hostile);
  assert.ok(!html.includes("<script") && !html.includes("<img") && !html.includes('<a href="x"'), html);
  assert.ok(html.includes("&lt;script&gt;"), html);
  // An image becomes a link to it: nothing is fetched unless the reader follows it.
  assert.equal(
    markdownToHtml("![tracker](https://evil.example/t.png)"),
    '<p>!<a href="https://evil.example/t.png">tracker</a></p>',
  );
});

test("card lines and plain messages go through the same renderer", () => {
  assert.equal(
    inlineMarkdownToHtml("run `rm -rf /srv/old` on **nas**"),
    "run <code>rm -rf /srv/old</code> on <strong>nas</strong>",
  );
  assert.equal(inlineMarkdownToHtml("# not a heading"), "# not a heading");
  assert.equal(textToHtml("**done**"), "<p><strong>done</strong></p>");
  const html = cardToHtml({ kind: "notice", title: "<Disk>", lines: ["type `yes, destroy lxc:db`"] });
  assert.equal(
    html,
    "<p><strong>&lt;Disk&gt;</strong></p><ul><li>type <code>yes, destroy lxc:db</code></li></ul>",
  );
});
