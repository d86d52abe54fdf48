import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

// matrix-bot-sdk requires `htmlencode` for replyText/replyNotice; package.json `overrides` maps it to
// vendor/htmlencode (the original called util._extend at load: a DEP0060 warning on every start).
const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const sdkRequire = createRequire(createRequire(import.meta.url).resolve("matrix-bot-sdk"));
const htmlencode = sdkRequire("htmlencode") as {
  htmlEncode(text: string): string;
  htmlDecode(html: string): string;
};

test("the SDK's htmlencode is the vendored copy", () => {
  assert.equal(sdkRequire.resolve("htmlencode"), join(root, "vendor", "htmlencode", "index.js"));
});

test("htmlEncode makes plain text safe HTML text: every markup character becomes an entity", () => {
  assert.equal(
    htmlencode.htmlEncode(`<script>alert("x" + 'y')</script> & co`),
    "&lt;script&gt;alert(&quot;x&quot; + &#39;y&#39;)&lt;/script&gt; &amp; co",
  );
  assert.equal(htmlencode.htmlEncode("&amp; is text here"), "&amp;amp; is text here", "text, not markup");
  assert.equal(htmlencode.htmlEncode("  "), "  ", "whitespace is kept");
  assert.equal(htmlencode.htmlEncode("ümlaut ✅ 日本"), "ümlaut ✅ 日本", "UTF-8 stays as it is");
  assert.equal(htmlencode.htmlEncode(""), "");
});

test("htmlDecode reads back what htmlEncode wrote, and numeric and common named entities", () => {
  const samples = [`a < b && c > "d" 'e'`, "&lt; literally", "✅ 🚀 \u00a0", "&#39; &#x41;"];
  for (const text of samples) assert.equal(htmlencode.htmlDecode(htmlencode.htmlEncode(text)), text);
  assert.equal(htmlencode.htmlDecode("&#65;&#x42;&#X43;&nbsp;&apos;"), "ABC\u00a0'");
  assert.equal(htmlencode.htmlDecode("&unknown; &#xD800; &#99999999;"), "&unknown; \ufffd \ufffd");
});

test("requiring matrix-bot-sdk prints no deprecation warning", () => {
  const child = spawnSync(process.execPath, ["--throw-deprecation", "-e", 'require("matrix-bot-sdk")'], {
    cwd: root,
    encoding: "utf8",
  });
  assert.equal(child.status, 0, child.stderr);
  assert.doesNotMatch(`${child.stdout}${child.stderr}`, /DeprecationWarning|DEP0/);
});
