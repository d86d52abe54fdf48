/**
 * Quorum and separation of duties for approvals (issue #32), pure. `approvals.rules` in oikos.yaml
 * names, per room, entity or risk, how many distinct people must approve an execution, whether the
 * person who asked for the task may be its only approver, and who may approve at all. Every rule
 * that matches applies: the most approvals any asks, separation if any asks it, and only people in
 * every group named. No rule: one operator decides, as before.
 */

export type QuorumRisk = "read_only" | "config_mutation" | "destructive";

export interface ApprovalRule {
  /** The room (Matrix room id, Slack channel id, `terminal`) it applies in; any room when absent. */
  room?: string;
  /** Entity slugs it applies to: exact (`host:nas`) or a prefix ending in `*` (`lxc:storage-*`). */
  entities?: readonly string[];
  /** The risks it applies to; every risk when absent. */
  risks?: readonly QuorumRisk[];
  /** Distinct people who must approve (default 1). */
  approvals?: number;
  /** The person who asked for the task cannot be the only approver. */
  separateRequester?: boolean;
  /** Only these people may approve (platform user ids); anyone who may approve in the room when absent. */
  approvers?: readonly string[];
}

export interface Quorum {
  required: number;
  separateRequester: boolean;
  /** null: whoever may approve in the room. */
  approvers: readonly string[] | null;
}

export const NO_QUORUM: Quorum = { required: 1, separateRequester: false, approvers: null };
export const MAX_APPROVALS = 5;

function entityMatches(pattern: string, slug: string): boolean {
  return pattern.endsWith("*") ? slug.startsWith(pattern.slice(0, -1)) : pattern === slug;
}

/** What the rules that match this approval ask, merged (the strictest of each). */
export function quorumFor(
  rules: readonly ApprovalRule[],
  at: { room: string; target: string; risk: QuorumRisk },
): Quorum {
  let quorum: Quorum = NO_QUORUM;
  for (const rule of rules) {
    if (rule.room !== undefined && rule.room !== at.room) continue;
    if (rule.entities && !rule.entities.some((pattern) => entityMatches(pattern, at.target))) continue;
    if (rule.risks && !rule.risks.includes(at.risk)) continue;
    const approvers =
      rule.approvers === undefined
        ? quorum.approvers
        : quorum.approvers === null
          ? [...rule.approvers]
          : quorum.approvers.filter((person) => rule.approvers?.includes(person));
    quorum = {
      required: Math.min(MAX_APPROVALS, Math.max(quorum.required, Math.floor(rule.approvals ?? 1))),
      separateRequester: quorum.separateRequester || (rule.separateRequester ?? false),
      approvers,
    };
  }
  return quorum;
}

export type VoteJudgement =
  /** The vote counts; `done` when the approval now has what it needs. */
  | { kind: "counted"; have: number; need: number; done: boolean; waitingFor: WaitingFor }
  | { kind: "refused"; why: "not_an_approver" | "already_voted" };

/** Who can still complete the approval: named people, or "another operator" (anyone but those who voted). */
export type WaitingFor =
  | { kind: "people"; people: string[] }
  | { kind: "anyone_else"; notRequester: boolean };

/**
 * One person's approval against the quorum, given who approved before. The requester's vote counts
 * toward the number, but with separation it never completes the approval alone: someone else must
 * approve too.
 */
export function judgeVote(
  quorum: Quorum,
  input: { voter: string; earlier: readonly string[]; requester: string | null },
): VoteJudgement {
  if (quorum.approvers !== null && !quorum.approvers.includes(input.voter))
    return { kind: "refused", why: "not_an_approver" };
  if (input.earlier.includes(input.voter)) return { kind: "refused", why: "already_voted" };
  const voters = [...input.earlier, input.voter];
  return { kind: "counted", ...tally(quorum, voters, input.requester) };
}

/** Where an approval stands with these voters. */
export function tally(
  quorum: Quorum,
  voters: readonly string[],
  requester: string | null,
): { have: number; need: number; done: boolean; waitingFor: WaitingFor } {
  const distinct = [...new Set(voters)];
  const someoneElse = !quorum.separateRequester || distinct.some((voter) => voter !== requester);
  const done = distinct.length >= quorum.required && someoneElse;
  // Separation with only the requester's votes: one more person is needed even past the number.
  const need = Math.max(quorum.required, someoneElse ? quorum.required : distinct.length + 1);
  const excluded = new Set([...distinct, ...(quorum.separateRequester && requester ? [requester] : [])]);
  const waitingFor: WaitingFor =
    quorum.approvers === null
      ? { kind: "anyone_else", notRequester: quorum.separateRequester && !someoneElse }
      : { kind: "people", people: quorum.approvers.filter((person) => !excluded.has(person)) };
  return { have: distinct.length, need, done, waitingFor };
}

/** "1 of 2 approvals — waiting for one of @carol, @dave" */
export function quorumLine(have: number, need: number, waitingFor: WaitingFor): string {
  const who =
    waitingFor.kind === "people"
      ? waitingFor.people.length > 0
        ? `one of ${waitingFor.people.join(", ")}`
        : "nobody left who may approve: deny it, or change approvals.rules"
      : waitingFor.notRequester
        ? "another operator (the requester cannot be the only approver)"
        : "another operator";
  return `${have} of ${need} approvals — waiting for ${who}`;
}
