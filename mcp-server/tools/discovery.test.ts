import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { findEntity } from "../../store/entities.ts";
import { entitiesTouchedBy, tasksThatTouched } from "../../store/task-graph.ts";
import { createTestSession } from "../../test-support/jobs/execution/execution-stack.ts";
import { labSuite } from "../../test-support/jobs/execution/lab-suite.ts";
import { callTool } from "../../test-support/mcp-server/call-tool.ts";
import { sshLabUnavailable } from "../../test-support/sshd/ssh-lab.ts";

const unavailable = await sshLabUnavailable();

interface Json {
  [key: string]: unknown;
}

// propose_entities on a real loopback sshd host: the output of a command that ran there is the
// evidence; what it shows becomes discovered entities inside the host, never command targets.
describe("propose_entities: discovered entities with evidence, inside what they run in", {
  skip: unavailable ? `sshd unavailable: ${unavailable}` : false,
}, () => {
  const ssh = labSuite({ fileUrl: import.meta.url, waitMs: 15_000, hosts: [{ name: "alpha" }] });
  const propose = (session: string, args: Json) => callTool(ssh.client, "propose_entities", args, session);
  const listing = (lines: string[]) => `printf '%s\\n' ${lines.map((l) => `'${l}'`).join(" ")}`;
  const ranOn = async (session: string, lines: string[]) => {
    const ran = await ssh.run(session, { target: "host:alpha", command: listing(lines) });
    assert.equal(ran.isError, false, ran.text);
    const result = ran.json as Json;
    assert.equal(result.status, "completed", ran.text);
    return String(result.execution_id);
  };

  test("services, containers and volumes a command showed are written, linked and stale once gone", async () => {
    const db = ssh.stack.store.db;
    const touched: string[] = [];
    ssh.stack.events.subscribe("entity.touched", (event) => {
      if (event.type === "entity.touched")
        touched.push(`${event.sessionId} ${event.entitySlug} ${event.via}`);
    });
    const session = await createTestSession(ssh.stack, "s-discover");
    const first = await ranOn(session, [
      "PROJECT nextcloud",
      "NAME nextcloud-app-1 IMAGE nextcloud:29 MOUNTS nextcloud_data",
      "NAME nextcloud-db-1 IMAGE mariadb:10.11",
    ]);
    const proposed = await propose(session, {
      execution_id: first,
      entities: [
        { slug: "stack:nextcloud", inside: "host:alpha", evidence: "PROJECT nextcloud" },
        {
          slug: "container:nextcloud-app-1",
          inside: "stack:nextcloud",
          evidence: "NAME nextcloud-app-1 IMAGE nextcloud:29",
          attributes: { image: "nextcloud:29" },
        },
        {
          slug: "container:nextcloud-db-1",
          inside: "stack:nextcloud",
          evidence: "nextcloud-db-1 IMAGE mariadb:10.11",
        },
        {
          slug: "volume:nextcloud_data",
          inside: "container:nextcloud-app-1",
          evidence: "MOUNTS nextcloud_data",
        },
      ],
      relationships: [
        { source: "container:nextcloud-app-1", type: "mounts", target: "volume:nextcloud_data" },
      ],
      complete_for: { inside: "stack:nextcloud", type: "container" },
    });
    assert.equal(proposed.isError, false, proposed.text);
    const result = proposed.json as Json;
    assert.equal(result.kind, "entities_proposed");
    assert.deepEqual(result.created, [
      "stack:nextcloud",
      "container:nextcloud-app-1",
      "container:nextcloud-db-1",
      "volume:nextcloud_data",
    ]);
    assert.deepEqual(result.edges, [
      "stack:nextcloud runs-on host:alpha",
      "container:nextcloud-app-1 part-of stack:nextcloud",
      "container:nextcloud-db-1 part-of stack:nextcloud",
      "volume:nextcloud_data part-of container:nextcloud-app-1",
      "container:nextcloud-app-1 mounts volume:nextcloud_data",
    ]);
    const app = await findEntity(db, "container:nextcloud-app-1");
    assert.equal(app?.transport, "none", "a discovered entity is never a command target");
    assert.ok(app?.discovered_at);
    assert.deepEqual(app?.attributes, { image: "nextcloud:29" });
    const sightings = await db
      .selectFrom("entity_sightings")
      .select(["entity_slug", "execution_id", "command", "evidence"])
      .where("entity_slug", "=", "container:nextcloud-app-1")
      .execute();
    assert.deepEqual(sightings, [
      {
        entity_slug: "container:nextcloud-app-1",
        execution_id: first,
        command: sightings[0]?.command,
        evidence: "NAME nextcloud-app-1 IMAGE nextcloud:29",
      },
    ]);
    assert.match(String(sightings[0]?.command), /^printf/);
    // Blast radius and knowledge reach inside the host now.
    const radius = (await callTool(ssh.client, "get_blast_radius", { slug: "host:alpha" })).json as {
      dependents: { slug: string }[];
    };
    assert.deepEqual(radius.dependents.map((d) => d.slug).sort(), [
      "container:nextcloud-app-1",
      "container:nextcloud-db-1",
      "stack:nextcloud",
      "volume:nextcloud_data",
    ]);
    // The run gate's touch and the discovery's: one involves edge each.
    assert.deepEqual(await entitiesTouchedBy(db, session), [
      "container:nextcloud-app-1",
      "container:nextcloud-db-1",
      "host:alpha",
      "stack:nextcloud",
      "volume:nextcloud_data",
    ]);
    // The run gate published its first touch of the host (the tools' events go to their own bus).
    assert.ok(touched.includes("s-discover host:alpha run"), JSON.stringify(touched));
    assert.equal(touched.filter((t) => t.includes("host:alpha")).length, 1, "once per task and entity");
    const listed = (await callTool(ssh.client, "list_entities", { type: "container" })).json as {
      entities: Json[];
    };
    assert.deepEqual(
      listed.entities.map((e) => [e.slug, e.discovered]),
      [
        ["container:nextcloud-app-1", true],
        ["container:nextcloud-db-1", true],
      ],
    );
    const host = (await callTool(ssh.client, "get_entity", { slug: "host:alpha" })).json as Json;
    assert.deepEqual(host.inside_it, [
      { slug: "stack:nextcloud", type: "stack" },
      { slug: "container:nextcloud-app-1", type: "container", in: "stack:nextcloud" },
      { slug: "volume:nextcloud_data", type: "volume", in: "container:nextcloud-app-1" },
      { slug: "container:nextcloud-db-1", type: "container", in: "stack:nextcloud" },
    ]);
    const refusedRun = await ssh.run(session, { target: "container:nextcloud-app-1", command: "uptime" });
    assert.equal(refusedRun.structured?.code, "target_not_runnable", refusedRun.text);

    // Later the stack lists only the app: the database container is stale, not deleted.
    const second = await ranOn(session, ["PROJECT nextcloud", "NAME nextcloud-app-1 IMAGE nextcloud:30"]);
    const again = await propose(session, {
      execution_id: second,
      entities: [
        {
          slug: "container:nextcloud-app-1",
          inside: "stack:nextcloud",
          evidence: "nextcloud-app-1 IMAGE nextcloud:30",
          attributes: { image: "nextcloud:30" },
        },
      ],
      complete_for: { inside: "stack:nextcloud", type: "container" },
    });
    assert.equal(again.isError, false, again.text);
    assert.deepEqual((again.json as Json).refreshed, ["container:nextcloud-app-1"]);
    assert.deepEqual((again.json as Json).stale, ["container:nextcloud-db-1"]);
    assert.ok((await findEntity(db, "container:nextcloud-db-1"))?.stale_since, "kept and marked stale");
    assert.equal((await findEntity(db, "container:nextcloud-app-1"))?.attributes.image, "nextcloud:30");
    const view = (await callTool(ssh.client, "get_entity", { slug: "container:nextcloud-db-1" }))
      .json as Json;
    assert.ok((view.discovered as Json).stale_since);
    assert.deepEqual(
      (view.recent_tasks as Json[]).map((t) => t.task),
      ["task:s-discover"],
    );
    // Discovered twice and written back once (its mounts edge): three touches, one edge.
    assert.equal((await tasksThatTouched(db, "container:nextcloud-app-1"))[0]?.touches, 3);
  });

  test("evidence must be in that execution's output, of this task, on what the entity runs inside", async () => {
    const session = await createTestSession(ssh.stack, "s-evidence");
    const other = await createTestSession(ssh.stack, "s-other");
    const ran = await ranOn(session, ["NAME web-1 IMAGE nginx"]);
    const invented = await propose(session, {
      execution_id: ran,
      entities: [{ slug: "container:db-1", inside: "host:alpha", evidence: "NAME db-1 IMAGE postgres" }],
    });
    assert.equal(invented.structured?.code, "nothing_discovered", invented.text);
    assert.match(invented.text, /not in the output of the execution you named/);
    const foreign = await propose(other, {
      execution_id: ran,
      entities: [{ slug: "container:web-1", inside: "host:alpha", evidence: "NAME web-1 IMAGE nginx" }],
    });
    assert.equal(foreign.structured?.code, "unknown_execution", foreign.text);
    const task = await propose(session, {
      execution_id: ran,
      entities: [{ slug: "task:forged", evidence: "NAME web-1 IMAGE nginx" }],
    });
    assert.equal(task.structured?.code, "nothing_discovered", task.text);
    assert.match(task.text, /not proposed by the agent/);
    assert.equal(await findEntity(ssh.stack.store.db, "container:db-1"), undefined);
  });

  test("a new SSH target is recorded but not runnable: its routing waits for the operator's ✅", async () => {
    const db = ssh.stack.store.db;
    const session = await createTestSession(ssh.stack, "s-routing");
    const alpha = ssh.lab.hosts[0]!;
    const ran = await ranOn(session, [`neighbour 127.0.0.1 port ${alpha.port} hostname newbox`]);
    const proposed = await propose(session, {
      execution_id: ran,
      entities: [
        {
          slug: "host:newbox",
          evidence: `neighbour 127.0.0.1 port ${alpha.port} hostname newbox`,
          routing: {
            transport: "ssh",
            "ssh.host": "127.0.0.1",
            "ssh.port": alpha.port,
            "ssh.user": alpha.username,
          },
        },
      ],
    });
    assert.equal(proposed.isError, false, proposed.text);
    const result = proposed.json as Json;
    assert.equal(result.kind, "approval_requested", "the turn ends: the operator decides");
    assert.deepEqual(result.created, ["host:newbox"]);
    const newbox = await findEntity(db, "host:newbox");
    assert.equal(newbox?.transport, "none");
    assert.deepEqual(newbox?.attributes, {}, "no routing written");
    const pending = await db
      .selectFrom("approvals")
      .select(["subject", "status", "target"])
      .where("id", "=", String(result.approval_id))
      .executeTakeFirstOrThrow();
    assert.deepEqual(pending, { subject: "routing", status: "pending", target: "host:newbox" });
    // Nothing reaches it until then: the run gate refuses it, and the model cannot set routing itself.
    const run = await ssh.run(session, { target: "host:newbox", command: "uptime" });
    assert.equal(run.structured?.code, "target_not_runnable", run.text);
    const write = await callTool(
      ssh.client,
      "update_entity_attributes",
      { slug: "host:newbox", attributes: { transport: "ssh" } },
      session,
    );
    assert.equal(write.structured?.code, "routing_owned_by_operator");
    const executions = await db
      .selectFrom("executions")
      .select("id")
      .where("target", "=", "host:newbox")
      .execute();
    assert.deepEqual(executions, []);
  });

  test("a command waiting for an operator involves its target too: the gate let it as far as the card", async () => {
    const session = await createTestSession(ssh.stack, "s-asks", { status: "approved" });
    const asked = await ssh.run(session, { target: "host:alpha", command: "rm -rf /tmp/oikos-graph-test" });
    assert.equal(asked.structured?.kind, "approval_requested", asked.text);
    assert.deepEqual(await entitiesTouchedBy(ssh.stack.store.db, session), ["host:alpha"]);
    const task = (await callTool(ssh.client, "get_entity", { slug: "task:s-asks" })).json as Json;
    assert.equal(task.type, "task");
    assert.deepEqual(task.touched, ["host:alpha"]);
    const refused = await createTestSession(ssh.stack, "s-refused");
    const wrong = await ssh.run(refused, { target: "host:nowhere", command: "uptime" });
    assert.equal(wrong.structured?.code, "unknown_target");
    assert.deepEqual(
      await entitiesTouchedBy(ssh.stack.store.db, refused),
      [],
      "a refused call touches nothing",
    );
  });
});
