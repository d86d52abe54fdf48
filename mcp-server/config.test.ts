import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { loadConfig } from "../app/config.ts";
import { mcpTokens } from "./config.ts";

function withYaml(yaml: string, env: NodeJS.ProcessEnv = {}) {
  const dir = mkdtempSync(join(tmpdir(), "oikos-config-mcp-"));
  writeFileSync(join(dir, "oikos.yaml"), yaml);
  return loadConfig({ env, cwd: dir });
}

const TOKENS =
  "mcp:\n  tokens:\n    - { name: ci, token: ci-token-0123456789, role: operator }\n    - { name: grafana, token: grafana-token-0123456789, role: read }\n";

test("mcp.tokens are named principals; OIKOS_MCP_TOKEN is one more operator token named mcp", () => {
  const config = withYaml(TOKENS, { OIKOS_MCP_TOKEN: "single-token-0123456789" });
  assert.deepEqual(mcpTokens(config.mcp), [
    { name: "mcp", token: "single-token-0123456789", role: "operator" },
    { name: "ci", token: "ci-token-0123456789", role: "operator" },
    { name: "grafana", token: "grafana-token-0123456789", role: "read" },
  ]);
  assert.deepEqual(mcpTokens(withYaml("").mcp), []);
});

test("a token entry must name a known role, a plain name, and a value no other entry uses", () => {
  assert.throws(
    () => withYaml("mcp:\n  tokens:\n    - { name: ci, token: ci-token-0123456789 }\n"),
    /mcp\.tokens\.0\.role/,
  );
  assert.throws(
    () => withYaml("mcp:\n  tokens:\n    - { name: ci, token: ci-token-0123456789, role: admin }\n"),
    /role/,
  );
  assert.throws(
    () =>
      withYaml(
        "mcp:\n  tokens:\n    - { name: ci, token: ci-token-0123456789, role: operator, rol: read }\n",
      ),
    /rol/,
  );
  assert.throws(
    () => withYaml("mcp:\n  tokens:\n    - { name: 'CI bot', token: ci-token-0123456789, role: read }\n"),
    /lower-case/,
  );
  assert.throws(
    () => withYaml("mcp:\n  tokens:\n    - { name: ci, token: short, role: read }\n"),
    /at least 16/,
  );
  assert.throws(
    () =>
      withYaml(
        "mcp:\n  tokens:\n    - { name: ci, token: ci-token-0123456789, role: read }\n    - { name: ci, token: other-token-0123456789, role: read }\n",
      ),
    /the name ci is used twice/,
  );
  assert.throws(
    () =>
      withYaml("mcp:\n  tokens:\n    - { name: mcp, token: ci-token-0123456789, role: read }\n", {
        OIKOS_MCP_TOKEN: "single-token-0123456789",
      }),
    /mcp\.token is named mcp/,
  );
  assert.throws(
    () =>
      withYaml(
        "mcp:\n  tokens:\n    - { name: ci, token: same-token-0123456789, role: read }\n    - { name: cd, token: same-token-0123456789, role: operator }\n",
      ),
    /share one token value/,
  );
});
