import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { loadClassifier } from "../../policy/classify.ts";
import { decideApproval } from "../../store/consent.ts";
import { findEntity, updateEntityAttributes } from "../../store/entities.ts";
import { createTestSession } from "../../test-support/jobs/execution/execution-stack.ts";
import { labSuite } from "../../test-support/jobs/execution/lab-suite.ts";
import { callTool } from "../../test-support/mcp-server/call-tool.ts";
import {
  installProxmoxCluster,
  type ProxmoxCluster,
  standaloneHomelab,
} from "../../test-support/proxmox/proxmox-lab.ts";
import { sshLabUnavailable } from "../../test-support/sshd/ssh-lab.ts";
import { discoverProxmox } from "../proxmox/discover.ts";
import { TransportRouter } from "../ssh/transport-router.ts";

const unavailable = await sshLabUnavailable();
const busybox = ["/usr/bin/busybox", "/bin/busybox"].some((file) => existsSync(file));

/**
 * Guests without bash, on the fake PVE node (test-support/proxmox): an Alpine container (busybox ash:
 * no bash) and a Windows VM (cmd.exe through the guest agent: no env, no sh, no bash), driven through
 * the run tool, the gate and the worker as the agent drives them. Each command must reach the shell
 * the guest has — the fake starts only programs the guest has, so a wrapped bash fails there — and be
 * graded for that shell: POSIX rules on ash, and the operator's typed phrase for every Windows command.
 */
describe("commands on Proxmox guests without bash", {
  skip: unavailable
    ? `sshd unavailable: ${unavailable}`
    : busybox
      ? false
      : "busybox is not installed (scripts/install-test-deps.sh)",
}, () => {
  const ssh = labSuite({
    fileUrl: import.meta.url,
    waitMs: 15_000,
    hosts: [{ name: "pve1" }],
    readOnlyJail: "auto",
    probeGuests: true,
  });
  let cluster: ProxmoxCluster;

  before(async () => {
    cluster = await installProxmoxCluster(ssh.lab, { pve1: "pve1" }, standaloneHomelab());
    const outcome = await discoverProxmox(
      {
        db: ssh.stack.store.db,
        runner: new TransportRouter({ pool: ssh.stack.pool }),
        targets: { sshUser: ssh.lab.username },
      },
      "host:pve1",
      "import:proxmox",
    );
    assert.ok(outcome.ok, outcome.ok ? "" : outcome.reason);
  });
  after(async () => {
    await cluster?.stop();
  });

  const guestCalls = async (vmid: number) =>
    (await cluster.calls()).filter(
      (call) =>
        (call.tool === "pct" && call.args[0] === "exec" && call.args[1] === String(vmid)) ||
        (call.tool === "qm" && call.args[0] === "guest" && call.args[2] === String(vmid)),
    );

  async function approve(
    session: string,
    gated: { execution_id: string; approval_id: string; phrase?: string },
  ) {
    const decided = await decideApproval(ssh.stack.store.db, {
      approvalId: gated.approval_id,
      sessionId: session,
      decision: "approved",
      by: "op",
      via: gated.phrase ? "phrase" : "button",
      ...(gated.phrase ? { typedPhrase: gated.phrase } : {}),
    });
    assert.ok(decided.ok, JSON.stringify(decided));
    for (const followUp of decided.followUps)
      if (followUp.kind === "enqueue" && followUp.queue === "execute")
        await ssh.stack.queue.enqueue("execute", followUp.data, { jobId: followUp.jobId });
    const status = await callTool(
      ssh.client,
      "get_execution_status",
      { execution_id: gated.execution_id, wait: true },
      session,
    );
    return status.json as {
      status: string;
      stdout: string | null;
      stderr: string | null;
      reason: string | null;
    };
  }

  test("Alpine (busybox ash): an approved change runs with sh -c, never a bash that is not there", async () => {
    const { attributes } = (await findEntity(ssh.stack.store.db, "lxc:dns"))!;
    assert.equal(attributes["guest.shell"], "ash", "discovery probed the container's shell");
    await createTestSession(ssh.stack, "s-alpine-change", { status: "approved" });
    const gated = await ssh.run("s-alpine-change", {
      target: "lxc:dns",
      command: "touch made-on-alpine && echo done",
    });
    const json = gated.json as { status: string; execution_id: string; approval_id: string };
    assert.equal(json.status, "pending_approval", gated.text);
    const status = await approve("s-alpine-change", json);
    assert.equal(status.status, "completed", JSON.stringify(status));
    assert.match(status.stdout ?? "", /\ndone\n/);
    assert.ok(existsSync(join(cluster.guestDir(104), "made-on-alpine")), "the change happened in the guest");
    const [call] = (await guestCalls(104)).filter((c) =>
      c.args.includes("touch made-on-alpine && echo done"),
    );
    assert.ok(call, "the command reached pct exec");
    const inGuest = call.args.slice(call.args.indexOf("--") + 1);
    assert.ok(!inGuest.includes("bash"), `no bash in ${inGuest.join(" ")}`);
    assert.deepEqual(inGuest.slice(inGuest.indexOf("env")), [
      "env",
      "-u",
      "ENV",
      "sh",
      "-c",
      "touch made-on-alpine && echo done",
    ]);
  });

  test("Alpine: read-only asks (the jail needs bash); allowed unjailed, it runs under sh, graded by POSIX rules", async () => {
    await createTestSession(ssh.stack, "s-alpine-read");
    const asked = await ssh.run("s-alpine-read", { target: "lxc:dns", command: "ls" });
    const askedJson = asked.json as { status: string; execution_id: string; approval_id: string };
    assert.equal(askedJson.status, "pending_approval", asked.text);
    assert.match(asked.text, /busybox ash without bash.*jail runs under bash/);
    const denied = await decideApproval(ssh.stack.store.db, {
      approvalId: askedJson.approval_id,
      sessionId: "s-alpine-read",
      decision: "denied",
      by: "op",
      via: "button",
    });
    assert.ok(denied.ok);

    await updateEntityAttributes(
      ssh.stack.store.db,
      "lxc:dns",
      { "jail.unjailed_read_only": "allowed" },
      { by: "op" },
    );
    const ran = await ssh.run("s-alpine-read", { target: "lxc:dns", command: "ls" });
    assert.equal(ran.isError, false, ran.text);
    assert.match(ran.text, /made-on-alpine/, "ls ran in the guest, unasked");

    // read-only for bash, not for sh: $'…' is bash-only quoting, so on ash the proof does not speak
    const bashOnly = "echo $'\\x41'";
    assert.equal((await loadClassifier()).classify(bashOnly, "lxc").risk, "read_only");
    const refused = await ssh.run("s-alpine-read", { target: "lxc:dns", command: bashOnly });
    assert.equal(refused.isError, true, refused.text);
    assert.match(refused.text, /plan_required/);
    assert.match(refused.text, /bash-only quoting/);
  });

  test("Windows: every command needs the typed phrase; approved, it runs as cmd.exe /d /c through the agent", async () => {
    const { attributes } = (await findEntity(ssh.stack.store.db, "vm:win11"))!;
    assert.equal(attributes["guest.shell"], "cmd");
    await createTestSession(ssh.stack, "s-windows", { status: "approved" });
    const gated = await ssh.run("s-windows", { target: "vm:win11", command: "mkdir oikos-made" });
    const json = gated.json as {
      status: string;
      execution_id: string;
      approval_id: string;
      risk: string;
      phrase?: string;
    };
    assert.equal(json.status, "pending_approval", gated.text);
    assert.equal(json.risk, "destructive");
    assert.equal(json.phrase, "confirm run vm:win11");
    assert.match(gated.text, /cmd\.exe/);
    const status = await approve("s-windows", json);
    assert.equal(status.status, "completed", JSON.stringify(status));
    assert.ok(existsSync(join(cluster.guestDir(200), "oikos-made")), "the directory was made in the guest");
    const [call] = (await guestCalls(200)).filter((c) => c.args.includes("mkdir oikos-made"));
    assert.ok(call);
    assert.deepEqual(call.args.slice(call.args.indexOf("--") + 1), [
      "cmd.exe",
      "/d",
      "/c",
      "mkdir oikos-made",
    ]);

    // the destructive window that approval opened does not carry a command oikos cannot read
    const again = await ssh.run("s-windows", { target: "vm:win11", command: "ver" });
    const againJson = again.json as {
      status: string;
      execution_id: string;
      approval_id: string;
      phrase?: string;
    };
    assert.equal(againJson.status, "pending_approval", again.text);
    const ver = await approve("s-windows", againJson);
    assert.equal(ver.status, "completed");
    assert.match(ver.stdout ?? "", /Microsoft Windows \[Version/);
  });

  test("first contact: a Linux VM no probe has confirmed is asked before its first command is graded", async () => {
    const before = (await findEntity(ssh.stack.store.db, "vm:router"))!;
    assert.equal(before.attributes["guest.shell"], undefined, "discovery leaves VMs to first contact");
    await createTestSession(ssh.stack, "s-router");
    await ssh.run("s-router", { target: "vm:router", command: "ls" });
    const after = (await findEntity(ssh.stack.store.db, "vm:router"))!;
    assert.equal(after.attributes["guest.shell"], "bash");
    assert.equal(after.attributes["guest.shell_source"], "probe");
    const calls = await guestCalls(201);
    assert.ok(
      calls.some((c) => c.args[1] === "cmd" && c.args[3] === "get-osinfo"),
      "the agent was asked for the OS first",
    );
    const audit = await ssh.stack.store.db
      .selectFrom("audit_log")
      .select("details")
      .where("action", "=", "guest.probed")
      .where("subject", "=", "vm:router")
      .execute();
    assert.equal(audit.length, 1);
  });
});
