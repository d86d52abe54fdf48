import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";

// docs/cli.md names every command app/cli.ts loads, so `npx oikos help` and the docs agree.
test("docs/cli.md has a row for every command in app/commands/", () => {
  const doc = readFileSync(new URL("../docs/cli.md", import.meta.url), "utf8");
  const commands = readdirSync(new URL("./commands/", import.meta.url))
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"))
    .map((file) => file.slice(0, -3));
  assert.ok(commands.length >= 10, "the commands were found");
  for (const name of commands)
    assert.match(doc, new RegExp(`^\\| \`oikos ${name}[ \`]`, "m"), `oikos ${name}`);
});
