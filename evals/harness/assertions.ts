import type { Kysely } from "kysely";
import type { Database } from "../../store/schema.ts";
import type { Homelab } from "../lab/homelab.ts";
import { checkAbsent, type PlaceTexts } from "./absent.ts";
import { checkCount } from "./count.ts";
import { checkGrants } from "./grant-expectations.ts";
import { checkGraph } from "./graph-expectations.ts";
import { checkFiles, checkPreviews } from "./lab-files.ts";
import type { Expectation } from "./manifest.ts";
import { checkPlans, checkSessions } from "./thread-expectations.ts";

export { checkCount } from "./count.ts";

export interface ToolCallFact {
  sessionId: string;
  name: string;
  args: Record<string, unknown>;
}

export interface ToolResultFact {
  sessionId: string;
  name: string | null;
  text: string;
}

/** Everything the assertions look at, read once after the scenario settled. */
export interface Facts {
  db: Kysely<Database>;
  homelab: Homelab;
  sessionOf: (thread: string) => Promise<string | undefined>;
  calls: ToolCallFact[];
  results: ToolResultFact[];
  modelCalls: number;
  wallMs: number;
  botPosts: string[];
  /** Each message the bot sent, as last edited: event id → text (cards are edited as they progress). */
  cardTexts: ReadonlyMap<string, string>;
  unmatchedModelRequests: number;
  places: PlaceTexts;
}

export async function readToolFacts(
  db: Kysely<Database>,
): Promise<{ calls: ToolCallFact[]; results: ToolResultFact[] }> {
  const rows = await db
    .selectFrom("messages")
    .select(["session_id", "role", "content", "tool_calls", "name"])
    .where("role", "in", ["assistant", "tool"])
    .orderBy("id")
    .execute();
  const calls: ToolCallFact[] = [];
  const results: ToolResultFact[] = [];
  for (const row of rows) {
    if (row.role === "tool") {
      results.push({ sessionId: row.session_id, name: row.name, text: row.content });
      continue;
    }
    const toolCalls = (row.tool_calls ?? []) as unknown as { name: string; arguments: string }[];
    for (const call of toolCalls) {
      let args: Record<string, unknown> = {};
      try {
        args = JSON.parse(call.arguments) as Record<string, unknown>;
      } catch {
        args = { _raw: call.arguments };
      }
      calls.push({ sessionId: row.session_id, name: call.name, args });
    }
  }
  return { calls, results };
}

/** Evaluates a scenario's expectations; returns one readable line per failed assertion. */
export async function evaluate(expect: Expectation, facts: Facts): Promise<string[]> {
  const failures: string[] = [];
  const { db } = facts;
  const session = async (thread: string | undefined) => {
    const id = await facts.sessionOf(thread ?? "main");
    if (!id) failures.push(`no session for thread ${thread ?? "main"}`);
    return id;
  };
  const scoped = async <T extends { sessionId: string }>(items: T[], thread: string | undefined) => {
    if (thread === undefined) return items;
    const id = await session(thread);
    return items.filter((item) => item.sessionId === id);
  };

  const sessionOf = (thread: string) => facts.sessionOf(thread);
  await checkSessions(
    db,
    [...(expect.session ? [expect.session] : []), ...(expect.sessions ?? [])],
    sessionOf,
    failures,
  );

  if (expect.tools) {
    const t = expect.tools;
    const calls = await scoped(facts.calls, t.thread);
    const names = calls.map((c) => c.name);
    for (const name of t.called ?? [])
      if (!names.includes(name)) failures.push(`tool ${name} was never called`);
    for (const name of t.not_called ?? [])
      if (names.includes(name))
        failures.push(`tool ${name} was called (${names.filter((n) => n === name).length}x)`);
    for (const [first, second] of t.before ?? []) {
      const a = names.indexOf(first);
      const b = names.indexOf(second);
      if (b < 0) failures.push(`${second} was never called (expected after ${first})`);
      else if (a < 0 || a > b) failures.push(`${second} was called before any ${first}`);
    }
    for (const [name, spec] of Object.entries(t.count ?? {})) {
      checkCount(`calls of ${name}`, names.filter((n) => n === name).length, spec, failures);
    }
    checkCount("tool calls", calls.length, t.total, failures);
    if (t.max_same_command !== undefined) {
      const perKey = new Map<string, number>();
      for (const call of calls.filter((c) => c.name === "run")) {
        const key = `${String(call.args.target)} ${String(call.args.command).replace(/\s+/g, " ").trim()}`;
        perKey.set(key, (perKey.get(key) ?? 0) + 1);
      }
      for (const [key, n] of perKey) {
        if (n > t.max_same_command)
          failures.push(`run "${key}" issued ${n} times (max ${t.max_same_command})`);
      }
    }
    for (const slug of t.no_run_on ?? []) {
      const executed = await db
        .selectFrom("executions")
        .select(["command", "status"])
        .where("target", "=", slug)
        .execute();
      if (executed.length > 0)
        failures.push(
          `an execution was created on ${slug}: ${executed.map((e) => `${e.command} (${e.status})`).join("; ")}`,
        );
    }
    if (t.no_propose_after_run) {
      const firstRun = names.findIndex((n) => n === "run" || n === "run_many");
      const lastPropose = names.lastIndexOf("propose_plan");
      if (firstRun >= 0 && lastPropose > firstRun)
        failures.push("propose_plan was called again after execution started");
    }
    const results = await scoped(facts.results, t.thread);
    for (const spec of t.results ?? []) {
      const hits = results.filter(
        (r) =>
          (spec.tool === undefined || r.name === spec.tool) &&
          r.text.toLowerCase().includes(spec.contains.toLowerCase()),
      ).length;
      checkCount(`${spec.tool ?? "tool"} results containing "${spec.contains}"`, hits, spec.count, failures);
    }
  }

  await checkPlans(db, expect.plans ?? [], sessionOf, failures);
  await checkGraph(db, expect.graph, sessionOf, failures);
  await checkGrants(db, expect.grants, facts.cardTexts, failures);

  if (expect.approvals) {
    const a = expect.approvals;
    let query = db.selectFrom("approvals").selectAll().where("subject", "=", "execution");
    if (a.thread !== undefined) {
      const id = await session(a.thread);
      query = query.where("session_id", "=", id ?? "none");
    }
    const rows = await query.execute();
    checkCount("execution approvals requested", rows.length, a.requested, failures);
    checkCount(
      "execution approvals approved",
      rows.filter((r) => r.status === "approved").length,
      a.approved,
      failures,
    );
    checkCount(
      "execution approvals denied",
      rows.filter((r) => r.status === "denied").length,
      a.denied,
      failures,
    );
    for (const [channel, spec] of Object.entries(a.by_channel ?? {}))
      checkCount(
        `execution approvals decided via ${channel}`,
        rows.filter((r) => r.channel === channel && r.decided_at !== null).length,
        spec,
        failures,
      );
    for (const row of rows.filter((r) => r.status === "approved")) {
      if (a.by && row.decided_by !== a.by)
        failures.push(`approval ${row.id} decided by ${row.decided_by}, expected ${a.by}`);
      if (a.via && row.channel !== a.via)
        failures.push(`approval ${row.id} decided via ${row.channel}, expected ${a.via}`);
    }
    if (
      a.required_phrase_contains &&
      !rows.some((r) => (r.required_phrase ?? "").includes(a.required_phrase_contains!))
    )
      failures.push(`no approval asked for a phrase containing "${a.required_phrase_contains}"`);
  }

  if (expect.executions) {
    let query = db
      .selectFrom("executions")
      .select(["status", "target", "command", "output_truncated", "stdout_binary", "stderr_binary"]);
    if (expect.executions.thread !== undefined) {
      const id = await session(expect.executions.thread);
      query = query.where("session_id", "=", id ?? "none");
    }
    const rows = await query.execute();
    checkCount("executions", rows.length, expect.executions.total, failures);
    for (const [status, spec] of Object.entries(expect.executions.by_status ?? {})) {
      checkCount(`executions ${status}`, rows.filter((r) => r.status === status).length, spec, failures);
    }
    for (const [flag, spec] of Object.entries(expect.executions.flags ?? {})) {
      const key = flag as "output_truncated" | "stdout_binary" | "stderr_binary";
      checkCount(`executions flagged ${flag}`, rows.filter((r) => r[key]).length, spec, failures);
    }
  }

  if (expect.steps) {
    const id = await session(expect.steps.thread);
    if (id) {
      const latest = await db
        .selectFrom("plans")
        .select("generation")
        .where("session_id", "=", id)
        .orderBy("generation", "desc")
        .executeTakeFirst();
      const steps = await db
        .selectFrom("plan_steps")
        .selectAll()
        .where("session_id", "=", id)
        .where("generation", "=", latest?.generation ?? 0)
        .orderBy("seq")
        .execute();
      checkCount(
        "plan steps done",
        steps.filter((s) => s.status === "done").length,
        expect.steps.done,
        failures,
      );
      if (expect.steps.all_closed) {
        const open = steps.filter((s) => ["pending", "running"].includes(s.status));
        if (open.length > 0)
          failures.push(`plan steps still open: ${open.map((s) => `${s.seq} ${s.status}`).join(", ")}`);
      }
      if (expect.steps.in_order) {
        const finished = steps.filter((s) => s.finished_at !== null && s.status === "done");
        for (let i = 1; i < finished.length; i++) {
          if (finished[i]!.finished_at! < finished[i - 1]!.finished_at!)
            failures.push(`step ${finished[i]!.seq} finished before step ${finished[i - 1]!.seq}`);
        }
      }
    }
  }

  for (const spec of expect.knowledge ?? []) {
    let query = db.selectFrom("knowledge").select(["id", "kind", "title", "content"]);
    if (spec.kind) query = query.where("kind", "=", spec.kind);
    let rows = await query.execute();
    if (spec.title_contains)
      rows = rows.filter((r) => r.title.toLowerCase().includes(spec.title_contains!.toLowerCase()));
    if (spec.content_contains)
      rows = rows.filter((r) => r.content.toLowerCase().includes(spec.content_contains!.toLowerCase()));
    if (spec.about) {
      const linked = await db
        .selectFrom("knowledge_about")
        .select("knowledge_id")
        .where("entity_slug", "=", spec.about)
        .execute();
      const ids = new Set(linked.map((l) => String(l.knowledge_id)));
      rows = rows.filter((r) => ids.has(String(r.id)));
    }
    checkCount(
      `knowledge ${JSON.stringify({ ...spec, count: undefined })}`,
      rows.length,
      spec.count,
      failures,
    );
  }

  for (const spec of expect.entities ?? []) {
    const row = await db
      .selectFrom("entities")
      .select("attributes")
      .where("slug", "=", spec.slug)
      .executeTakeFirst();
    if (!row) {
      failures.push(`entity ${spec.slug} is missing`);
      continue;
    }
    const attrs = row.attributes as Record<string, unknown>;
    for (const [key, value] of Object.entries(spec.attributes)) {
      const actual = attrs[key];
      const ok = value === "*" ? actual !== undefined : String(actual) === String(value);
      if (!ok)
        failures.push(
          `entity ${spec.slug} attribute ${key} is ${JSON.stringify(actual)}, expected ${JSON.stringify(value)}`,
        );
    }
  }

  if (expect.goals) {
    const id = await session(expect.goals.thread);
    if (id) {
      const goals = await db
        .selectFrom("goals")
        .select("status")
        .where("session_id", "=", id)
        .orderBy("id")
        .execute();
      const statuses = goals.map((g) => g.status);
      if (JSON.stringify(statuses) !== JSON.stringify(expect.goals.statuses))
        failures.push(
          `goal statuses ${JSON.stringify(statuses)}, expected ${JSON.stringify(expect.goals.statuses)}`,
        );
    }
  }

  for (const [host, vars] of Object.entries(expect.world ?? {})) {
    const actual = await facts.homelab.vars(host);
    for (const [key, value] of Object.entries(vars)) {
      if (String(actual[key]) !== String(value))
        failures.push(
          `world ${host}.${key} is ${JSON.stringify(actual[key])}, expected ${JSON.stringify(value)}`,
        );
    }
  }
  await checkFiles(expect.files, failures);
  await checkPreviews(facts.db, await facts.sessionOf("main"), expect.previews, failures);
  for (const spec of expect.world_calls ?? []) {
    const calls = (await facts.homelab.calls(spec.host)).filter(
      (c) => c.tool === spec.tool && (spec.args === undefined || new RegExp(spec.args).test(c.args)),
    );
    checkCount(
      `${spec.tool}${spec.args ? ` /${spec.args}/` : ""} calls on ${spec.host}`,
      calls.length,
      spec.count,
      failures,
    );
  }

  if (expect.cards) {
    let query = db.selectFrom("chat_cards").select("kind");
    if (expect.cards.thread !== undefined) {
      const id = await session(expect.cards.thread);
      query = query.where("session_id", "=", id ?? "none");
    }
    const rows = await query.execute();
    for (const [kind, spec] of Object.entries(expect.cards.by_kind)) {
      checkCount(`${kind} cards posted`, rows.filter((r) => r.kind === kind).length, spec, failures);
    }
  }
  for (const text of expect.posts_contain ?? []) {
    if (!facts.botPosts.some((p) => p.toLowerCase().includes(text.toLowerCase())))
      failures.push(`no bot message mentions "${text}"`);
  }

  checkAbsent(expect.absent ?? [], facts.places, failures);

  // TARGETS.md: no scenario runs one failing command more than 3 times.
  const failing = await db
    .selectFrom("executions")
    .select(["target", "command_key", "command"])
    .where("status", "in", ["failed", "timed_out"])
    .execute();
  const failuresPerKey = new Map<string, number>();
  for (const row of failing) {
    const key = `${row.target} ${row.command_key}`;
    failuresPerKey.set(key, (failuresPerKey.get(key) ?? 0) + 1);
    if (failuresPerKey.get(key) === 4)
      failures.push(`\`${row.command}\` on ${row.target} failed more than 3 times`);
  }

  checkCount("model calls", facts.modelCalls, expect.model_calls, failures);
  checkCount("tool calls (all sessions)", facts.calls.length, expect.tool_calls, failures);
  checkCount("wall ms", facts.wallMs, expect.wall_ms, failures);
  if (!expect.script_drift && facts.unmatchedModelRequests > 0)
    failures.push(
      `${facts.unmatchedModelRequests} model request(s) matched no scripted step (the agent drifted off the script)`,
    );
  return failures;
}
