import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { METHOD_SCOPES } from "../../test-support/slack-double/workspace.ts";
import {
  SLACK_APP_TOKEN_SCOPES,
  SLACK_BOT_EVENTS,
  SLACK_BOT_SCOPES,
  slackAppManifest,
} from "./slack-app-manifest.ts";

const section = readFileSync(new URL("../../docs/slack.md", import.meta.url), "utf8");

/** The first column of the markdown table under the header that starts with `header`. */
function tableColumn(header: string): string[] {
  const lines = section.split("\n").map((l) => l.trim());
  const at = lines.findIndex((l) => l.startsWith(`| ${header}`));
  assert.ok(at >= 0, `docs/slack.md has a "${header}" table`);
  const rows: string[] = [];
  for (const line of lines.slice(at + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(line.split("|")[1]!.trim().replace(/`/g, ""));
  }
  return rows;
}

test("docs/slack.md lists exactly the scopes and events the code needs", () => {
  assert.deepEqual(tableColumn("Bot token scope").sort(), SLACK_BOT_SCOPES.map((s) => s.scope).sort());
  assert.deepEqual(tableColumn("Bot event").sort(), SLACK_BOT_EVENTS.map((e) => e.event).sort());
  for (const scope of SLACK_APP_TOKEN_SCOPES) assert.ok(section.includes(`\`${scope}\``));
  const conditional = section.split("\n").find((l) => l.includes("`usergroups:read`"));
  assert.match(conditional ?? "", /SLACK_OPERATOR_GROUP/, "the conditional scope says when it is needed");
  const manifest = /```json\n([\s\S]*?)\n```/.exec(section)?.[1];
  assert.deepEqual(JSON.parse(manifest ?? "{}"), slackAppManifest("socket"), "the manifest is the code's");
});

test("every Web API method the adapter calls is covered by a listed scope, every listed event is handled", () => {
  const dir = new URL("./", import.meta.url);
  const sources = readdirSync(dir)
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
    .map((f) => readFileSync(new URL(f, dir), "utf8"))
    .join("\n");
  const methods = new Set(
    [...sources.matchAll(/"((?:chat|reactions|usergroups|auth|conversations|users)\.[a-zA-Z.]+)"/g)].map(
      (m) => m[1]!,
    ),
  );
  assert.ok(methods.has("chat.postMessage") && methods.has("chat.update"), "the scan finds the calls");
  const listed = new Set(SLACK_BOT_SCOPES.map((s) => s.scope));
  for (const method of methods) {
    const scope = METHOD_SCOPES[method];
    assert.notEqual(
      scope,
      undefined,
      `${method}: scope unknown to the double (add it from Slack's reference)`,
    );
    if (scope) assert.ok(listed.has(scope), `${method} needs ${scope}, which the list lacks`);
  }
  const handled = new Set([...sources.matchAll(/app\.event\("([a-z_]+)"/g)].map((m) => m[1]!));
  for (const { event, scope } of SLACK_BOT_EVENTS) {
    assert.ok(handled.has(event.split(".")[0]!), `${event} is subscribed but not handled`);
    assert.ok(listed.has(scope), `${event} needs ${scope}`);
  }
});
