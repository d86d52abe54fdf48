import type { Kysely } from "kysely";
import { approvePlan } from "../../../store/consent.ts";
import { upsertEntities } from "../../../store/entities.ts";
import type { Database } from "../../../store/schema.ts";
import { type SpawnedCli, spawnCli } from "../../run-cli.ts";
import type { SshLab } from "../../sshd/ssh-lab.ts";

/** One lab host per entity `host:<name>`, reached over SSH as the lab user. */
export async function registerLabHosts(db: Kysely<Database>, lab: SshLab): Promise<void> {
  await upsertEntities(
    db,
    lab.hosts.map((host) => ({
      slug: `host:${host.name}`,
      type: "host" as const,
      name: host.name,
      transport: "ssh" as const,
      attributes: { "ssh.host": host.host, "ssh.port": host.port, "ssh.user": host.username },
    })),
    { by: "test" },
  );
}

/** A session whose plan the operator approved: mutating commands in it run without asking again. */
export async function approvedSession(db: Kysely<Database>, id: string): Promise<void> {
  await db
    .insertInto("sessions")
    .values({ id, platform: "shell", room: "r", thread: id, created_by: "op", plan_generation: 1 })
    .execute();
  await db.insertInto("plans").values({ session_id: id, generation: 1 }).execute();
  await approvePlan(db, { sessionId: id, generation: 1, by: "op", via: "reaction" });
}

/**
 * A toolbox `cat` that logs each call's arguments to $OIKOS_LAB_STATE/reads before reading: the
 * oracle of how often a read-only command really ran on the host.
 */
export const LOGGING_CAT = '#!/bin/sh\necho "$*" >> "$OIKOS_LAB_STATE/reads"\nexec /bin/cat "$@"\n';

/** `oikos worker` as an operator starts it on another machine: only shared services and SSH settings. */
export function startWorker(env: {
  databaseUrl: string;
  redisUrl: string;
  prefix: string;
  lab: SshLab;
  dataDir: string;
}): SpawnedCli {
  return spawnCli(["worker"], {
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      DATABASE_URL: env.databaseUrl,
      REDIS_URL: env.redisUrl,
      OIKOS_REDIS_PREFIX: env.prefix,
      OIKOS_DATA_DIR: env.dataDir,
      OIKOS_SSH_KEY: env.lab.privateKeyPath,
      OIKOS_SSH_USER: env.lab.username,
      OIKOS_LOG_LEVEL: "info",
      // Recover the killed worker's jobs within seconds, not the default minute.
      // 10 s, not 5: a 5 s lock misses renewals on a loaded CI machine and BullMQ then fails the job (as in the fault matrix)
      OIKOS_QUEUE_LOCK_MS: "10000",
    },
  });
}
