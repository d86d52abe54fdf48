import { judgeVote, type Quorum, tally } from "../policy/quorum.ts";
import type { Approval } from "./approvals.ts";
import { type Executor, recordAudit } from "./audit.ts";

/**
 * Quorum votes (issue #32): one row per person who approved an execution that needs several.
 * Runs inside store/consent.ts decideApproval's transaction; policy/quorum.ts decides what counts.
 */
export type VoteOutcome =
  | { kind: "complete"; voters: string[] }
  | { kind: "waiting"; have: number; need: number }
  | { kind: "refused"; why: "not_an_approver" | "already_voted" };

export async function votersOf(db: Executor, approvalId: string): Promise<string[]> {
  const rows = await db
    .selectFrom("approval_votes")
    .select("voter")
    .where("approval_id", "=", approvalId)
    .orderBy("created_at")
    .execute();
  return rows.map((row) => row.voter);
}

export async function castVote(
  tx: Executor,
  approval: Approval,
  vote: { voter: string; via: string; quorum: Quorum; requester: string | null },
  now: Date,
): Promise<VoteOutcome> {
  const earlier = await votersOf(tx, approval.id);
  const judged = judgeVote(vote.quorum, { voter: vote.voter, earlier, requester: vote.requester });
  if (judged.kind === "refused") return judged;
  await tx
    .insertInto("approval_votes")
    .values({ approval_id: approval.id, voter: vote.voter, via: vote.via, created_at: now })
    .execute();
  await tx
    .updateTable("approvals")
    .set({ quorum: JSON.stringify({ ...vote.quorum, requester: vote.requester }) })
    .where("id", "=", approval.id)
    .execute();
  await recordAudit(
    tx,
    { by: vote.voter, sessionId: approval.session_id },
    {
      action: "approval.vote",
      subject: approval.execution_id ?? approval.id,
      details: { approvalId: approval.id, via: vote.via, have: judged.have, need: judged.need },
    },
  );
  return judged.done
    ? { kind: "complete", voters: [...earlier, vote.voter] }
    : { kind: "waiting", have: judged.have, need: judged.need };
}

/** Where a pending approval with a quorum stands, for its card; null when nobody voted yet. */
export async function quorumStanding(db: Executor, approval: Approval) {
  if (!approval.quorum) return null;
  const voters = await votersOf(db, approval.id);
  return { voters, ...tally(approval.quorum, voters, approval.quorum.requester) };
}
