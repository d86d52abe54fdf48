import assert from "node:assert/strict";
import { test } from "node:test";
import type { Consent } from "./consent.ts";
import { parseConsent } from "./consent.ts";

const A: Consent = { kind: "assent" };
const D: Consent = { kind: "denial" };
const N: Consent = { kind: "none" };
const typed = (action: string, target: string): Consent => ({ kind: "typed_confirmation", action, target });

const TABLE: readonly (readonly [string, Consent])[] = [
  // plain assent
  ["yes", A],
  ["Yes", A],
  ["YES!", A],
  ["yep", A],
  ["yeah go", A],
  ["y", A],
  ["ok", A],
  ["OK.", A],
  ["okay, do it", A],
  ["sure", A],
  ["approve", A],
  ["approved", A],
  ["go ahead", A],
  ["Go ahead.", A],
  ["proceed", A],
  ["please proceed", A],
  ["do it", A],
  ["lgtm", A],
  ["LGTM, ship it", A],
  ["sounds good", A],
  ["looks good to me", A],
  ["go for it", A],
  ["👍", A],
  ["✅", A],
  ["alright", A],
  ["all right, continue", A],
  ["yes please", A],
  ["fine by me", A],
  ["agreed", A],
  ["make it so", A],
  ["confirmed", A],
  ["no problem, go ahead", A],
  ["no worries, proceed", A],
  ["go ahead, this is not risky", A],
  ["go ahead, don't worry about the downtime", A],
  ["Go ahead — it’s fine", A],
  ["stop nginx and then go ahead", A],
  ["yes, restart it", A],
  ["k", A],
  ["why not", A],
  // whole words only
  ["yesterday's logs look odd", N],
  ["maybe yesterday's logs", N],
  ["my eyesight is bad", N],
  ["the okapi escaped", N],
  ["gopher", N],
  ["proceeding is risky", N],
  ["confirmation pending", N],
  ["approval card looks weird", N],
  ["surely there is another way", N],
  ["fine-tune the plan first", N],
  // negation
  ["no", D],
  ["No.", D],
  ["nope", D],
  ["nah", D],
  ["no, wait", D],
  ["no wait", D],
  ["wait", D],
  ["wait!", D],
  ["stop", D],
  ["STOP!", D],
  ["stop it", D],
  ["don't", D],
  ["don't do it", D],
  ["don’t proceed", D],
  ["do not proceed", D],
  ["I haven't confirmed anything", D],
  ["I haven’t confirmed anything yet", D],
  ["I can't confirm", D],
  ["can’t approve that", D],
  ["won't approve", D],
  ["not approved", D],
  ["I didn't say yes", D],
  ["never", D],
  ["cancel", D],
  ["cancel that", D],
  ["abort", D],
  ["deny", D],
  ["rejected", D],
  ["not yet", D],
  ["not now", D],
  ["hold on", D],
  ["hang on a sec", D],
  ["yes, no wait", D],
  ["ok... actually no, stop", D],
  ["👎", D],
  ["no way", D],
  ["never mind", D],
  // neither
  ["", N],
  ["   ", N],
  ["what does this do?", N],
  ["ok?", N],
  ["should I say yes?", N],
  ["if the backup finished, go ahead", N],
  ["only if the snapshot exists, proceed", N],
  ["what's the disk usage on hubris", N],
  ["thanks", N],
  ["hmm", N],
  ["check the logs first", N],
  // typed confirmation
  ["confirm destroy lxc:old-nextcloud", typed("destroy", "lxc:old-nextcloud")],
  ["Confirm destroy lxc:old-nextcloud", typed("destroy", "lxc:old-nextcloud")],
  ["confirm destroy lxc:old-nextcloud.", typed("destroy", "lxc:old-nextcloud")],
  ["confirm rollback vm:zimaos", typed("rollback", "vm:zimaos")],
  ["confirm wipe host:hubris", typed("wipe", "host:hubris")],
  ["yes, confirm destroy lxc:test-1", typed("destroy", "lxc:test-1")],
  ["  confirm   delete   service:gitea  ", typed("delete", "service:gitea")],
  ["confirm destroy", A],
  ["confirm destroy old-nextcloud", A],
  ["confirmed destroy lxc:old-nextcloud", A],
  ["don't confirm destroy lxc:old-nextcloud", D],
  ["I won’t confirm destroy lxc:old-nextcloud", D],
  ["do not confirm destroy lxc:x", D],
];

test("the consent table has at least 80 phrases", () => {
  assert.ok(TABLE.length >= 80, `${TABLE.length} phrases`);
});

for (const [text, expected] of TABLE) {
  test(`parseConsent(${JSON.stringify(text)})`, () => {
    assert.deepEqual(parseConsent(text), expected);
  });
}
