import type { Risk } from "../policy/risk.ts";
import type { Executor } from "./audit.ts";

export interface ClassificationRecord {
  sessionId: string;
  target: string;
  command: string;
  commandKey: string;
  risk: Risk;
  reasons: readonly string[];
  /** What the run gate decided (`RunDecision` kind, or the refusal code). */
  decision: string;
}

/** One classified `run`: what the classifier said of the command and what the gate decided. */
export async function recordClassification(db: Executor, record: ClassificationRecord): Promise<void> {
  await db
    .insertInto("classifications")
    .values({
      session_id: record.sessionId,
      target: record.target,
      command: record.command,
      command_key: record.commandKey,
      risk: record.risk,
      reasons: JSON.stringify(record.reasons),
      decision: record.decision,
    })
    .execute();
}
