import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { after, call } from "../test-support/agent/script.ts";
import { GITEA, harnessForSuite } from "../test-support/agent/suite-harness.ts";
import { match } from "../test-support/scripted-model/index.ts";
import { everyStoredText, tablesHolding } from "../test-support/store/every-stored-text.ts";
import { requestTurn } from "./turn-runner.ts";

// Secrets a careless model proposes: a password and a token, in every argument that is stored.
const PASSWORD = "hunter2-Correct-Horse-91";
const TOKEN = "ghp_Zq8xVbN3kLm7PwR2tYs5JdF9hCa4GeU6oI1n";

// The storage boundary redacts every text written (store/redact-on-write.ts): after a scenario where
// the model proposes secrets through every tool that stores what it is given, every text and json
// column of every table (read through the catalogue, so a new table is scanned too) is free of them.
describe("secrets a model proposes are never stored", () => {
  const harness = harnessForSuite({ entities: [GITEA] });

  test("goal, command, plan, knowledge, question and routing change: no table holds the secret", async () => {
    const h = harness();
    await h.useScript([
      {
        name: "goal",
        when: match.lastUserMessage("deploy"),
        reply: call("set_goal", { goal: `rotate the deploy token ${TOKEN} on gitea` }),
      },
      {
        name: "run",
        when: after("set_goal"),
        reply: call("run", {
          target: "lxc:gitea",
          command: `mysql -u root -p${PASSWORD} -e 'show databases'`,
          purpose: `log in as root with password=${PASSWORD}`,
        }),
      },
      {
        name: "knowledge",
        when: after("run"),
        reply: call("upsert_knowledge", {
          title: "gitea deploy credentials",
          content: `The deploy token is ${TOKEN} and the root password: ${PASSWORD}`,
          kind: "fact",
          about: ["lxc:gitea"],
          tags: ["credentials"],
        }),
      },
      {
        name: "plan",
        when: after("upsert_knowledge"),
        reply: call("propose_plan", {
          steps: [
            {
              title: `Set GITEA_TOKEN=${TOKEN}`,
              target: "lxc:gitea",
              risk: "config_mutation",
              command: `echo 'token: ${TOKEN}' > /etc/gitea/deploy.yml`,
            },
          ],
        }),
      },
      {
        name: "routing",
        when: match.lastUserMessage("log in"),
        reply: call("change_routing", {
          slug: "lxc:gitea",
          changes: { "ssh.password": PASSWORD, "ssh.user": "root" },
          reason: `log in with the password ${PASSWORD}`,
        }),
      },
      {
        name: "ask",
        when: after("change_routing"),
        reply: call("ask_operator", { prompt: `Is the deploy token still ${TOKEN}?` }),
      },
    ]);
    const sessionId = await h.newSession();
    await h.say(sessionId, "rotate the deploy token");
    await requestTurn(h.deps, sessionId, "message");
    await h.say(sessionId, "and log in as root");
    await requestTurn(h.deps, sessionId, "message");
    assert.deepEqual(
      h.model.requests.map((r) => r.step),
      ["goal", "run", "knowledge", "plan", "routing", "ask"].slice(0, h.model.requests.length),
    );
    assert.ok(h.model.requests.length >= 5, "the model proposed through every tool");
    const texts = await everyStoredText(h.store.db);
    assert.ok(
      texts.some((t) => t.table === "audit_log"),
      "the scan reads the audit log",
    );
    assert.ok(texts.some((t) => t.table === "messages" && t.column === "tool_calls"));
    assert.deepEqual(await tablesHolding(h.store.db, PASSWORD), [], "the password is stored nowhere");
    assert.deepEqual(await tablesHolding(h.store.db, TOKEN), [], "the token is stored nowhere");
    // what was proposed is still recorded, without its secret
    assert.ok((await tablesHolding(h.store.db, "[REDACTED]")).includes("messages.tool_calls"));
  });
});
