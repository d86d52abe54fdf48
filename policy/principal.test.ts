import assert from "node:assert/strict";
import { test } from "node:test";
import {
  AGENT_PRINCIPAL,
  mayCallTool,
  ownsSession,
  STDIO_PRINCIPAL,
  TOOL_ACCESS,
  tokenPrincipal,
} from "./principal.ts";

test("a session belongs to exactly the principal that owns it; a token can never pass for the agent", () => {
  const ci = tokenPrincipal("ci", "operator");
  assert.equal(ownsSession(AGENT_PRINCIPAL, "agent"), true);
  assert.equal(ownsSession(ci, "mcp:ci"), true);
  assert.equal(ownsSession(ci, "agent"), false);
  assert.equal(ownsSession(tokenPrincipal("agent", "operator"), "agent"), false);
  assert.equal(ownsSession(STDIO_PRINCIPAL, "agent"), false);
  assert.equal(ownsSession(AGENT_PRINCIPAL, "mcp:ci"), false);
  assert.equal(ownsSession(tokenPrincipal("ci", "read"), "mcp:cj"), false);
});

test("the read role calls record-reading tools only; operators call every tool", () => {
  const reader = tokenPrincipal("grafana", "read");
  assert.equal(mayCallTool(reader, "records"), true);
  assert.equal(mayCallTool(reader, "operator"), false);
  for (const principal of [AGENT_PRINCIPAL, STDIO_PRINCIPAL, tokenPrincipal("ci", "operator")]) {
    for (const access of TOOL_ACCESS) assert.equal(mayCallTool(principal, access), true);
  }
});
