import assert from "node:assert/strict";
import { test } from "node:test";
import { parseConsent } from "./consent.ts";
import { normaliseTypedPhrase, sameTypedPhrase } from "./typed-phrase.ts";

const REQUIRED = "confirm destroy lxc:old-cloud";

test("a phrase copied with backticks, quotes, a final period, odd spacing or case is the phrase", () => {
  for (const typed of [
    "confirm destroy lxc:old-cloud",
    "`confirm destroy lxc:old-cloud`",
    "``confirm destroy lxc:old-cloud``",
    "` confirm destroy lxc:old-cloud `",
    "`confirm destroy lxc:old-cloud`.",
    "`confirm destroy lxc:old-cloud.`",
    "“confirm destroy lxc:old-cloud”",
    "'confirm destroy lxc:old-cloud'",
    "  Confirm   DESTROY\tlxc:old-cloud  ",
    "confirm\u00a0destroy lxc:old-cloud", // a non-breaking space from a rich-text client
    "ｃｏｎｆｉｒｍ destroy lxc:old-cloud", // full-width letters (NFKC)
  ]) {
    assert.ok(sameTypedPhrase(typed, REQUIRED), JSON.stringify(typed));
    assert.equal(
      parseConsent(typed).kind,
      "typed_confirmation",
      `the grammar reads ${JSON.stringify(typed)} the same way`,
    );
  }
});

test("anything else is a different message", () => {
  for (const typed of [
    "confirm destroy lxc:old-cloud2",
    "confirm destroy lxc:new-cloud",
    "confirm delete lxc:old-cloud",
    "please confirm destroy lxc:old-cloud",
    "confirm destroy lxc:old-cloud now",
    "yes, confirm destroy lxc:old-cloud",
    "confirm destroy",
    "`",
    "",
    "  ",
  ]) {
    assert.equal(sameTypedPhrase(typed, REQUIRED), false, JSON.stringify(typed));
  }
  assert.equal(sameTypedPhrase(undefined, REQUIRED), false);
  assert.equal(sameTypedPhrase("", ""), false, "an empty message never matches");
});

test("normalising is idempotent", () => {
  for (const typed of ["`Confirm  Destroy lxc:X`.", "“x”", "a.b."]) {
    const once = normaliseTypedPhrase(typed);
    assert.equal(normaliseTypedPhrase(once), once);
  }
});
