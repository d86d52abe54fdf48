import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { updateEntityAttributes, upsertEntities } from "../../../store/entities.ts";
import { createExecution, transitionExecution } from "../../../store/executions.ts";
import { upsertKnowledge } from "../../../store/knowledge.ts";
import { createRelationship } from "../../../store/relationships.ts";
import { createSession } from "../../../store/sessions.ts";
import {
  type ConsolePlatforms,
  PLATFORMS,
  startConsolePlatforms,
} from "../../../test-support/bot/console-platforms.ts";

// `!entity`, `!entities` and `!knowledge` through the chat core on the three platforms, with no
// model configured: what the graph holds, read straight from the store.
describe("entity and knowledge commands without a model", () => {
  let c: ConsolePlatforms;
  let sessionId = "";

  before(async () => {
    c = await startConsolePlatforms();
    const db = c.h.store.db;
    const by = { by: "import" };
    await upsertEntities(
      db,
      [
        { slug: "host:nas", type: "host", name: "NAS", attributes: { ip: "10.0.0.5", os: "debian 12" } },
        { slug: "group:web", type: "group", name: "web" },
        {
          slug: "lxc:gitea",
          type: "lxc",
          name: "gitea",
          parentSlug: "host:nas",
          transport: "pct-exec",
          attributes: { version: "1.21.3", tags: ["git"] },
        },
        { slug: "lxc:old-wiki", type: "lxc", name: "old wiki", state: "destroyed" },
      ],
      by,
    );
    await createRelationship(db, { source: "lxc:gitea", target: "group:web", type: "member-of" }, by);
    sessionId = (
      await createSession(db, {
        platform: "matrix",
        room: c.room("matrix"),
        thread: "$gitea-upgrade",
        createdBy: "@alice:double.test",
      })
    ).id;
    await upsertKnowledge(
      db,
      {
        title: "Upgrade gitea in its container",
        content: "Stop gitea, back up /var/lib/gitea, replace the binary, start it.",
        kind: "runbook",
        about: ["lxc:gitea"],
        tags: [],
      },
      { by: "agent", sessionId },
    );
    // Two investigations of the same host: the newer supersedes the older (store/knowledge-supersede.ts).
    for (const title of ["NAS disk swap, first look", "NAS disk swap, what fixed it"])
      await upsertKnowledge(
        db,
        { title, content: `${title}: sdb replaced.`, kind: "investigation", about: ["host:nas"], tags: [] },
        { by: "agent", sessionId },
      );
    const run = await createExecution(db, {
      sessionId,
      target: "lxc:gitea",
      command: "gitea --version",
      commandKey: "lxc:gitea:gitea --version",
      risk: "read_only",
      purpose: "version",
      requestedBy: "agent",
      status: "queued",
      timeoutMs: 60_000,
      deadlineAt: new Date(Date.now() + 3_600_000),
      planGeneration: null,
      stepSeq: null,
    });
    await transitionExecution(db, run.id, { from: "queued", to: "running", now: new Date() });
    await transitionExecution(db, run.id, {
      from: "running",
      to: "completed",
      now: new Date(),
      set: { exit_code: 0 },
    });
  });
  after(async () => c.close());

  test("`entity <slug>`: state, facts with their age, relationships, recent executions, knowledge", async () => {
    const answer = await c.ask("matrix", "operator", "entity lxc:gitea");
    assert.match(answer, /`lxc:gitea` — gitea \(lxc\), state active, reached by pct-exec via `host:nas`/);
    assert.match(answer, /Last audited \d\d:\d\d UTC \(just now\): `gitea --version`/);
    assert.match(answer, /version = "1\.21\.3" {2}\(just now\)/);
    assert.match(answer, /`lxc:gitea` member-of `group:web`/);
    assert.match(answer, /🟢 read-only `gitea --version` — completed, exit 0/);
    assert.match(answer, /runbook: Upgrade gitea in its container \(`upgrade-gitea-in-its-container`/);
    assert.match(answer, /Tree: `host:nas` › \*\*`lxc:gitea`\*\*/);
    assert.match(
      answer,
      /Recent tasks \(1\):\n {2}⏳ planning — \(no goal\) \(`!task [0-9a-f-]+`, 1 touch, just now\)/,
    );
    assert.match(
      answer,
      /wrote: investigation `nas-disk-swap-what-fixed-it`, runbook `upgrade-gitea-in-its-container`/,
    );
    assert.doesNotMatch(answer, /involves/, "a task's edge is shown as the task, not as a relationship");
    const task = /`!task ([0-9a-f-]+)`/.exec(answer)?.[1];
    assert.match(
      await c.ask("matrix", "operator", `entity task:${task}`),
      /Touched \(2\): `host:nas`, `lxc:gitea` — `!task [0-9a-f-]+`/,
    );
    assert.match(
      await c.ask("shell", "operator", "entity host:nas"),
      /Tree: \*\*`host:nas`\*\*\n {2}└ `lxc:gitea`\n/,
    );
    assert.match(
      await c.ask("slack", "operator", "entity lxc:gitae"),
      /There is no entity `lxc:gitae`\. Did you mean `lxc:gitea`\?/,
    );
  });

  test("`entities [type|tag|state]`: by type, by group or tag, by state; destroyed hidden otherwise", async () => {
    const all = await c.ask("shell", "operator", "entities");
    assert.match(all, /Entities: 3/);
    assert.doesNotMatch(all, /old-wiki/);
    assert.match(
      await c.ask("matrix", "operator", "entities lxc"),
      /Entities \(type lxc\): 1\n {2}`lxc:gitea` — gitea on `host:nas`/,
    );
    assert.match(
      await c.ask("matrix", "operator", "entities web"),
      /Entities \(group web\): 1\n {2}`lxc:gitea`/,
    );
    assert.match(
      await c.ask("slack", "operator", "entities git"),
      /Entities \(group git\): 1\n\s*`lxc:gitea`/,
    );
    assert.match(
      await c.ask("shell", "operator", "entities retired"),
      /Entities \(state destroyed\): 1\n {2}`lxc:old-wiki` — old wiki \[destroyed\]/,
    );
  });

  test("`knowledge <query>`: hits with what they are about and a link to the task that wrote them", async () => {
    const answer = await c.ask("matrix", "operator", "knowledge upgrade gitea");
    assert.match(
      answer,
      /runbook: Upgrade gitea in its container \(`upgrade-gitea-in-its-container`\) about `lxc:gitea`/,
    );
    assert.match(answer, /https:\/\/matrix\.to\/#\/.+\/%24gitea-upgrade/);
    assert.match(answer, /Stop gitea, back up/);
    assert.match(
      await c.ask("slack", "operator", "knowledge zfs scrub"),
      /Nothing in the knowledge graph matches “zfs scrub”/,
    );
    assert.match(await c.ask("shell", "operator", "knowledge"), /query is missing/);
  });

  test("`knowledge <query>`: an entry that replaced older ones says so, with their slugs", async () => {
    const answer = await c.ask("shell", "operator", "knowledge nas disk swap");
    assert.match(answer, /investigation: NAS disk swap, what fixed it/);
    assert.doesNotMatch(
      answer,
      /investigation: NAS disk swap, first look/,
      "the older one is not a hit itself",
    );
    assert.match(answer, /replaces 1 older entry about the same: `nas-disk-swap-first-look`/);
  });

  for (const platform of PLATFORMS)
    test(`${platform}: a stranger is refused entity and knowledge reads`, async () => {
      // One refusal per hour in a room: one command each.
      const answer = await c.ask(
        platform,
        "stranger",
        platform === "slack" ? "knowledge gitea" : "entity lxc:gitea",
      );
      assert.match(answer, /I only take instructions from this room's operators/);
      assert.doesNotMatch(answer, /1\.21\.3|Upgrade gitea/);
    });

  test("`entity <slug>` shows a target that cannot jail, with the operator's one-command choice, and the choice once made", async () => {
    const db = c.h.store.db;
    await upsertEntities(
      db,
      [
        {
          slug: "host:nojail",
          type: "host",
          name: "no jail",
          attributes: {
            jail: "unavailable: user namespaces are switched off here (user.max_user_namespaces = 0)",
            "jail.checked_at": new Date().toISOString(),
          },
        },
      ],
      { by: "oikos" },
    );
    assert.match(
      await c.ask("matrix", "operator", "entity host:nojail"),
      /Read-only jail: cannot run here \(user namespaces are switched off here \(user\.max_user_namespaces = 0\)\); read-only commands ask for approval — to let them run unjailed: `!oikos routing host:nojail jail\.unjailed_read_only=allowed`/,
    );
    await updateEntityAttributes(db, "host:nojail", { "jail.unjailed_read_only": "allowed" }, { by: "@op" });
    assert.match(
      await c.ask("slack", "operator", "entity host:nojail"),
      /the operator allowed read-only commands unjailed \(revoke: `!oikos routing host:nojail jail\.unjailed_read_only=`\)/,
    );
  });
});
