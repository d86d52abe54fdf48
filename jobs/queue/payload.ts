import { type QueueName, type QueuePayload, queuePayloadSchemas } from "../contracts.ts";
import { InvalidJobPayloadError } from "./errors.ts";

/** Parses a payload against its queue's schema; throws InvalidJobPayloadError naming queue and issue. */
export function parsePayload<Q extends QueueName>(queue: Q, data: unknown): QueuePayload<Q> {
  const schema = queuePayloadSchemas[queue];
  if (!schema) throw new InvalidJobPayloadError(queue, [{ path: [], message: `unknown queue "${queue}"` }]);
  const result = schema.safeParse(data);
  if (!result.success) throw new InvalidJobPayloadError(queue, result.error.issues);
  return result.data as QueuePayload<Q>;
}
