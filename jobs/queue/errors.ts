import { OikosError } from "../../base/errors.ts";

/** Thrown by a handler when retrying cannot help (missing row, invalid state): the job fails at once. */
export class UnrecoverableJobError extends OikosError {
  constructor(message: string, options: { logMessage?: string; cause?: unknown } = {}) {
    super("job_unrecoverable", message, options);
    this.name = "UnrecoverableJobError";
  }
}

/** A payload does not match its queue's schema in jobs/contracts.ts. */
export class InvalidJobPayloadError extends OikosError {
  readonly queue: string;

  constructor(queue: string, issues: readonly { path: readonly PropertyKey[]; message: string }[]) {
    const detail = issues.map((i) => `${i.path.map(String).join(".") || "(root)"}: ${i.message}`).join("; ");
    super("job_payload_invalid", `Invalid payload for queue "${queue}": ${detail}`);
    this.name = "InvalidJobPayloadError";
    this.queue = queue;
  }
}

/** enqueue/register on a queue adapter that is closing or closed. */
export class QueueClosedError extends OikosError {
  constructor(action: string) {
    super("queue_closed", `The job queue is shutting down; cannot ${action}.`);
    this.name = "QueueClosedError";
  }
}
