import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { sshLabUnavailable } from "../test-support/sshd/ssh-lab.ts";
import { loadScenarios, type Scenario } from "./harness/manifest.ts";
import { runScenario } from "./harness/run-scenario.ts";
import { Homelab } from "./lab/homelab.ts";

// The fast subset of `npm run eval` (scenarios marked `fast: true`), so CI replays the incidents that
// guard the core gates on every run. The whole set runs with `npm run eval`.
const unavailable = await sshLabUnavailable();
const scenarios = (await loadScenarios()).filter((s) => s.fast);

describe("evals (fast subset)", { skip: unavailable ? `sshd unavailable: ${unavailable}` : false }, () => {
  let homelab: Homelab;
  before(async () => {
    homelab = await Homelab.start(scenarios.flatMap((s) => s.hosts.map((h) => h.name)));
  });
  after(() => homelab?.stop());

  test("every manifest parses and the fast subset is not empty", async () => {
    assert.ok(scenarios.length >= 3);
  });

  for (const scenario of scenarios as Scenario[]) {
    test(scenario.name, async () => {
      const result = await runScenario(scenario, { homelab });
      assert.deepEqual(result.failures, [], `${scenario.name} (${scenario.replays})`);
    });
  }
});
