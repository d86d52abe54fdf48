import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { loadScenarios, parseScenario } from "./manifest.ts";

/** A valid manifest to break one key at a time. */
const base = () => ({
  name: "probe",
  replays: "manifest validation",
  hosts: [{ name: "alpha", entity: { slug: "host:alpha", type: "host" } }],
  model: [{ reply: { text: "ok" } }],
  operator: [{ say: "hello" }] as unknown[],
  expect: {} as Record<string, unknown>,
});

/** The validation error of a manifest, or "" when it parses. */
function errorOf(manifest: unknown): string {
  try {
    parseScenario(manifest, "probe.yaml");
    return "";
  } catch (error) {
    return (error as Error).message;
  }
}

describe("scenario manifests", () => {
  test("every manifest in evals/scenarios parses", async () => {
    assert.ok((await loadScenarios()).length > 20);
  });

  test("the probe manifest parses", () => {
    assert.equal(errorOf(base()), "");
  });

  describe("config:", () => {
    test("any config key is accepted and kept", () => {
      const scenario = parseScenario(
        { ...base(), config: { self: { targets: ["host:alpha"] }, execution: { approvalTtlMs: 60_000 } } },
        "probe.yaml",
      );
      assert.deepEqual(scenario.config.self, { targets: ["host:alpha"] });
    });
    test("a misspelt key is named", () => {
      const error = errorOf({ ...base(), config: { execution: { approvalTTL: 60_000 } } });
      assert.match(error, /execution\.approvalTTL is not an oikos configuration key/);
      assert.match(error, /at config\.execution\.approvalTTL/);
    });
    test("a value the config refuses is named with its path", () => {
      const error = errorOf({ ...base(), config: { execution: { approvalTtlMs: 5 } } });
      assert.match(error, /at config\.execution\.approvalTtlMs/);
    });
    test("keys the harness owns are refused by name", () => {
      const error = errorOf({ ...base(), config: { model: { baseUrl: "http://elsewhere/v1" } } });
      assert.match(error, /model\.baseUrl is set by the eval harness/);
    });
  });

  describe("files:", () => {
    const withFiles = (path: string) => ({
      ...base(),
      hosts: [{ name: "alpha", entity: { slug: "host:alpha", type: "host" }, files: { [path]: "x\n" } }],
    });
    test("files under the lab folder, write_file and expect.files / previews parse", () => {
      const path = "/srv/oikos-eval-files/p/exports";
      const manifest = {
        ...withFiles(path),
        operator: [{ write_file: { host: "alpha", path, content: "y\n" } }],
        expect: { files: { [path]: { equals: "y\n" } }, previews: { shown: 1, asked_again: 0 } },
      };
      assert.equal(errorOf(manifest), "");
    });
    test("a path outside the lab folder, or climbing out of it, is refused with its key", () => {
      for (const path of [
        "/etc/exports",
        "/srv/oikos-eval-files/../../etc/passwd",
        "/tmp/oikos-eval-files/x",
      ])
        assert.match(errorOf(withFiles(path)), /at hosts\[0\]\.files/, path);
    });
    test("write_file names a lab host of the scenario", () => {
      const error = errorOf({
        ...base(),
        operator: [{ write_file: { host: "beta", path: "/srv/oikos-eval-files/x", content: "" } }],
      });
      assert.match(error, /no lab host named beta/);
    });
  });

  describe("lab:", () => {
    test("each lab action parses", () => {
      for (const name of ["rotate_host_key", "stop_host", "start_host", "partition_host"])
        assert.equal(errorOf({ ...base(), operator: [{ lab: { [name]: "alpha" } }] }), "", name);
    });
    test("an unknown lab action is named", () => {
      const error = errorOf({ ...base(), operator: [{ lab: { rotate_hostkey: "alpha" } }] });
      assert.match(error, /rotate_hostkey/);
      assert.match(error, /at operator\[0\]\.lab/);
    });
    test("a host the scenario does not have is named", () => {
      const error = errorOf({ ...base(), operator: [{ lab: { stop_host: "beta" } }] });
      assert.match(error, /no lab host named beta/);
      assert.match(error, /at operator\[0\]\.lab\.stop_host/);
    });
    test("two actions in one step are refused", () => {
      const error = errorOf({ ...base(), operator: [{ lab: { stop_host: "alpha", start_host: "alpha" } }] });
      assert.match(error, /exactly one of/);
    });
  });

  describe("restart:", () => {
    const named = () => ({ ...base(), model: [{ name: "run", reply: { text: "ok" } }] });
    test("at once, or during a model step the script names", () => {
      assert.equal(errorOf({ ...named(), operator: [{ restart: {} }] }), "");
      assert.equal(errorOf({ ...named(), operator: [{ restart: { during: "run" } }] }), "");
    });
    test("during a step the script does not have is named, inside then/else too", () => {
      const when = { when: { thread: "main", status: "done" }, then: [{ restart: { during: "rnu" } }] };
      const error = errorOf({ ...named(), operator: [when] });
      assert.match(error, /restart during "rnu": no model step has that name \(run\)/);
    });
    test("a misspelt key is named", () => {
      assert.match(errorOf({ ...named(), operator: [{ restart: { durign: "run" } }] }), /durign/);
    });
  });

  describe("operator steps", () => {
    test("a misspelt step key is named, not reported as invalid input", () => {
      const error = errorOf({ ...base(), operator: [{ sya: "hello" }] });
      assert.match(error, /sya/);
      assert.match(error, /at operator\[0\]/);
    });
    test("a key that does not go with the step is named", () => {
      const error = errorOf({ ...base(), operator: [{ wait: { quiet: true }, thread: "a" }] });
      assert.match(error, /thread does not go with wait/);
    });
    test("react needs its card", () => {
      assert.match(errorOf({ ...base(), operator: [{ react: "✅" }] }), /at operator\[0\]\.card/);
    });
  });

  describe("absent:", () => {
    test("literal, pattern and secret entries parse; places default to all", () => {
      const scenario = parseScenario(
        {
          ...base(),
          expect: { absent: [{ text: "hunter2" }, { pattern: "sk-[a-z]+", in: "posts" }, { secret: "any" }] },
        },
        "probe.yaml",
      );
      assert.equal(scenario.expect.absent?.[0]?.in.length, 6);
      assert.deepEqual(scenario.expect.absent?.[1]?.in, ["posts"]);
    });
    test("an unknown place is named", () => {
      assert.match(
        errorOf({ ...base(), expect: { absent: [{ text: "x", in: ["logs"] }] } }),
        /at expect\.absent\[0\]\.in/,
      );
    });
    test("an unknown secret shape is named", () => {
      assert.match(
        errorOf({ ...base(), expect: { absent: [{ secret: "ssh_key" }] } }),
        /at expect\.absent\[0\]\.secret/,
      );
    });
    test("a broken regular expression is named", () => {
      assert.match(
        errorOf({ ...base(), expect: { absent: [{ pattern: "(" }] } }),
        /at expect\.absent\[0\]\.pattern/,
      );
    });
    test("an execution flag that does not exist is named", () => {
      const error = errorOf({ ...base(), expect: { executions: { flags: { truncated: 1 } } } });
      assert.match(error, /truncated/);
      assert.match(error, /at expect\.executions\.flags/);
    });
  });

  describe("several threads, one-of statuses", () => {
    test("plans takes one entry or a list, each defaulting to the main thread", () => {
      const one = parseScenario({ ...base(), expect: { plans: { status: "approved" } } }, "probe.yaml");
      assert.deepEqual(
        one.expect.plans?.map((p) => p.thread),
        ["main"],
      );
      const many = parseScenario(
        {
          ...base(),
          expect: { plans: [{ thread: "a", status_in: ["approved", "superseded"] }, { thread: "b" }] },
        },
        "probe.yaml",
      );
      assert.deepEqual(
        many.expect.plans?.map((p) => p.thread),
        ["a", "b"],
      );
    });
    test("a status that does not exist is named", () => {
      const error = errorOf({ ...base(), expect: { sessions: [{ thread: "a", status_in: ["finished"] }] } });
      assert.match(error, /at expect\.sessions\[0\]\.status_in\[0\]/);
      const plan = errorOf({ ...base(), expect: { plans: [{ thread: "a", status: "accepted" }] } });
      assert.match(plan, /at expect\.plans\[0\]\.status/);
    });
  });

  describe("model script", () => {
    test("tool-call arguments may be a raw string, sent verbatim", () => {
      const raw = '{"target": "lxc:web1", "command": "upt';
      const scenario = parseScenario(
        { ...base(), model: [{ reply: { tools: [{ name: "run", args: raw }] } }] },
        "probe.yaml",
      );
      assert.equal(scenario.model[0]?.reply.tools?.[0]?.args, raw);
    });
    test("a misspelt key of a tool call is named", () => {
      const error = errorOf({ ...base(), model: [{ reply: { tools: [{ name: "run", arguments: {} }] } }] });
      assert.match(error, /arguments/);
      assert.match(error, /at model\[0\]\.reply\.tools\[0\]/);
    });
  });

  describe("timing:", () => {
    test("a figure that is not measured is named", () => {
      const error = errorOf({ ...base(), expect: { timing: { wall_time_ms: { max: 5 } } } });
      assert.match(error, /wall_time_ms/);
      assert.match(error, /at expect\.timing/);
    });
    test("a ms bound takes max only", () => {
      assert.match(
        errorOf({ ...base(), expect: { timing: { run_ms: { min: 5 } } } }),
        /at expect\.timing\.run_ms/,
      );
    });
  });

  describe("stuck:", () => {
    test("none means nothing left of any kind", () => {
      const scenario = parseScenario({ ...base(), expect: { stuck: "none" } }, "probe.yaml");
      assert.deepEqual(scenario.expect.stuck, { executions: 0, approvals: 0, steps: 0, turns: 0 });
    });
    test("an unknown kind is named", () => {
      assert.match(errorOf({ ...base(), expect: { stuck: { jobs: 0 } } }), /jobs/);
    });
  });

  describe("grants:", () => {
    test("counts and who parse; a misspelt key is named", () => {
      const scenario = parseScenario(
        { ...base(), expect: { grants: { created: 1, by: "@alice:double.test", uses: { min: 1 } } } },
        "probe.yaml",
      );
      assert.equal(scenario.expect.grants?.created, 1);
      assert.match(errorOf({ ...base(), expect: { grants: { used: 6 } } }), /used/);
    });
    test("approvals by channel take counts", () => {
      assert.match(
        errorOf({ ...base(), expect: { approvals: { by_channel: { grant: "six" } } } }),
        /at expect\.approvals\.by_channel\.grant/,
      );
    });
  });

  describe("when:", () => {
    const branch = (step: unknown) => ({ ...base(), operator: [{ say: "hello" }, step] });
    test("a condition with then and else parses; wait takes several card kinds", () => {
      const step = {
        when: { card: "approval", phrase: true },
        then: [{ type_phrase: "main" }],
        else: [{ react: "✅", card: "approval" }],
      };
      assert.equal(errorOf(branch(step)), "");
      assert.equal(errorOf(branch({ wait: { card: ["plan", "approval"] } })), "");
    });
    test("an unknown condition key is named", () => {
      const error = errorOf(branch({ when: { cards: "plan" }, then: [{ wait: { quiet: true } }] }));
      assert.match(error, /cards/);
      assert.match(error, /at operator\[1\]\.when/);
    });
    test("a bad step inside a branch is named by its path", () => {
      const error = errorOf(branch({ when: { card: "plan" }, then: [{ lab: { stop_host: "beta" } }] }));
      assert.match(error, /no lab host named beta/);
      assert.match(error, /at operator\[1\]\.then\[0\]\.lab\.stop_host/);
    });
    test("when needs a branch, and branches hold no other when", () => {
      assert.match(errorOf(branch({ when: { card: "plan" } })), /when needs then, else or both/);
      const nested = errorOf(
        branch({ when: { card: "plan" }, then: [{ when: { card: "plan" }, then: [] }] }),
      );
      assert.match(nested, /at operator\[1\]\.then\[0\]/);
    });
  });
});
