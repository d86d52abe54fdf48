import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { redact } from "../policy/redact.ts";
import type { GrantBasis } from "../policy/standing-grant.ts";
import { upsertEntities } from "../store/entities.ts";
import { createStandingGrant, endStandingGrant } from "../store/standing-grants.ts";
import { touchEntities } from "../store/task-graph.ts";
import { type AgentHarness, startAgentHarness } from "../test-support/agent/agent-harness.ts";
import { match, type RecordedRequest } from "../test-support/scripted-model/index.ts";
import { GRANTS_HEADING, TurnGrants } from "./grants-in-play.ts";
import { requestTurn } from "./turn-runner.ts";

// Issue #32: a standing grant lets the same command on the same target run without a plan, so the
// agent must know which grants are live for what its task touches. What the model receives (the
// system prompt over the wire, get_entity's result) carries the live grants of the session's room
// on the entities in play — and never a revoked, expired, other-target or other-room one.

const DAY = 86_400_000;
const RESTART = "systemctl restart whatsapp-bridge";
// A command with a secret: stored redacted (store/redact-on-write.ts), so it covers nothing and is never shown.
const SECRET =
  "curl -H 'Authorization: Bearer ghp_0123456789abcdefghijklmnopqrstuvwxyzAB' https://api.github.com";

describe("live standing grants in what the model is given", () => {
  let h: AgentHarness;
  const ids: Record<string, string> = {};

  const grant = async (
    name: string,
    over: { target?: string; command?: string; room?: string; expiresInMs?: number } = {},
  ) => {
    const target = over.target ?? "lxc:bridges";
    const command = over.command ?? RESTART;
    const basis: GrantBasis = {
      target,
      command,
      risk: "config_mutation",
      routing: "{}",
      proof: "p",
      jail: "not_jailed",
    };
    const row = await createStandingGrant(
      h.store.db,
      {
        basis,
        grantedBy: "@alice",
        grantedVia: "reaction",
        approvalId: `ap-${name}`,
        sessionId: "s-earlier",
        platform: "test",
        room: over.room ?? "room",
        expiresAt: new Date(Date.now() + (over.expiresInMs ?? 7 * DAY)),
      },
      new Date(Date.now() - DAY),
    );
    ids[name] = row.id;
    return row.id;
  };

  before(async () => {
    h = await startAgentHarness();
    await upsertEntities(
      h.store.db,
      [
        { slug: "lxc:bridges", type: "lxc", name: "bridges" },
        { slug: "lxc:other", type: "lxc", name: "other" },
      ],
      { by: "test" },
    );
    assert.notEqual(redact(SECRET), SECRET, "the secret command is one redaction changes");
    await grant("live");
    await grant("revoked");
    await endStandingGrant(h.store.db, ids.revoked!, { by: "@alice", reason: "revoked", now: new Date() });
    await grant("expired", { expiresInMs: -60_000 });
    await grant("otherTarget", { target: "lxc:other", command: "systemctl restart other" });
    await grant("otherRoom", { room: "elsewhere", command: "systemctl restart whatsapp-bridge --now" });
    await grant("secret", { command: SECRET });
  });
  after(async () => h?.close());

  const systemOf = (request: RecordedRequest | undefined): string => {
    const system = request?.body.messages.find((m) => m.role === "system");
    assert.ok(system && typeof system.content === "string", "the model got a system message");
    return system.content;
  };

  test("a turn on lxc:bridges is told the live grant there (id, command as granted, target, until), nothing else", async () => {
    await h.useScript([{ name: "answer", when: match.lastUserMessage("bridge"), reply: { text: "On it." } }]);
    const sessionId = await h.newSession();
    await touchEntities(h.store.db, { sessionId, slugs: ["lxc:bridges"], via: "run" });
    await h.say(sessionId, "the whatsapp bridge hangs again, restart it");
    await requestTurn(h.deps, sessionId, "message");
    const system = systemOf(h.model.requests[0]);
    const line = system.split("\n").find((l) => l.startsWith(GRANTS_HEADING));
    assert.ok(line, `the prompt lists live grants:\n${system}`);
    const shown = JSON.parse(line.slice(line.indexOf("["))) as Record<string, string>[];
    assert.equal(shown.length, 1, line);
    assert.equal(shown[0]!.grant, ids.live);
    assert.equal(shown[0]!.command, RESTART);
    assert.equal(shown[0]!.target, "lxc:bridges");
    assert.ok(Date.parse(shown[0]!.until!) > Date.now());
    for (const name of ["revoked", "expired", "otherTarget", "otherRoom", "secret"]) {
      assert.ok(!system.includes(ids[name]!), `the ${name} grant is not shown`);
    }
    assert.ok(!system.includes("ghp_"), "nothing secret");
  });

  test("a turn naming no entity is told no grant", async () => {
    await h.useScript([{ name: "answer", when: match.lastUserMessage("hello"), reply: { text: "Hi." } }]);
    const sessionId = await h.newSession();
    await h.say(sessionId, "hello");
    await requestTurn(h.deps, sessionId, "message");
    const lines = systemOf(h.model.requests[0]).split("\n");
    assert.ok(!lines.some((l) => l.startsWith(GRANTS_HEADING)), "no grants line (SOUL.md only names it)");
  });

  test("get_entity shows the live grants of the session's room on that entity", async () => {
    const sessionId = await h.newSession();
    const bridges = await h.gateway.call(sessionId, "get_entity", { slug: "lxc:bridges" });
    const entity = bridges.structured as {
      standing_grants?: { grant: string; command: string; until: string }[];
    };
    assert.deepEqual(
      entity.standing_grants?.map((g) => [g.grant, g.command]),
      [[ids.live, RESTART]],
      bridges.text,
    );
    assert.ok(!bridges.text.includes("ghp_"), "nothing secret in the result");
    const other = await h.gateway.call(sessionId, "get_entity", { slug: "lxc:other" });
    assert.deepEqual(
      (other.structured as typeof entity).standing_grants?.map((g) => g.grant),
      [ids.otherTarget],
    );
  });

  test("a turn reads grants once, again only when the entities in play change", async () => {
    const sessionId = await h.newSession();
    const turn = new TurnGrants();
    const now = new Date();
    assert.deepEqual(await turn.of(h.store.db, sessionId, [], now), [], "no entity, no grant (and no query)");
    assert.deepEqual(
      (await turn.of(h.store.db, sessionId, ["lxc:bridges"], now)).map((g) => g.id),
      [ids.live],
    );
    const later = await grant("later", { command: "systemctl restart whatsapp-bridge.service" });
    assert.deepEqual(
      (await turn.of(h.store.db, sessionId, ["lxc:bridges"], now)).map((g) => g.id),
      [ids.live],
      "same entities in play: the turn's grants, not read again",
    );
    assert.deepEqual(
      (await turn.of(h.store.db, sessionId, ["lxc:bridges", "lxc:other"], now)).map((g) => g.id).sort(),
      [ids.live, ids.otherTarget, later].sort(),
      "another entity in play: read again",
    );
  });
});
