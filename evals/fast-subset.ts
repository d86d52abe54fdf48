import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { sshLabUnavailable } from "../test-support/sshd/ssh-lab.ts";
import { loadScenarios, type Scenario } from "./harness/manifest.ts";
import { runScenario } from "./harness/run-scenario.ts";
import { Homelab } from "./lab/homelab.ts";

/**
 * The fast subset of `npm run eval` (scenarios marked `fast: true`), so CI replays the incidents that
 * guard the core gates on every run; the whole set runs with `npm run eval`. A scenario mostly waits
 * (for the model double, the chat double, a command's timeout), so the subset is cut into shards,
 * one test file each (`evals/evals-<n>.test.ts`), that the test runner runs side by side: each shard
 * its own process and homelab, its scenarios one after another. Scenarios that write the hosts'
 * shared files (`hosts[].files`, one folder on this machine) all go to the first shard.
 */
export const SHARDS = 3;

export function shardOf(all: readonly Scenario[], shard: number): Scenario[] {
  const shards: Scenario[][] = Array.from({ length: SHARDS }, () => []);
  let next = 0;
  for (const scenario of all) {
    const writesFiles = scenario.hosts.some((host) => Object.keys(host.files).length > 0);
    shards[writesFiles ? 0 : next++ % SHARDS]!.push(scenario);
  }
  return shards[shard]!;
}

export async function describeFastShard(shard: number): Promise<void> {
  const unavailable = await sshLabUnavailable();
  const fast = (await loadScenarios()).filter((s) => s.fast);
  const scenarios = shardOf(fast, shard);

  describe(`evals (fast subset, shard ${shard + 1} of ${SHARDS})`, {
    skip: unavailable ? `sshd unavailable: ${unavailable}` : false,
  }, () => {
    let homelab: Homelab;
    before(async () => {
      homelab = await Homelab.start(scenarios.flatMap((s) => s.hosts.map((h) => h.name)));
    });
    after(() => homelab?.stop());

    test("the fast subset is not empty and every shard has scenarios", () => {
      assert.ok(fast.length >= 3 * SHARDS);
      for (let other = 0; other < SHARDS; other++) assert.ok(shardOf(fast, other).length > 0);
    });

    for (const scenario of scenarios) {
      test(scenario.name, async () => {
        const result = await runScenario(scenario, { homelab });
        assert.deepEqual(result.failures, [], `${scenario.name} (${scenario.replays})`);
      });
    }
  });
}
