import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { GrantBasis } from "../policy/standing-grant.ts";
import { availableDialects, createTestStore, type TestStore } from "../test-support/store.ts";
import { createExecutionApproval, getApproval } from "./approvals.ts";
import { decideApproval } from "./consent.ts";
import { createExecution, getExecution } from "./executions.ts";
import {
  endGrantsOfTarget,
  endStandingGrant,
  getStandingGrant,
  grantMadeBy,
  grantsNaming,
  listLiveGrants,
  recordGrantUse,
} from "./standing-grants.ts";

const DAY = 86_400_000;
const COMMAND = "systemctl restart whatsapp-bridge";
const BASIS: GrantBasis = {
  target: "lxc:bridges",
  command: COMMAND,
  risk: "config_mutation",
  routing: '{"slug":"lxc:bridges"}',
  proof: "p",
  jail: "not_jailed",
};

for (const { dialect, skip } of availableDialects()) {
  describe(`standing grants on ${dialect}`, { skip }, () => {
    let store: TestStore;
    let counter = 0;
    const db = () => store.db;

    before(async () => {
      store = await createTestStore(dialect);
      await db()
        .insertInto("sessions")
        .values([
          { id: "s-a", platform: "matrix", room: "!ops", thread: "t-a", created_by: "@alice" },
          { id: "s-b", platform: "slack", room: "C1", thread: "t-b", created_by: "@bob" },
        ])
        .execute();
    });
    after(() => store.dispose());

    async function asked(sessionId: string, grantBasis: GrantBasis | null, command = COMMAND) {
      const expiresAt = new Date(Date.now() + 60_000);
      const execution = await createExecution(db(), {
        sessionId,
        target: "lxc:bridges",
        command,
        commandKey: `key-${++counter}`,
        risk: "config_mutation",
        purpose: "restart the bridge",
        requestedBy: "agent",
        status: "pending_approval",
        timeoutMs: 5_000,
        deadlineAt: expiresAt,
      });
      const approval = await createExecutionApproval(db(), {
        sessionId,
        executionId: execution.id,
        commandKey: execution.command_key,
        target: execution.target,
        risk: "config_mutation",
        expiresAt,
        grantBasis,
      });
      assert.ok(approval.created);
      return { execution, approval: approval.approval };
    }

    const auditOf = (action: string) =>
      db().selectFrom("audit_log").selectAll().where("action", "=", action).execute();

    let grantId = "";
    test("♾️ approves the execution and records the grant: who, when, what, until (default 7 days)", async () => {
      const { execution, approval } = await asked("s-a", BASIS);
      const before = Date.now();
      const result = await decideApproval(db(), {
        approvalId: approval.id,
        sessionId: "s-a",
        decision: "approved",
        by: "@alice",
        via: "reaction",
        grant: { days: null },
      });
      assert.ok(result.ok, JSON.stringify(result));
      assert.equal((await getExecution(db(), execution.id))?.status, "queued", "this execution runs");
      const grant = await grantMadeBy(db(), approval.id);
      assert.ok(grant);
      grantId = grant.id;
      assert.match(grant.id, /^g-[0-9a-f]{10}$/);
      assert.deepEqual(
        [
          grant.target,
          grant.command,
          grant.risk,
          grant.granted_by,
          grant.granted_via,
          grant.platform,
          grant.room,
        ],
        ["lxc:bridges", COMMAND, "config_mutation", "@alice", "reaction", "matrix", "!ops"],
      );
      const days = (grant.expires_at.getTime() - grant.created_at.getTime()) / DAY;
      assert.equal(days, 7);
      assert.ok(grant.created_at.getTime() >= before - 1000);
      assert.deepEqual(grant.basis, BASIS);
      const audit = await auditOf("grant.created");
      assert.equal(audit.length, 1);
      assert.equal(audit[0]?.actor, "@alice");
      assert.ok(result.changes.some((c) => c.subject === grant.id));
    });

    test("asked days are bounded (at most 90); the configured default counts", async () => {
      const a = await asked("s-a", BASIS);
      await decideApproval(db(), {
        approvalId: a.approval.id,
        sessionId: "s-a",
        decision: "approved",
        by: "@alice",
        via: "phrase",
        grant: { days: 365 },
      });
      const long = await grantMadeBy(db(), a.approval.id);
      assert.equal(((long?.expires_at.getTime() ?? 0) - (long?.created_at.getTime() ?? 0)) / DAY, 90);
      const b = await asked("s-a", BASIS);
      await decideApproval(db(), {
        approvalId: b.approval.id,
        sessionId: "s-a",
        decision: "approved",
        by: "@alice",
        via: "button",
        grant: { days: null, defaultDays: 3 },
      });
      const short = await grantMadeBy(db(), b.approval.id);
      assert.equal(((short?.expires_at.getTime() ?? 0) - (short?.created_at.getTime() ?? 0)) / DAY, 3);
      for (const g of [long, short])
        if (g) await endStandingGrant(db(), g.id, { by: "test", reason: "revoked", now: new Date() });
    });

    test("no grant for what is not grantable, nor through the API: nothing approved", async () => {
      const notGrantable = await asked("s-a", null);
      const refused = await decideApproval(db(), {
        approvalId: notGrantable.approval.id,
        sessionId: "s-a",
        decision: "approved",
        by: "@alice",
        via: "reaction",
        grant: { days: null },
      });
      assert.ok(!refused.ok && refused.code === "not_grantable");
      assert.equal((await getApproval(db(), notGrantable.approval.id))?.status, "pending");
      assert.equal((await getExecution(db(), notGrantable.execution.id))?.status, "pending_approval");
      await decideApproval(db(), {
        approvalId: notGrantable.approval.id,
        sessionId: "s-a",
        decision: "denied",
        by: "@alice",
        via: "reaction",
      });
      const api = await asked("s-a", BASIS);
      const viaApi = await decideApproval(db(), {
        approvalId: api.approval.id,
        sessionId: "s-a",
        decision: "approved",
        by: "mcp:ops",
        via: "api",
        grant: { days: null },
      });
      assert.ok(!viaApi.ok && viaApi.code === "not_grantable");
      assert.equal(await grantMadeBy(db(), api.approval.id), undefined);
      await decideApproval(db(), {
        approvalId: api.approval.id,
        sessionId: "s-a",
        decision: "denied",
        by: "@alice",
        via: "reaction",
      });
    });

    test("♾️ on a card that asks for a typed phrase: no grant, nothing approved, and the operator is told why", async () => {
      const expiresAt = new Date(Date.now() + 60_000);
      const execution = await createExecution(db(), {
        sessionId: "s-a",
        target: "lxc:bridges",
        command: "docker volume rm whatsapp-cache",
        commandKey: `key-${++counter}`,
        risk: "destructive",
        purpose: "stale cache",
        requestedBy: "agent",
        status: "pending_approval",
        timeoutMs: 5_000,
        deadlineAt: expiresAt,
      });
      const asked = await createExecutionApproval(db(), {
        sessionId: "s-a",
        executionId: execution.id,
        commandKey: execution.command_key,
        target: execution.target,
        risk: "destructive",
        requiredPhrase: "confirm delete lxc:bridges",
        expiresAt,
        grantBasis: null,
      });
      assert.ok(asked.created);
      const decide = (grant: boolean) =>
        decideApproval(db(), {
          approvalId: asked.approval.id,
          sessionId: "s-a",
          decision: "approved",
          by: "@alice",
          via: "reaction",
          ...(grant ? { grant: { days: null } } : {}),
        });
      const refused = await decide(true);
      assert.ok(!refused.ok && refused.code === "typed_confirmation_required");
      assert.match(
        refused.message,
        /^Not granted: a destructive command is confirmed each time it runs\. This is destructive: type exactly `confirm delete lxc:bridges`/,
      );
      const plain = await decide(false);
      assert.ok(!plain.ok && !plain.message.includes("Not granted"), "a plain ✅ is not told about grants");
      assert.equal(await grantMadeBy(db(), asked.approval.id), undefined);
      assert.equal((await getApproval(db(), asked.approval.id))?.status, "pending");
      await decideApproval(db(), {
        approvalId: asked.approval.id,
        sessionId: "s-a",
        decision: "denied",
        by: "@alice",
        via: "reaction",
      });
    });

    test("a use queues the execution with an approval decided by the grant, counted and audited", async () => {
      const live = await grantsNaming(db(), "lxc:bridges", COMMAND);
      assert.deepEqual(
        live.map((g) => g.id),
        [grantId],
      );
      assert.deepEqual(await grantsNaming(db(), "lxc:bridges", `${COMMAND} `), [], "exact text only");
      assert.deepEqual(await grantsNaming(db(), "lxc:other", COMMAND), []);
      const now = new Date();
      const used = await recordGrantUse(
        db(),
        {
          grantId,
          sessionId: "s-b",
          commandKey: "k",
          execution: {
            sessionId: "s-b",
            target: "lxc:bridges",
            command: COMMAND,
            commandKey: "k",
            risk: "config_mutation",
            purpose: "daily restart",
            requestedBy: "agent",
            status: "queued",
            timeoutMs: 5_000,
            deadlineAt: new Date(now.getTime() + 60_000),
          },
        },
        now,
      );
      assert.ok(used.used);
      const approval = await getApproval(db(), used.approvalId);
      assert.deepEqual(
        [approval?.status, approval?.channel, approval?.decided_by, approval?.standing_grant_id],
        ["approved", "grant", "@alice", grantId],
      );
      assert.equal((await getExecution(db(), used.execution.id))?.approval_id, used.approvalId);
      assert.equal((await getStandingGrant(db(), grantId))?.uses, 1);
      const audit = await auditOf("grant.used");
      assert.equal(audit.length, 1);
      assert.equal(audit[0]?.actor, `grant:${grantId}`);
    });

    test("listed per room; revoked once; an ended or expired grant is not used", async () => {
      assert.deepEqual(
        (await listLiveGrants(db(), { platform: "matrix", room: "!ops" }, new Date())).map((g) => g.id),
        [grantId],
      );
      assert.deepEqual(await listLiveGrants(db(), { platform: "slack", room: "C1" }, new Date()), []);
      const later = new Date(Date.now() + 8 * DAY);
      assert.deepEqual(await listLiveGrants(db(), undefined, later), [], "expired grants are not listed");
      const useAt = (now: Date) =>
        recordGrantUse(
          db(),
          {
            grantId,
            sessionId: "s-a",
            commandKey: "k",
            execution: {
              sessionId: "s-a",
              target: "lxc:bridges",
              command: COMMAND,
              commandKey: "k",
              risk: "config_mutation",
              purpose: "x",
              requestedBy: "agent",
              status: "queued",
              timeoutMs: 5_000,
              deadlineAt: new Date(now.getTime() + 60_000),
            },
          },
          now,
        );
      const executionsBefore = (await db().selectFrom("executions").select("id").execute()).length;
      assert.deepEqual(await useAt(later), { used: false }, "expired");
      const revoked = await endStandingGrant(db(), grantId, {
        by: "@bob",
        reason: "revoked",
        now: new Date(),
      });
      assert.equal(revoked?.ended_by, "@bob");
      assert.equal(
        await endStandingGrant(db(), grantId, { by: "@bob", reason: "revoked", now: new Date() }),
        undefined,
      );
      assert.deepEqual(await useAt(new Date()), { used: false }, "revoked");
      assert.equal(
        (await db().selectFrom("executions").select("id").execute()).length,
        executionsBefore,
        "nothing written",
      );
      assert.deepEqual(await grantsNaming(db(), "lxc:bridges", COMMAND), []);
      assert.equal((await auditOf("grant.revoked")).filter((a) => a.subject === grantId).length, 1);
    });

    test("a routing change of the target ends its live grants, audited as invalidated", async () => {
      const a = await asked("s-a", BASIS);
      await decideApproval(db(), {
        approvalId: a.approval.id,
        sessionId: "s-a",
        decision: "approved",
        by: "@alice",
        via: "reaction",
        grant: { days: 1 },
      });
      const ended = await endGrantsOfTarget(db(), "lxc:bridges", {
        by: "@admin",
        reason: "routing_changed",
        now: new Date(),
      });
      assert.equal(ended.length, 1);
      assert.equal((await getStandingGrant(db(), ended[0] as string))?.end_reason, "routing_changed");
      assert.equal((await auditOf("grant.invalidated")).length, 1);
    });
  });
}
