import { isDeepStrictEqual } from "node:util";
import { refusal } from "../../policy/refusals.ts";
import type { JsonObject } from "../../store/db.ts";
import type { Target } from "../ssh/target.ts";

/**
 * The routing an execution is approved for: where its target resolved to when it was gated (the
 * transport, the SSH endpoint, the owning host and guest id). Stored on the row; the worker resolves
 * the target again and runs the command only if it still goes to the same place.
 */
export function routingStamp(target: Target): JsonObject {
  return JSON.parse(JSON.stringify(target)) as JsonObject;
}

/**
 * Null when the execution may run where the target resolves now (or the row predates routing
 * stamps); otherwise the reason it is refused: the entity was re-routed after approval, so running it
 * would send an approved command somewhere nobody approved.
 */
export function routingChangedReason(approved: JsonObject | null, now: Target): string | null {
  if (approved === null) return null;
  const current = routingStamp(now);
  // a stamp written before guests carried their name compares without it
  if (!("guest" in approved)) delete current.guest;
  if (isDeepStrictEqual(approved, current)) return null;
  const made = refusal(
    "routing_changed",
    `the routing of ${now.slug} changed after this command was approved (approved for ${describe(approved)}, now ${describe(current)}); nothing ran`,
  );
  return `Refused (${made.code}): ${made.reason}. Next: ${made.next_step}`;
}

function describe(stamp: JsonObject): string {
  const ssh = stamp.ssh as { host?: string; port?: number; username?: string } | undefined;
  const via = stamp.via as JsonObject | undefined;
  const where = ssh
    ? `${ssh.username}@${ssh.host}:${ssh.port}`
    : via
      ? `vmid ${String(stamp.vmid)} via ${describe(via)}`
      : "";
  const guest = typeof stamp.guest === "string" ? ` (${stamp.guest})` : "";
  const shell = typeof stamp.shell === "string" ? `, ${stamp.shell}` : "";
  return `${String(stamp.transport)}${where ? ` ${where}` : ""}${guest}${shell}`;
}
