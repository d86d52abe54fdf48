import type { Writable } from "node:stream";
import type { EventBus } from "../jobs/events/port.ts";
import type { Db } from "../store/db.ts";
import { getExecution } from "../store/executions.ts";

const RISK_WORDS: Record<string, string> = {
  read_only: "read-only, ran with nobody asked",
  config_mutation: "config change, under the approved plan",
  destructive: "destructive, typed confirmation given",
};

/**
 * The demo's one addition to the chat: a line for every command that ran on the simulated host
 * (what ran, where, under which rule, how it ended), so the transcript shows the commands that
 * a chat thread only sums up. Returns the unsubscribe.
 */
export function narrateCommands(events: EventBus, db: Db, out: Writable): () => void {
  return events.subscribe("execution.finished", async (event) => {
    const execution = await getExecution(db, event.executionId);
    if (!execution) return;
    const how = RISK_WORDS[execution.risk] ?? execution.risk;
    const ending = execution.exit_code === null ? execution.status : `exit ${execution.exit_code}`;
    out.write(`  │ ⚙ ${execution.target}$ ${execution.command}   (${how}; ${ending})\n`);
  });
}
