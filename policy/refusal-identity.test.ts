import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  argumentsHash,
  canonicalArguments,
  RefusalLedger,
  refusalIdentityOf,
  refusalKey,
  refusalsOf,
} from "./refusal-identity.ts";
import { REFUSAL_CODES, refusal } from "./refusals.ts";
import { TOOL_OUTCOME_KINDS } from "./tool-outcome.ts";

const runArgs = { target: "lxc:old-wiki", command: "apt list --upgradable", purpose: "count updates" };
const refused = (code: (typeof REFUSAL_CODES)[number], reason = "why") => refusal(code, reason);

function fanOut(kind: "fan_out" | "fan_out_refused", items: { target: string; code?: string }[]) {
  return {
    kind,
    results: items.map(({ target, code }) =>
      code === undefined
        ? { target, kind: "finished", execution_id: "ex-1", status: "completed" }
        : { target, kind: "refused", code, reason: `${target} refused`, next_step: "…" },
    ),
  };
}

describe("canonical arguments", () => {
  test("key order, surrounding whitespace and the ungated purpose do not matter", () => {
    const a = canonicalArguments({ command: "uptime", target: "host:a", purpose: "first try" });
    const b = canonicalArguments({ target: " host:a", purpose: "once more, please", command: "uptime " });
    assert.equal(a, b);
    assert.equal(
      argumentsHash({ b: { y: 1, x: [2, "z "] }, a: null }),
      argumentsHash({ a: null, b: { x: [2, "z"], y: 1 } }),
    );
  });

  test("anything a gate decides on changes the hash", () => {
    const base = argumentsHash({ target: "host:a", command: "uptime" });
    for (const other of [
      { target: "host:b", command: "uptime" },
      { target: "host:a", command: "uptime -p" },
      { target: "host:a", command: "uptime", timeout_ms: 5 },
      { targets: ["host:a"], command: "uptime" },
    ]) {
      assert.notEqual(argumentsHash(other), base, JSON.stringify(other));
    }
    // a nested `purpose` is an argument like any other: only the top-level one is ungated
    assert.notEqual(argumentsHash({ x: { purpose: "a" } }), argumentsHash({ x: { purpose: "b" } }));
    // the order of a fan-out's targets is kept: it is the order of its results
    assert.notEqual(argumentsHash({ targets: ["a", "b"] }), argumentsHash({ targets: ["b", "a"] }));
  });
});

describe("the refusals a result carries", () => {
  test("every refusal code is read from a plain refusal", () => {
    for (const code of REFUSAL_CODES) {
      assert.deepEqual(refusalsOf(refused(code, "because")), [{ target: null, code, reason: "because" }]);
    }
  });

  test("every non-refusal kind carries none", () => {
    for (const kind of Object.keys(TOOL_OUTCOME_KINDS).filter((k) => !/refused/.test(k))) {
      if (kind === "fan_out") continue;
      assert.deepEqual(refusalsOf({ kind, message: "x" }), [], kind);
    }
    assert.deepEqual(refusalsOf(fanOut("fan_out", [{ target: "a" }, { target: "b" }])), []);
  });

  test("a fan-out: the refused targets only, each with its code", () => {
    const result = fanOut("fan_out", [
      { target: "lxc:web1" },
      { target: "lxc:old-wiki", code: "target_not_runnable" },
      { target: "lxc:db2", code: "retry_cap" },
    ]);
    assert.deepEqual(refusalsOf(result), [
      { target: "lxc:old-wiki", code: "target_not_runnable", reason: "lxc:old-wiki refused" },
      { target: "lxc:db2", code: "retry_cap", reason: "lxc:db2 refused" },
    ]);
  });

  test("unreadable or unknown: nothing (the loop never guesses from words)", () => {
    for (const value of [
      undefined,
      null,
      "Refused (retry_cap): stop",
      { kind: "refused" },
      { kind: "refused", code: "no_such_code", reason: "x" },
      { kind: "fan_out", results: "lxc:a refused" },
      fanOut("fan_out_refused", [{ target: "a", code: "made_up" }]),
    ]) {
      assert.deepEqual(refusalsOf(value), [], JSON.stringify(value));
    }
  });
});

describe("refusal identity", () => {
  test("null when nothing was refused", () => {
    assert.equal(refusalIdentityOf("run", runArgs, { kind: "finished", execution_id: "ex-1" }), null);
    assert.equal(refusalIdentityOf("run_many", {}, fanOut("fan_out", [{ target: "a" }])), null);
  });

  test("same tool, code and arguments: the same identity, whatever the wording or purpose", () => {
    const a = refusalIdentityOf("run", runArgs, refused("target_not_runnable", "destroyed"));
    const b = refusalIdentityOf(
      "run",
      { ...runArgs, purpose: "try again" },
      refused("target_not_runnable", "lxc:old-wiki is destroyed (said differently)"),
    );
    assert.ok(a && b);
    assert.equal(refusalKey(a), refusalKey(b));
  });

  test("a different code, tool or argument is a different identity", () => {
    const key = (tool: string, args: Record<string, unknown>, code: (typeof REFUSAL_CODES)[number]) =>
      refusalKey(refusalIdentityOf(tool, args, refused(code))!);
    const base = key("run", runArgs, "retry_cap");
    assert.notEqual(key("run", runArgs, "preplan_cap"), base);
    assert.notEqual(key("inspect_path", runArgs, "retry_cap"), base);
    assert.notEqual(key("run", { ...runArgs, command: "apt list" }, "retry_cap"), base);
    // every pair of distinct codes differs
    const keys = new Set(REFUSAL_CODES.map((code) => key("run", runArgs, code)));
    assert.equal(keys.size, REFUSAL_CODES.length);
  });

  test("a fan-out: the same targets refused with the same codes, in any order, is the same identity", () => {
    const args = { targets: ["lxc:ct16", "lxc:old-wiki"], command: "apt list --upgradable" };
    const first = refusalIdentityOf(
      "run_many",
      args,
      fanOut("fan_out", [
        { target: "lxc:ct16", code: "retry_cap" },
        { target: "lxc:old-wiki", code: "target_not_runnable" },
      ]),
    )!;
    const again = refusalIdentityOf(
      "run_many",
      args,
      fanOut("fan_out_refused", [
        { target: "lxc:old-wiki", code: "target_not_runnable" },
        { target: "lxc:ct16", code: "retry_cap" },
      ]),
    )!;
    assert.equal(refusalKey(first), refusalKey(again));
    const otherTargetRefused = refusalIdentityOf(
      "run_many",
      args,
      fanOut("fan_out", [{ target: "lxc:old-wiki", code: "target_not_runnable" }, { target: "lxc:ct16" }]),
    )!;
    assert.notEqual(refusalKey(otherTargetRefused), refusalKey(first));
  });
});

describe("the ledger of one turn", () => {
  test("the second time an identity is recorded it is a repeat; others stay first", () => {
    const ledger = new RefusalLedger();
    const a = refusalIdentityOf("run", runArgs, refused("target_not_runnable"))!;
    const b = refusalIdentityOf(
      "run",
      { ...runArgs, target: "lxc:old-mail" },
      refused("target_not_runnable"),
    )!;
    assert.equal(ledger.record(a), "first");
    assert.equal(ledger.record(b), "first");
    assert.equal(ledger.record(a), "repeated");
    assert.equal(ledger.record(b), "repeated");
  });

  test("seeded with the keys of earlier turns: their first repeat is a repeat", () => {
    const a = refusalIdentityOf("run", runArgs, refused("target_not_runnable"))!;
    const ledger = new RefusalLedger([refusalKey(a)]);
    assert.equal(ledger.record(a), "repeated");
    assert.equal(new RefusalLedger(["something else"]).record(a), "first");
  });
});
