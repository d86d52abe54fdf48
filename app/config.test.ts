import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { ConfigError } from "../base/errors.ts";
import { loadConfig, safeUrl } from "./config.ts";

const emptyDir = () => mkdtempSync(join(tmpdir(), "oikos-config-"));

test("no configuration gives the embedded default", () => {
  const config = loadConfig({ env: {}, cwd: emptyDir() });
  assert.equal(config.database.url, undefined);
  assert.equal(config.redis.url, undefined);
  assert.equal(config.http.enabled, false);
  assert.equal(
    config.chat.shell.enabled,
    undefined,
    "unset: the terminal chat follows whether stdin is a TTY",
  );
  assert.deepEqual(config.chat.operators, ["operator"]);
  assert.equal(config.model.baseUrl, undefined);
});

test("environment overrides the YAML file", () => {
  const dir = emptyDir();
  writeFileSync(join(dir, "oikos.yaml"), "model:\n  name: from-yaml\nhttp:\n  port: 9000\n");
  const config = loadConfig({ env: { OIKOS_MODEL: "from-env" }, cwd: dir });
  assert.equal(config.model.name, "from-env");
  assert.equal(config.http.port, 9000);
});

test("a bad value names the key, its env variable and what is expected", () => {
  assert.throws(
    () => loadConfig({ env: { OIKOS_HTTP_PORT: "eighty" }, cwd: emptyDir() }),
    (error: unknown) =>
      error instanceof ConfigError && /http\.port \(env OIKOS_HTTP_PORT\)/.test(error.message),
  );
  assert.throws(
    () => loadConfig({ env: { SLACK_BOT_TOKEN: "xapp-wrong" }, cwd: emptyDir() }),
    /chat\.slack\.botToken \(env SLACK_BOT_TOKEN\): must be a bot token/,
  );
  assert.throws(() => loadConfig({ env: { OIKOS_MCP_TOKEN: "short" }, cwd: emptyDir() }), /at least 16/);
});

test("a YAML file that is not a mapping is refused with the file name", () => {
  const dir = emptyDir();
  writeFileSync(join(dir, "oikos.yaml"), "- a\n- b\n");
  assert.throws(() => loadConfig({ env: {}, cwd: dir }), /must hold a mapping/);
});

test("a named config file that does not exist is refused", () => {
  assert.throws(() => loadConfig({ env: { OIKOS_CONFIG: "nope.yaml" }, cwd: emptyDir() }), /does not exist/);
});

test("comma lists and booleans from the environment", () => {
  const config = loadConfig({
    env: { OIKOS_OPERATORS: "@alice:hs, @bob:hs", OIKOS_SHELL: "off", OIKOS_HTTP_PORT: "0" },
    cwd: emptyDir(),
  });
  assert.deepEqual(config.chat.operators, ["@alice:hs", "@bob:hs"]);
  assert.equal(config.chat.shell.enabled, false);
  assert.equal(config.http.enabled, true);
});

test("safeUrl drops credentials", () => {
  assert.equal(safeUrl("https://user:secret@api.example/v1/?k=1"), "https://api.example/v1");
});

test("naming an HTTP port in oikos.yaml enables HTTP like the env variable does", () => {
  const dir = emptyDir();
  writeFileSync(join(dir, "oikos.yaml"), "http:\n  port: 9100\n");
  assert.equal(loadConfig({ env: {}, cwd: dir }).http.enabled, true);
  writeFileSync(join(dir, "oikos.yaml"), "http:\n  port: 9100\n  enabled: false\n");
  assert.equal(loadConfig({ env: {}, cwd: dir }).http.enabled, false);
});

test("chat.rooms from oikos.yaml sits beside the global lists, which the environment still sets", () => {
  const dir = emptyDir();
  writeFileSync(
    join(dir, "oikos.yaml"),
    [
      "chat:",
      "  rooms:",
      '    "!ops:example.org":',
      '      operators: ["@erin:example.org"]',
      '      admins: ["@dave:example.org"]',
      "      minPowerLevel: 50",
      "    C0DB:",
      "      operators: U0ERIN, U0FRED",
      "      operatorGroup: S0DBA",
      "",
    ].join("\n"),
  );
  const config = loadConfig({ env: { OIKOS_ADMINS: "@alice:example.org" }, cwd: dir });
  assert.deepEqual(config.chat.admins, ["@alice:example.org"]);
  assert.deepEqual(config.chat.rooms, {
    "!ops:example.org": {
      operators: ["@erin:example.org"],
      admins: ["@dave:example.org"],
      minPowerLevel: 50,
    },
    C0DB: { operators: ["U0ERIN", "U0FRED"], operatorGroup: "S0DBA" },
  });
});

test("a bad chat.rooms entry names the room key", () => {
  const dir = emptyDir();
  writeFileSync(
    join(dir, "oikos.yaml"),
    'chat:\n  rooms:\n    "!ops:example.org":\n      minPowerLevel: 500\n      operator: ["@typo:example.org"]\n    "#ops:example.org":\n      operators: ["@erin:example.org"]\n',
  );
  assert.throws(
    () => loadConfig({ env: {}, cwd: dir }),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, /chat\.rooms\["!ops:example\.org"\]\.minPowerLevel: Too big/);
      assert.match(error.message, /chat\.rooms\["!ops:example\.org"\]: Unrecognized key: "operator"/);
      assert.match(error.message, /chat\.rooms\["#ops:example\.org"\]: use the room id/);
      return true;
    },
  );
});

test("approval lifetimes: defaults, env overrides, and a floor of one minute", () => {
  const defaults = loadConfig({ env: {}, cwd: emptyDir() });
  assert.equal(defaults.execution.assentWindowMs, 2 * 3_600_000);
  assert.equal(defaults.execution.approvalTtlMs, 3_600_000);
  const set = loadConfig({
    env: { OIKOS_ASSENT_WINDOW_MS: "600000", OIKOS_APPROVAL_TTL_MS: "120000" },
    cwd: emptyDir(),
  });
  assert.equal(set.execution.assentWindowMs, 600_000);
  assert.equal(set.execution.approvalTtlMs, 120_000);
  assert.throws(
    () => loadConfig({ env: { OIKOS_APPROVAL_TTL_MS: "5" }, cwd: emptyDir() }),
    /OIKOS_APPROVAL_TTL_MS/,
  );
});

test("approvals.rules: approver groups by platform are read into their kinds; a handle for a group id is refused", () => {
  const dir = emptyDir();
  writeFileSync(
    join(dir, "oikos.yaml"),
    [
      "approvals:",
      "  rules:",
      '    - room: "!ops:example.org"',
      "      approverGroups: [{ minPowerLevel: 50 }]",
      "    - room: C0OPS",
      "      approvals: 2",
      "      approvers: [U0CAROL]",
      "      approverGroups: [{ userGroup: S0ONCALL, name: oncall }]",
      "",
    ].join("\n"),
  );
  const rules = loadConfig({ env: {}, cwd: dir }).approvals.rules;
  assert.deepEqual(rules[0]?.approverGroups, [{ kind: "matrix_power_level", atLeast: 50 }]);
  assert.deepEqual(rules[1]?.approverGroups, [{ kind: "slack_usergroup", id: "S0ONCALL", name: "oncall" }]);
  assert.deepEqual(rules[1]?.approvers, ["U0CAROL"]);

  writeFileSync(
    join(dir, "oikos.yaml"),
    "approvals:\n  rules:\n    - approverGroups: [{ userGroup: oncall }]\n    - approverGroups: [{ minPowerLevel: 500 }]\n    - approverGroups: [{ minPowerLevel: 50, userGroup: S0ONCALL }]\n",
  );
  assert.throws(
    () => loadConfig({ env: {}, cwd: dir }),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, /approvals\.rules\.0\.approverGroups\.0\.userGroup: a Slack user group id/);
      assert.match(error.message, /approvals\.rules\.1\.approverGroups\.0\.minPowerLevel: Too big/);
      assert.match(error.message, /approvals\.rules\.2\.approverGroups\.0: an approver group is/);
      return true;
    },
  );
});
