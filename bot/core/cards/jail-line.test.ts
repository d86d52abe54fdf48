import assert from "node:assert/strict";
import { test } from "node:test";
import { executionProgress, jailLineOf } from "./card-lines.ts";

const finished = {
  status: "succeeded",
  exit_code: 0,
  duration_ms: 800,
  stdout: "",
  stderr: "",
  output_truncated: false,
  status_reason: null,
  risk: "read_only",
};

test("a card says where a read-only run ran: jailed with its grants, what the jail hid, unjailed by its spec", () => {
  assert.equal(
    jailLineOf({ ...finished, jailed: true, jail_grants: [{ resource: "device", path: "/dev/sda" }] }),
    "🔒 jailed (granted: /dev/sda (read-only))",
  );
  assert.equal(jailLineOf({ ...finished, jailed: true, jail_grants: [] }), "🔒 jailed");
  assert.equal(
    jailLineOf({
      ...finished,
      jailed: true,
      jail_grants: [],
      jail_hidden: [{ kind: "device", what: "/dev/vda", evidence: "blkid: /dev/vda: Permission denied" }],
    }),
    "🔒 jailed · ⚠️ the jail hid or showed its own: /dev/vda",
  );
  assert.equal(
    jailLineOf({
      ...finished,
      jailed: false,
      jail_grants: [{ resource: "unjailed", needs: "CAP_NET_ADMIN", spec: "nft" }],
    }),
    "🔓 unjailed: needs CAP_NET_ADMIN (proven by spec nft)",
  );
  assert.equal(jailLineOf({ ...finished, jailed: false, jail_grants: [] }), "not jailed");
  assert.equal(jailLineOf({ ...finished, jailed: null }), null);
  assert.equal(jailLineOf({ ...finished, risk: "config_mutation", jailed: false }), null);
  assert.match(
    executionProgress({ ...finished, jailed: true, jail_grants: [{ resource: "kernel_log" }] }).line,
    /^✅ finished, exit 0 in 0\.8 s · 🔒 jailed \(granted: the kernel log \(read\)\)$/,
  );
});
