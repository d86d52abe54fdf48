import assert from "node:assert/strict";
import { test } from "node:test";
import { closeMatches } from "../policy/close-matches.ts";
import { checkBearer } from "./bearer-auth.ts";
import { requireSession, SESSION_HEADER, SESSION_META_KEY, sessionIdFrom } from "./session-context.ts";

test("session id comes from _meta first, then the header; malformed values count as absent", () => {
  const headers = { [SESSION_HEADER]: "from-header" };
  assert.equal(
    sessionIdFrom({ _meta: { [SESSION_META_KEY]: "from-meta" }, requestInfo: { headers } }),
    "from-meta",
  );
  assert.equal(sessionIdFrom({ requestInfo: { headers } }), "from-header");
  assert.equal(sessionIdFrom({ _meta: { [SESSION_META_KEY]: "bad id; drop" } }), null);
  assert.equal(sessionIdFrom({}), null);
});

test("requireSession fails closed with a refusal the model can read", () => {
  const missing = requireSession({}, "run");
  assert.ok("refusal" in missing);
  assert.equal(missing.refusal.isError, true);
  assert.deepEqual(requireSession({ _meta: { [SESSION_META_KEY]: "s-1" } }, "run"), { sessionId: "s-1" });
});

test("close matches rank typos and bare names", () => {
  const known = ["host:hubris", "lxc:gitea", "lxc:nextcloud", "vm:zimaos"];
  assert.deepEqual(closeMatches("lxc:gitae", known), ["lxc:gitea"]);
  assert.deepEqual(closeMatches("zimaos", known), ["vm:zimaos"]);
  assert.deepEqual(closeMatches("host:completely-else", known), []);
});

test("bearer check distinguishes missing from invalid, and names the principal of the token that matched", () => {
  const tokens = [
    { name: "ci", token: "secret-token-ci", role: "operator" as const },
    { name: "grafana", token: "secret-token-grafana", role: "read" as const },
  ];
  assert.deepEqual(checkBearer({}, tokens), { ok: false, reason: "missing" });
  assert.deepEqual(checkBearer({ authorization: "Bearer nope" }, tokens), { ok: false, reason: "invalid" });
  assert.deepEqual(checkBearer({ authorization: "bearer secret-token-ci" }, tokens), {
    ok: true,
    principal: { id: "mcp:ci", role: "operator" },
  });
  assert.deepEqual(checkBearer({ authorization: "Bearer secret-token-grafana" }, tokens), {
    ok: true,
    principal: { id: "mcp:grafana", role: "read" },
  });
  assert.deepEqual(checkBearer({ authorization: "Bearer secret-token-ci" }, []), {
    ok: false,
    reason: "invalid",
  });
});
