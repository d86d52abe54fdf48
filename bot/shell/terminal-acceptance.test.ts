import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { seedEmbeddedDataDir } from "../../test-support/embedded-data-dir.ts";
import { runCli } from "../../test-support/run-cli.ts";
import {
  match,
  type ScriptedModelServer,
  startScriptedModel,
} from "../../test-support/scripted-model/index.ts";

// The terminal acceptance: a scripted conversation piped into the embedded default
// (`oikos chat`: PGlite, in-process queue, terminal chat) with the scripted test model. The
// operator sees the plan card, approves it with `+1`, sees the execution result on the card and
// the completion summary as a threaded reply; the command really ran on the local target.

let dir = "";
let model: ScriptedModelServer;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "oikos-terminal-"));
  await seedEmbeddedDataDir(join(dir, "data"));
  const marker = join(dir, "marker");
  model = await startScriptedModel({
    script: [
      {
        name: "plan",
        when: match.all(
          match.lastUserMessage(/marker directory/),
          match.not(match.systemMentions(/Plan 1 \(/)),
        ),
        reply: {
          toolCalls: [
            { name: "set_goal", arguments: { goal: "Create the marker directory on the workstation" } },
            {
              name: "propose_plan",
              arguments: {
                steps: [
                  {
                    title: "Create the marker directory",
                    target: "host:workstation",
                    risk: "config_mutation",
                  },
                ],
              },
            },
          ],
        },
      },
      {
        name: "run",
        when: match.systemMentions(/Plan 1 \(approved\)/),
        reply: {
          toolCalls: [
            {
              name: "run",
              arguments: {
                target: "host:workstation",
                command: `mkdir -p ${marker} && echo created ${marker}`,
                purpose: "the operator asked for it",
                step_seq: 1,
              },
            },
          ],
        },
      },
      {
        name: "close",
        when: match.anyMessage(/created \//),
        reply: {
          toolCalls: [
            {
              name: "update_entity_attributes",
              arguments: { slug: "host:workstation", attributes: { "oikos.marker": marker } },
            },
            {
              name: "complete_task",
              arguments: {
                outcome: "success",
                summary: `Created ${marker}.`,
                verification: "mkdir exited 0 and echoed the path",
              },
            },
          ],
        },
      },
    ],
    fallback: { text: "Waiting for your decision." },
  });
  writeFileSync(join(dir, "inventory.ini"), "[local]\nworkstation ansible_connection=local\n");
});

after(async () => {
  await model?.close();
  rmSync(dir, { recursive: true, force: true });
});

function cli(args: string[], input: string) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    OIKOS_DATA_DIR: join(dir, "data"),
    OPENAI_BASE_URL: model.url,
    OPENAI_API_KEY: "test",
    OIKOS_MODEL: "scripted",
    OIKOS_LOG_LEVEL: "warn",
  };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  delete env.OIKOS_CONFIG;
  return runCli(args, { stdin: input, env, cwd: dir });
}

test("printf a conversation: plan card, +1 approves, the execution result, the threaded summary", async () => {
  const imported = await cli(["import", "ansible", join(dir, "inventory.ini")], "");
  assert.equal(imported.code, 0, imported.stderr);
  const run = await cli(["chat"], "please create the marker directory on my workstation\n+1\n");
  assert.equal(run.code, 0, run.stderr);
  const out = run.stdout;
  if (process.env.DEBUG_ACCEPTANCE) {
    process.stderr.write(
      `${run.stderr}\n${JSON.stringify(
        model.requests.map((r) => [r.step, r.body.messages.at(-1)]),
        null,
        1,
      )}\n`,
    );
  }
  assert.match(out, /oikos \[#\d+\] 📋 Plan — needs your approval/);
  assert.match(out, /1\. Create the marker directory on `host:workstation` — 🟡 config change/);
  assert.match(out, /\(oikos reacted ✅ to #\d+\)/);
  assert.match(out, /✅ approved by operator via \+1 at \d\d:\d\d UTC/);
  assert.match(out, /✅ 1\. Create the marker directory .* · ✅ finished, exit 0/);
  assert.match(out, /output of step 1:\n.*created \//);
  assert.match(out, /created \/.*marker/);
  assert.match(out, /│ oikos \[#\d+\] ✅ Task success/);
  assert.match(out, /verified: mkdir exited 0 and echoed the path/);
  assert.match(out, /changed: `host:workstation` oikos\.marker = /);
  assert.ok(existsSync(join(dir, "marker")), "the command ran on the local target");
  assert.ok(
    out.indexOf("📋 Plan") < out.indexOf("approved by operator"),
    "the card came before the approval",
  );
  assert.ok(out.indexOf("approved by operator") < out.indexOf("Task success"), "the summary came last");
});
