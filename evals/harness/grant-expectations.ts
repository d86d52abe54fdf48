import type { Kysely } from "kysely";
import { z } from "zod";
import type { Database } from "../../store/schema.ts";
import type { DoubleEvent } from "../../test-support/matrix-double/homeserver-state.ts";
import { checkCount, count } from "./count.ts";

/**
 * `expect.grants:` what the standing grants (♾️, issue #32) of the run were made of and covered,
 * read from the store and the room, never from the bot's own counters:
 *
 * - `created`: grants made; `by` / `via`: who made each and how (`reaction`, `phrase`, `button`)
 * - `uses`: runs under a grant (approval rows the grant decided, channel `grant`); each must be
 *   audited `grant.used` naming its execution, and the grant's own count must agree
 * - `audited_runs`: executions completed under a grant with an audit row naming the grant: the run
 *   the ♾️ approved (`grant.created`, its approval) and each use (`grant.used`, its execution)
 * - `cards_naming`: approval cards whose text, as last edited, names a grant's id
 * - `ended`: grants revoked or invalidated
 */
export const grantsSpec = z
  .object({
    created: count.optional(),
    by: z.string().optional(),
    via: z.string().optional(),
    uses: count.optional(),
    audited_runs: count.optional(),
    cards_naming: count.optional(),
    ended: count.optional(),
  })
  .strict();
export type GrantsSpec = z.infer<typeof grantsSpec>;

/** Each message the bot sent, as its last edit reads: root event id → text. */
export function lastEditedTexts(events: readonly DoubleEvent[]): Map<string, string> {
  const texts = new Map<string, string>();
  for (const event of events) {
    const rel = event.content["m.relates_to"] as { rel_type?: string; event_id?: string } | undefined;
    if (rel?.rel_type === "m.replace" && rel.event_id) {
      const edited = event.content["m.new_content"] as { body?: unknown } | undefined;
      texts.set(rel.event_id, String(edited?.body ?? event.content.body ?? ""));
    } else if (!texts.has(event.event_id)) {
      texts.set(event.event_id, String(event.content.body ?? ""));
    }
  }
  return texts;
}

export async function checkGrants(
  db: Kysely<Database>,
  spec: GrantsSpec | undefined,
  cardTexts: ReadonlyMap<string, string>,
  failures: string[],
): Promise<void> {
  if (!spec) return;
  const grants = await db.selectFrom("standing_grants").selectAll().orderBy("created_at").execute();
  checkCount("standing grants created", grants.length, spec.created, failures);
  for (const grant of grants) {
    if (spec.by && grant.granted_by !== spec.by)
      failures.push(`grant ${grant.id} made by ${grant.granted_by}, expected ${spec.by}`);
    if (spec.via && grant.granted_via !== spec.via)
      failures.push(`grant ${grant.id} made via ${grant.granted_via}, expected ${spec.via}`);
  }
  checkCount("standing grants ended", grants.filter((g) => g.ended_at !== null).length, spec.ended, failures);

  const ids = grants.map((g) => g.id);
  const audit = await db
    .selectFrom("audit_log")
    .select(["action", "subject", "details"])
    .where("action", "in", ["grant.created", "grant.used"])
    .execute();
  const usedAudit = new Set(
    audit
      .filter((a) => a.action === "grant.used" && a.subject !== null && ids.includes(a.subject))
      .map((a) => String((a.details as { executionId?: unknown }).executionId)),
  );
  const createdAudit = new Set(
    audit
      .filter((a) => a.action === "grant.created" && a.subject !== null && ids.includes(a.subject))
      .map((a) => String((a.details as { approvalId?: unknown }).approvalId)),
  );

  const uses = await db
    .selectFrom("approvals")
    .select(["id", "execution_id", "standing_grant_id", "channel", "status"])
    .where("standing_grant_id", "is not", null)
    .execute();
  checkCount("runs under a grant", uses.length, spec.uses, failures);
  for (const use of uses) {
    if (use.channel !== "grant" || use.status !== "approved")
      failures.push(
        `approval ${use.id} under grant ${use.standing_grant_id} is ${use.status} via ${use.channel}`,
      );
    if (!usedAudit.has(String(use.execution_id)))
      failures.push(
        `the run ${use.execution_id} under grant ${use.standing_grant_id} has no grant.used audit row`,
      );
  }
  for (const grant of grants) {
    const counted = uses.filter((u) => u.standing_grant_id === grant.id).length;
    if (grant.uses !== counted)
      failures.push(`grant ${grant.id} counts ${grant.uses} uses, ${counted} runs were decided by it`);
  }

  if (spec.audited_runs !== undefined) {
    const approvalIds = [...grants.map((g) => g.approval_id), ...uses.map((u) => u.id)];
    const runs =
      approvalIds.length === 0
        ? []
        : await db
            .selectFrom("executions")
            .select(["id", "approval_id"])
            .where("approval_id", "in", approvalIds)
            .where("status", "=", "completed")
            .execute();
    const audited = runs.filter(
      (run) => usedAudit.has(run.id) || createdAudit.has(String(run.approval_id)),
    ).length;
    checkCount("completed runs audited under a grant", audited, spec.audited_runs, failures);
  }

  if (spec.cards_naming !== undefined) {
    const cards = await db
      .selectFrom("chat_cards")
      .select("message_id")
      .where("kind", "=", "approval")
      .execute();
    const naming = cards.filter((card) => {
      const text = cardTexts.get(card.message_id) ?? "";
      return ids.some((id) => text.includes(id));
    }).length;
    checkCount("approval cards naming a grant", naming, spec.cards_naming, failures);
  }
}
