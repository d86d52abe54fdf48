import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { moveSession } from "../store/session-lifecycle.ts";
import { sessionRow } from "../test-support/agent/session-queries.ts";
import { harnessForSuite } from "../test-support/agent/suite-harness.ts";
import { match } from "../test-support/scripted-model/index.ts";
import { parkCrashingTurn } from "./crash-loop.ts";
import { IDLE_MS, sweepIdleSessions } from "./idle-sweep.ts";
import { resumeOwedTurns } from "./resume.ts";
import { requestTurn } from "./turn-runner.ts";

describe("a turn that kills its process in every run is given up: parked, the operator told once", () => {
  const harness = harnessForSuite();

  test("two jobs of the session give up: told once, nothing resumes or nudges it, a reply tries again", async () => {
    const h = harness();
    await h.useScript([
      { name: "again", when: match.lastUserMessage("try again"), reply: { text: "Trying again now." } },
    ]);
    const sessionId = await h.newSession();
    await h.say(sessionId, "upgrade the kernel");
    await moveSession(h.store.db, sessionId, "executing", {
      // The holder is a process that died: its lease ran out.
      set: { turn_owner: "gone-host:77:deadbeef:turn", turn_expires_at: new Date(Date.now() - 1000) },
    });
    const gaveUp = (id: string) => ({
      id,
      queue: "agent-turn",
      data: { sessionId },
      attempt: 3,
      reason: "the process stopped during each of this job's 3 runs; not run again",
    });
    await parkCrashingTurn(h.deps, gaveUp("turn-job"));
    await parkCrashingTurn(h.deps, gaveUp(`resume:${sessionId}`));

    const told = h.published.filter((e) => e.type === "agent.message" && e.sessionId === sessionId);
    assert.equal(told.length, 1, "the operator is told once");
    assert.match(told[0]!.type === "agent.message" ? told[0]!.text : "", /stopped oikos itself 3 times/);
    const row = await sessionRow(h, sessionId);
    assert.equal(row.status, "awaiting_input");
    assert.equal(row.turn_owner, null);
    assert.equal(row.turn_pending, false);

    const later = new Date(Date.now() + 3 * IDLE_MS);
    assert.deepEqual(await resumeOwedTurns({ db: h.store.db, queue: h.queue }, later), []);
    assert.deepEqual(
      await sweepIdleSessions({ db: h.store.db, events: h.events, queue: h.queue, now: later }),
      [],
    );
    assert.equal(h.model.requests.length, 0, "no model call until the operator says so");

    await h.say(sessionId, "try again");
    const result = await requestTurn(h.deps, sessionId, "message");
    assert.equal(result.status, "ran");
    assert.deepEqual(
      h.model.requests.map((r) => r.step),
      ["again"],
    );
  });
});
