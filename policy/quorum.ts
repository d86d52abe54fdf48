/**
 * Quorum and separation of duties for approvals (issue #32), pure. `approvals.rules` in oikos.yaml
 * names, per room, entity or risk, how many distinct people must approve an execution, whether the
 * person who asked for the task may be its only approver, and who may approve at all. Every rule
 * that matches applies: the most approvals any asks, separation if any asks it, and only people in
 * every group named. No rule: one operator decides, as before. A rule's approvers may name groups the
 * chat platform keeps (a Matrix room's power levels, a Slack user group): the adapter reads their
 * members when someone decides (`groupsFor`, then `quorumFor` with the members), so this stays pure.
 */

export type QuorumRisk = "read_only" | "config_mutation" | "destructive";

/** A group of approvers the chat platform keeps, read by its adapter when someone decides. */
export type ApproverGroup =
  /** Members of the room whose power level (its m.room.power_levels state) is at least this. */
  | { kind: "matrix_power_level"; atLeast: number }
  /** Members of a Slack user group (usergroups.users.list); `name` is its handle, for cards. */
  | { kind: "slack_usergroup"; id: string; name?: string };

/** One key per group, for the members the adapter read. */
export function groupKey(group: ApproverGroup): string {
  return group.kind === "matrix_power_level"
    ? `matrix_power_level:${group.atLeast}`
    : `slack_usergroup:${group.id}`;
}

/** How a card names the group: "power level ≥ 50 in this room", "Slack user group @oncall". */
export function groupLabel(group: ApproverGroup): string {
  return group.kind === "matrix_power_level"
    ? `power level ≥ ${group.atLeast} in this room`
    : `Slack user group ${group.name ? `@${group.name.replace(/^@/, "")}` : group.id}`;
}

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
  /** Only members of these groups may approve (with `approvers`: those people too). */
  approverGroups?: readonly ApproverGroup[];
}

export interface Quorum {
  required: number;
  separateRequester: boolean;
  /** null: whoever may approve in the room. */
  approvers: readonly string[] | null;
  /** The groups the approvers were read from, named for the card (absent: none). */
  groups?: readonly string[];
}

export const NO_QUORUM: Quorum = { required: 1, separateRequester: false, approvers: null };
export const MAX_APPROVALS = 5;

function entityMatches(pattern: string, slug: string): boolean {
  return pattern.endsWith("*") ? slug.startsWith(pattern.slice(0, -1)) : pattern === slug;
}

function ruleMatches(rule: ApprovalRule, at: { room: string; target: string; risk: QuorumRisk }): boolean {
  if (rule.room !== undefined && rule.room !== at.room) return false;
  if (rule.entities && !rule.entities.some((pattern) => entityMatches(pattern, at.target))) return false;
  return !rule.risks || rule.risks.includes(at.risk);
}

/** The approver groups of the rules that match: the adapter reads their members before `quorumFor`. */
export function groupsFor(
  rules: readonly ApprovalRule[],
  at: { room: string; target: string; risk: QuorumRisk },
): ApproverGroup[] {
  const groups = new Map<string, ApproverGroup>();
  for (const rule of rules)
    if (ruleMatches(rule, at))
      for (const group of rule.approverGroups ?? []) groups.set(groupKey(group), group);
  return [...groups.values()];
}

/**
 * What the rules that match this approval ask, merged (the strictest of each). `members` holds the
 * people of each approver group (by `groupKey`) as the platform told them now; a group it could not
 * read has none, so nobody gets in through it (fail closed).
 */
export function quorumFor(
  rules: readonly ApprovalRule[],
  at: { room: string; target: string; risk: QuorumRisk },
  members: ReadonlyMap<string, readonly string[]> = new Map(),
): Quorum {
  let quorum: Quorum = NO_QUORUM;
  const groups: string[] = [];
  for (const rule of rules) {
    if (!ruleMatches(rule, at)) continue;
    const named =
      rule.approvers === undefined && rule.approverGroups === undefined
        ? undefined
        : [
            ...new Set([
              ...(rule.approvers ?? []),
              ...(rule.approverGroups ?? []).flatMap((group) => members.get(groupKey(group)) ?? []),
            ]),
          ];
    for (const group of rule.approverGroups ?? []) groups.push(groupLabel(group));
    const approvers =
      named === undefined
        ? quorum.approvers
        : quorum.approvers === null
          ? named
          : quorum.approvers.filter((person) => named.includes(person));
    quorum = {
      required: Math.min(MAX_APPROVALS, Math.max(quorum.required, Math.floor(rule.approvals ?? 1))),
      separateRequester: quorum.separateRequester || (rule.separateRequester ?? false),
      approvers,
      ...(groups.length > 0 ? { groups: [...new Set(groups)] } : {}),
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
  /** `groups`: the approver groups the people were read from, named on the card. */
  | { kind: "people"; people: string[]; groups?: readonly string[] }
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
      : {
          kind: "people",
          people: quorum.approvers.filter((person) => !excluded.has(person)),
          ...(quorum.groups?.length ? { groups: quorum.groups } : {}),
        };
  return { have: distinct.length, need, done, waitingFor };
}

/** "1 of 2 approvals — waiting for one of @carol, @dave (power level ≥ 50 in this room)" */
export function quorumLine(have: number, need: number, waitingFor: WaitingFor): string {
  const groups =
    waitingFor.kind === "people" && waitingFor.groups?.length ? ` (${waitingFor.groups.join("; ")})` : "";
  const who =
    waitingFor.kind === "people"
      ? waitingFor.people.length > 0
        ? `one of ${waitingFor.people.join(", ")}${groups}`
        : `nobody left who may approve${groups}: deny it, or change approvals.rules`
      : waitingFor.notRequester
        ? "another operator (the requester cannot be the only approver)"
        : "another operator";
  return `${have} of ${need} approvals — waiting for ${who}`;
}
