import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { ExecutionView } from "../../jobs/execution/execution-view.ts";
import type { FanOutItem } from "../../jobs/execution/fan-out.ts";
import { refusal } from "../../policy/refusals.ts";
import { outcomeEndsTurn } from "../../policy/tool-outcome.ts";
import { unframe } from "../../test-support/mcp-server/call-tool.ts";
import { fanOutOutput } from "./execution-outputs.ts";
import { FAN_OUT_OUTPUT_CHARS, fanOutResult } from "./fan-out-result.ts";

interface Item {
  target: string;
  kind: string;
  code?: string;
  stdout?: string;
  next_step?: string;
  output_truncated?: string;
  execution_id?: string;
}

let ids = 0;
function finished(target: string, fields: Partial<ExecutionView>): FanOutItem {
  const execution: ExecutionView = {
    execution_id: `x${++ids}`,
    status: "completed",
    finished: true,
    target,
    command: "uptime",
    risk: "read_only",
    jail_grants: [],
    jail_engine: null,
    jail_hidden: [],
    exit_code: 0,
    stdout: "up 3 days",
    stderr: null,
    output_truncated: false,
    stdout_binary: false,
    stderr_binary: false,
    output_bytes: 10,
    duration_ms: 40,
    reason: null,
    jailed: null,
    jail_note: null,
    step_seq: null,
    created_at: "2026-01-01T00:00:00.000Z",
    started_at: "2026-01-01T00:00:00.000Z",
    finished_at: "2026-01-01T00:00:01.000Z",
    ...fields,
  };
  return { target, outcome: { kind: "finished", execution } };
}

const unreachable = (target: string) =>
  finished(target, {
    status: "failed",
    exit_code: null,
    stdout: null,
    duration_ms: null,
    output_bytes: null,
    reason: `SSH to ${target} was refused`,
  });

function structured(items: FanOutItem[]): Record<string, unknown> {
  const result = fanOutResult(items);
  assert.equal(result.isError ?? false, false);
  const value = result.structuredContent as Record<string, unknown>;
  const parsed = fanOutOutput.safeParse(value);
  assert.ok(parsed.success, JSON.stringify(parsed.error?.issues));
  return value;
}

describe("run_many / inspect_path results", () => {
  test("a mixed fleet: the summary names what never started and what was refused, with the next step", () => {
    const value = structured([
      finished("lxc:web1", {}),
      unreachable("lxc:web2"),
      finished("lxc:db1", { status: "failed", exit_code: 1, stdout: "E: lock held", duration_ms: 30 }),
      {
        target: "lxc:old-wiki",
        outcome: refusal("target_not_runnable", "lxc:old-wiki is destroyed"),
      },
    ]);
    assert.equal(value.kind, "fan_out");
    assert.equal(outcomeEndsTurn(value), false);
    const summary = String(value.summary);
    assert.match(summary, /^4 targets: 1 completed/);
    assert.match(summary, /1 never started \(lxc:web2\)/);
    assert.match(summary, /1 refused \(lxc:old-wiki: target_not_runnable\)/);
    assert.match(summary, /1 ran and did not complete/);
    assert.match(String(value.next_step), /Do not run this command on those targets again/);
    const results = value.results as Item[];
    assert.match(String(results[1]!.next_step), /never started on lxc:web2/);
    // a command that ran and failed is not "never started": its output is what to read
    assert.equal(results[2]!.next_step, undefined);
    assert.equal(results[3]!.code, "target_not_runnable");
  });

  test("every target completed: a summary and no next step", () => {
    const value = structured([finished("host:a", {}), finished("host:b", {})]);
    assert.equal(value.summary, "2 targets: 2 completed");
    assert.equal(value.next_step, undefined);
  });

  test("100 targets share the output budget; each cut output says where the rest is", () => {
    const long = (i: number) =>
      `${"head".repeat(10)}${String(i).padStart(4, "0")}${"x".repeat(5_000)}tail${i}`;
    const items = Array.from({ length: 100 }, (_, i) => finished(`host:h${i}`, { stdout: long(i) }));
    const value = structured(items);
    const results = value.results as Item[];
    assert.equal(results.length, 100);
    let outputChars = 0;
    for (const [i, item] of results.entries()) {
      const text = unframe(item.stdout);
      assert.ok(text.startsWith("head"), "the head of each output is kept");
      assert.ok(text.endsWith(`tail${i}`), "the tail of each output is kept");
      assert.match(
        String(item.output_truncated),
        new RegExp(`get_execution_status\\("${item.execution_id}"\\)`),
      );
      outputChars += text.length;
    }
    // the share plus the cut marker per target
    assert.ok(outputChars <= FAN_OUT_OUTPUT_CHARS + 100 * 40, `${outputChars} output characters`);
  });

  test("short outputs of a few targets are not cut", () => {
    const value = structured([finished("host:a", { stdout: "a".repeat(1_500) }), finished("host:b", {})]);
    const results = value.results as Item[];
    assert.equal(unframe(results[0]!.stdout), "a".repeat(1_500));
    assert.equal(results[0]!.output_truncated, undefined);
  });

  test("every target refused still ends the turn with why per target", () => {
    const result = fanOutResult([
      { target: "lxc:a", outcome: refusal("target_not_runnable", "lxc:a is destroyed") },
      { target: "lxc:b", outcome: refusal("retry_cap", "uptime on lxc:b has already failed 3 times") },
    ]);
    const value = result.structuredContent as Record<string, unknown>;
    assert.equal(value.kind, "fan_out_refused");
    assert.equal(outcomeEndsTurn(value), true);
    assert.match(String(value.message), /lxc:b: retry_cap/);
  });
});
