import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import OpenAI from "openai";
import { match, type ScriptedModelServer, startScriptedModel } from "./index.ts";

const tools = [
  {
    type: "function" as const,
    function: { name: "get_entity", parameters: { type: "object", properties: {} } },
  },
];

describe("scripted model server through the openai SDK", () => {
  let model: ScriptedModelServer;
  let client: OpenAI;

  before(async () => {
    model = await startScriptedModel({
      script: [
        {
          name: "research",
          when: match.lastUserMessage(/gitea/),
          reply: { toolCalls: [{ name: "get_entity", arguments: { slug: "lxc:gitea" } }] },
        },
        {
          name: "answer",
          when: match.lastToolResult("running", "get_entity"),
          reply: { text: "gitea is running" },
        },
        { name: "empty", when: match.lastUserMessage("empty please"), reply: { fault: "empty" } },
        { name: "limit", when: match.lastUserMessage("rate"), reply: { fault: "http", status: 429 } },
        { name: "cut-off", when: match.lastUserMessage("malformed"), reply: { fault: "malformed" } },
        { name: "report", when: match.toolsOffered(false), reply: { text: "status report" } },
        {
          name: "streamed",
          when: match.lastUserMessage("stream"),
          reply: {
            text: "a streamed answer that is longer than one chunk",
            toolCalls: [{ name: "get_entity", arguments: { slug: "host:a" } }],
          },
        },
      ],
    });
    client = new OpenAI({ baseURL: model.url, apiKey: "test", maxRetries: 0 });
  });
  after(() => model.close());

  test("plays tool calls, matches tool results, records requests", async () => {
    const first = await client.chat.completions.create({
      model: "m",
      tools,
      messages: [{ role: "user", content: "is gitea up?" }],
    });
    const call = first.choices[0]!.message.tool_calls![0]!;
    assert.equal(call.type === "function" && call.function.name, "get_entity");
    assert.deepEqual(call.type === "function" && JSON.parse(call.function.arguments), { slug: "lxc:gitea" });
    const second = await client.chat.completions.create({
      model: "m",
      tools,
      messages: [
        { role: "user", content: "is gitea up?" },
        { role: "assistant", content: null, tool_calls: [call] },
        { role: "tool", tool_call_id: call.id, content: '{"state":"running"}' },
      ],
    });
    assert.equal(second.choices[0]!.message.content, "gitea is running");
    assert.ok((second.usage?.total_tokens ?? 0) > 0);
    assert.deepEqual(
      model.requests.map((r) => r.step),
      ["research", "answer"],
    );
  });

  test("faults: empty response and HTTP 429", async () => {
    const empty = await client.chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: "empty please" }],
    });
    assert.equal(empty.choices[0]!.message.content, null);
    assert.equal(empty.choices[0]!.message.tool_calls, undefined);
    await assert.rejects(
      client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "rate" }] }),
      (error: unknown) => error instanceof OpenAI.APIError && error.status === 429,
    );
  });

  test("fault malformed: a 200 whose body is not JSON fails the client's parse", async () => {
    await assert.rejects(
      client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "malformed" }] }),
      (error: unknown) => error instanceof SyntaxError || /JSON/.test(String(error)),
    );
  });

  test("no-tools request is distinguishable, unmatched requests get a 500 and are recorded", async () => {
    const report = await client.chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: "x" }],
    });
    assert.equal(report.choices[0]!.message.content, "status report");
    await assert.rejects(
      client.chat.completions.create({ model: "m", tools, messages: [{ role: "user", content: "nothing" }] }),
    );
    assert.equal(model.unmatched.length, 1);
  });

  test("streams text and tool calls as SSE", async () => {
    const stream = await client.chat.completions.create({
      model: "m",
      tools,
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: "user", content: "stream it" }],
    });
    let text = "";
    let args = "";
    let name = "";
    let finish: string | null = null;
    let usage = 0;
    for await (const chunk of stream) {
      if (chunk.usage) usage = chunk.usage.total_tokens;
      const choice = chunk.choices[0];
      if (!choice) continue;
      text += choice.delta.content ?? "";
      for (const call of choice.delta.tool_calls ?? []) {
        name += call.function?.name ?? "";
        args += call.function?.arguments ?? "";
      }
      finish = choice.finish_reason ?? finish;
    }
    assert.equal(text, "a streamed answer that is longer than one chunk");
    assert.equal(name, "get_entity");
    assert.deepEqual(JSON.parse(args), { slug: "host:a" });
    assert.equal(finish, "tool_calls");
    assert.ok(usage > 0);
    assert.deepEqual(model.remaining(), []);
  });
});

describe("scripted model: hold a reply until the test releases it", () => {
  test("a held reply is written only after its gate opens; a never-settling hold ends when the client aborts", async () => {
    const model = await startScriptedModel();
    const client = new OpenAI({ baseURL: model.url, apiKey: "test", maxRetries: 0 });
    try {
      const gate = Promise.withResolvers<void>();
      model.push(
        {
          name: "held",
          when: match.lastUserMessage("held"),
          reply: { text: "released", hold: gate.promise },
        },
        {
          name: "meanwhile",
          when: match.lastUserMessage("meanwhile"),
          reply: { text: "served while the other reply is held" },
        },
        {
          name: "hangs",
          when: match.lastUserMessage("hang"),
          reply: { text: "never", hold: new Promise(() => {}) },
        },
        { name: "after", when: match.lastUserMessage("after"), reply: { text: "still serving" } },
      );
      let settled = false;
      const held = client.chat.completions
        .create({ model: "m", messages: [{ role: "user", content: "held" }] })
        .finally(() => {
          settled = true;
        });
      await model.waitForRequests(1);
      const meanwhile = await client.chat.completions.create({
        model: "m",
        messages: [{ role: "user", content: "meanwhile" }],
      });
      assert.equal(meanwhile.choices[0]!.message.content, "served while the other reply is held");
      assert.equal(settled, false, "the reply waits for the gate");
      gate.resolve();
      assert.equal((await held).choices[0]!.message.content, "released");

      const abort = new AbortController();
      const hanging = client.chat.completions.create(
        { model: "m", messages: [{ role: "user", content: "hang" }] },
        { signal: abort.signal },
      );
      await model.waitForRequests(3);
      abort.abort();
      await assert.rejects(hanging);
      const next = await client.chat.completions.create({
        model: "m",
        messages: [{ role: "user", content: "after" }],
      });
      assert.equal(next.choices[0]!.message.content, "still serving");
      assert.deepEqual(model.remaining(), []);
    } finally {
      await model.close();
    }
  });
});
