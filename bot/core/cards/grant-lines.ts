import type { Approval } from "../../../store/approvals.ts";
import type { Db } from "../../../store/db.ts";
import { getStandingGrant, grantMadeBy, type StandingGrant } from "../../../store/standing-grants.ts";

/**
 * What an approval card says of a standing grant (issue #32): on a run under a grant, "ran under ♾️
 * grant g-…, by @alice, until …"; on the approval that made one, "♾️ standing grant g-… … until …".
 * Null when the approval has nothing to do with a grant.
 */
export async function grantLineOf(db: Db, approval: Approval): Promise<string | null> {
  if (approval.standing_grant_id) {
    const grant = await getStandingGrant(db, approval.standing_grant_id);
    if (!grant) return `ran under ♾️ grant ${approval.standing_grant_id}`;
    return `ran under ♾️ grant ${grant.id}, by ${grant.granted_by}, until ${day(grant.expires_at)}${ended(grant)}`;
  }
  const made = await grantMadeBy(db, approval.id);
  if (!made) return null;
  return `♾️ standing grant ${made.id} by ${made.granted_by}: this command on \`${made.target}\` runs again without asking until ${day(made.expires_at)}${ended(made)}`;
}

/** "2026-12-09 14:02 UTC" */
export function day(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

function ended(grant: StandingGrant): string {
  if (!grant.ended_at) return "";
  return grant.end_reason === "revoked"
    ? ` (revoked by ${grant.ended_by ?? "?"} at ${day(grant.ended_at)})`
    : ` (ended at ${day(grant.ended_at)}: ${GRANT_END_WORDS[grant.end_reason ?? "revoked"]})`;
}

const GRANT_END_WORDS = {
  revoked: "revoked",
  routing_changed: "the target's routing changed",
  proof_changed: "oikos reads the command differently now",
  jail_changed: "the target's read-only jail changed",
} as const;
