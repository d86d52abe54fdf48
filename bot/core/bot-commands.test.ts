import assert from "node:assert/strict";
import { test } from "node:test";
import { CommandRegistry, parseCommand } from "./bot-commands.ts";

const ctx = { user: "bob", platform: "shell", room: "terminal", thread: null };
const roles = {
  isOperator: (u: string) => u === "bob" || u === "alice",
  isAdmin: (u: string) => u === "alice",
};

function registry() {
  return new CommandRegistry()
    .add({ name: "status", summary: "show status", permission: "anyone", run: async () => "ok" })
    .add({
      name: "sweep",
      args: "[kind]",
      summary: "run sweeps",
      permission: "admin",
      run: async (_c, a) => `swept ${a.join(",")}`,
    });
}

test("parses bang, slash and !oikos forms", () => {
  assert.deepEqual(parseCommand("!status"), { name: "status", args: [] });
  assert.deepEqual(parseCommand("  !oikos sweep stale "), { name: "sweep", args: ["stale"] });
  assert.deepEqual(parseCommand("/oikos help"), { name: "help", args: [] });
  assert.deepEqual(parseCommand("!oikos"), { name: "help", args: [] });
  assert.equal(parseCommand("restart nginx please"), null);
});

test("dispatch checks permission before running", async () => {
  const r = registry();
  assert.equal(await r.dispatch("!status", ctx, roles), "ok");
  assert.match((await r.dispatch("!sweep stale", ctx, roles))!, /for admins; bob is not one/);
  assert.equal(await r.dispatch("!sweep stale", { ...ctx, user: "alice" }, roles), "swept stale");
  assert.match((await r.dispatch("!nope", ctx, roles))!, /Unknown command `!nope`/);
  assert.equal(await r.dispatch("hello", ctx, roles), null);
});

test("help is generated from the declarations", () => {
  const help = registry().helpText();
  assert.match(help, /!status\s+show status/);
  assert.match(help, /!sweep \[kind\]\s+run sweeps \(admin\)/);
});

test("a command declared twice is a programming error", () => {
  assert.throws(() =>
    registry().add({ name: "status", summary: "x", permission: "anyone", run: async () => "" }),
  );
});
