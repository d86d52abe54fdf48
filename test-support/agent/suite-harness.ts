import { registerAgentJobs } from "../../agent/register-jobs.ts";
import { type EntityInput, upsertEntities } from "../../store/entities.ts";
import { perSuite, releasingOnFailure } from "../per-suite.ts";
import { type AgentHarness, startAgentHarness } from "./agent-harness.ts";

/** The container most agent tests act on. */
export const GITEA: EntityInput = { slug: "lxc:gitea", type: "lxc", name: "gitea" };

/**
 * One agent harness for the enclosing `describe`: started in `before`, closed in `after`.
 * `entities` are put in the inventory first; `agentJobs` registers the agent's jobs (turns,
 * continuations, nudges) on the harness queue and starts it. Read the harness through the getter.
 */
export function harnessForSuite(
  options: Parameters<typeof startAgentHarness>[0] & { entities?: EntityInput[]; agentJobs?: boolean } = {},
): () => AgentHarness {
  const { entities = [], agentJobs = false, ...start } = options;
  return perSuite(
    async () =>
      releasingOnFailure(
        await startAgentHarness(start),
        (h) => h.close(),
        async (h) => {
          if (entities.length > 0) await upsertEntities(h.store.db, entities, { by: "test" });
          if (agentJobs) {
            registerAgentJobs({ queue: h.queue, events: h.events }, h.deps);
            await h.queue.start();
          }
          return h;
        },
      ),
    (h) => h.close(),
  );
}
