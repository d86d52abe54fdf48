import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { MAX_FAN_OUT_TARGETS, runMany } from "./fan-out.ts";
import type { RunService } from "./run-service.ts";

/** A run service that fails the test if the fan-out reaches it: these requests are refused first. */
const untouchable = new Proxy({} as RunService, {
  get(_target, property) {
    throw new Error(`the fan-out used the run service (${String(property)}) for a request it must refuse`);
  },
});

const request = (targets: string[]) => ({
  sessionId: "s-1",
  targets,
  command: "uptime",
  purpose: "fleet audit",
  requestedBy: "agent",
});

describe("run_many's own limits, before any target is gated", () => {
  test("a 100-host fleet fits one call; one target more than the limit is refused with the next step", async () => {
    assert.ok(MAX_FAN_OUT_TARGETS >= 100, "a 100-host fleet is one run_many");
    const tooMany = Array.from({ length: MAX_FAN_OUT_TARGETS + 1 }, (_, i) => `host:h${i}`);
    const refused = await runMany(untouchable, request(tooMany));
    assert.ok(!Array.isArray(refused));
    assert.equal(refused.code, "too_many_targets");
    assert.match(
      refused.reason,
      new RegExp(`${MAX_FAN_OUT_TARGETS + 1} targets; at most ${MAX_FAN_OUT_TARGETS}`),
    );
    assert.match(refused.next_step, /batches/);
  });

  test("no targets is refused; the same target twice counts once", async () => {
    const none = await runMany(untouchable, request([]));
    assert.ok(!Array.isArray(none));
    assert.equal(none.code, "no_targets");
    const repeated = Array.from({ length: MAX_FAN_OUT_TARGETS + 1 }, () => "host:same");
    // deduplicated to one target, so it is not too many: it reaches the run service
    await assert.rejects(runMany(untouchable, request(repeated)), /used the run service/);
  });
});
