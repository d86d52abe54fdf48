import assert from "node:assert/strict";
import { test } from "node:test";
import { type CommandContext, CommandRegistry, defineCommand, parseCommand } from "./bot-commands.ts";
import { choice, pairs, splitWords, text, word } from "./command-args.ts";
import { helpCommand } from "./help-command.ts";

const ctx: CommandContext = {
  user: "bob",
  platform: "shell",
  room: "terminal",
  thread: null,
  fleetWide: true,
  threadLink: () => undefined,
};
const roles = {
  isOperator: (u: string) => u === "bob" || u === "alice",
  isAdmin: (u: string) => u === "alice",
};

function registry() {
  const r = new CommandRegistry();
  return r
    .add(helpCommand(r))
    .add(
      defineCommand({
        name: "status",
        args: {},
        summary: "show status",
        permission: "anyone",
        run: async () => "ok",
      }),
    )
    .add(
      defineCommand({
        name: "sweep",
        args: { kind: choice(["all", "stale"], "which sweep", "all") },
        summary: "run sweeps",
        permission: "admin",
        run: async (_c, { kind }) => `swept ${kind}`,
      }),
    )
    .add(
      defineCommand({
        name: "entity",
        args: { slug: word("slug", "the entity") },
        summary: "show an entity",
        permission: "operator",
        run: async (_c, { slug }) => `entity ${slug}`,
      }),
    )
    .add(
      defineCommand({
        name: "entity add",
        args: { slug: word("slug", "the new entity"), fields: pairs("its fields") },
        summary: "add an entity",
        permission: "admin",
        examples: ["!entity add host:nas name=NAS"],
        run: async (_c, { slug, fields }) => `added ${slug} ${JSON.stringify(fields)}`,
      }),
    )
    .add(
      defineCommand({
        name: "knowledge",
        args: { query: text("query", "what to look for") },
        summary: "search",
        permission: "operator",
        run: async (_c, { query }) => `q=${query}`,
      }),
    );
}

const run = (line: string, user = "bob") => registry().dispatch(line, { ...ctx, user }, roles);

test("parses bang, !oikos and /oikos forms; other lines are messages", () => {
  assert.deepEqual(parseCommand("!status"), { name: "status", words: ["status"] });
  assert.deepEqual(parseCommand("  !oikos sweep stale "), { name: "sweep", words: ["sweep", "stale"] });
  assert.deepEqual(parseCommand("/oikos help"), { name: "help", words: ["help"] });
  assert.deepEqual(parseCommand("!oikos"), { name: "help", words: ["help"] });
  assert.equal(parseCommand("restart nginx please"), null);
  assert.equal(parseCommand("/var is full on the nas"), null, "a path is not a command");
  assert.equal(parseCommand("! not a command"), null);
  assert.equal(parseCommand("!"), null);
});

test("words: quotes group (also curly ones and mid-word), whitespace separates", () => {
  assert.deepEqual(splitWords(`entity add host:nas name="Big NAS" note='a b'`), [
    "entity",
    "add",
    "host:nas",
    "name=Big NAS",
    "note=a b",
  ]);
  assert.deepEqual(splitWords("knowledge “nfs lock” \t x"), ["knowledge", "nfs lock", "x"]);
  assert.deepEqual(splitWords(`a ""`), ["a", ""]);
  assert.deepEqual(splitWords(`unclosed "quote runs on`), ["unclosed", "quote runs on"]);
});

test("dispatch checks permission before running, and arguments against the declaration", async () => {
  assert.equal(await run("!status"), "ok");
  assert.match(String(await run("!sweep stale")), /for admins, and bob is not an admin here/);
  assert.equal(await run("!sweep STALE", "alice"), "swept stale", "choices are case-insensitive");
  assert.equal(await run("!sweep", "alice"), "swept all", "default");
  assert.match(String(await run("!sweep everything", "alice")), /kind: use one of: all, stale/);
  assert.match(String(await run("!sweep stale extra", "alice")), /unexpected “extra”/);
  assert.match(String(await run("!nope")), /There is no command `!nope`/);
  assert.equal(await run("hello"), null);
  assert.match(String(await run("!entity", "bob")), /slug is missing[\s\S]*Usage: `!entity <slug>`/);
  assert.equal(await run("!knowledge nfs  lock"), "q=nfs lock");
  assert.match(String(await run("!knowledge")), /query is missing/);
});

test("two-word commands win over the one-word command with the same first word", async () => {
  assert.equal(await run("!entity host:nas"), "entity host:nas");
  assert.match(String(await run("!entity add host:nas name=x")), /for admins/);
  assert.equal(
    await run(`!oikos entity add host:nas name="Big NAS" Tag=web`, "alice"),
    `added host:nas {"name":"Big NAS","tag":"web"}`,
  );
  assert.match(String(await run("!entity add host:nas justaword", "alice")), /“justaword” is not key=value/);
  assert.match(String(await run("!entity add host:nas a=1 A=2", "alice")), /a is given twice/);
});

test("help is generated from the declarations: the list, one command, one family", async () => {
  const help = String(await run("!help"));
  assert.match(help, /!status\s+show status/);
  assert.match(help, /!sweep \[all\|stale\]\s+run sweeps \(admins\)/);
  assert.match(help, /!entity add <slug> \[key=value …\]\s+add an entity \(admins\)/);
  const one = String(await run("!help entity add"));
  assert.match(one, /`!entity add <slug> \[key=value …\]` — add an entity/);
  assert.match(one, /Only admins may run it/);
  assert.match(one, /Examples: `!entity add host:nas name=NAS`/);
  const family = String(await run("!help entity"));
  assert.match(family, /`!entity <slug>`/);
  assert.match(family, /`!entity add/);
  assert.match(String(await run("!help frobnicate")), /There is no command `!frobnicate`/);
});

test("declaration mistakes are programming errors", () => {
  assert.throws(() =>
    registry().add(
      defineCommand({ name: "status", args: {}, summary: "x", permission: "anyone", run: async () => "" }),
    ),
  );
  assert.throws(() =>
    new CommandRegistry().add(
      defineCommand({
        name: "bad",
        args: { rest: text("q", "q"), after: word("x", "x") },
        summary: "x",
        permission: "anyone",
        run: async () => "",
      }),
    ),
  );
});
